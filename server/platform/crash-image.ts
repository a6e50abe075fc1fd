import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/**
 * Crash tests' model of the disk after an OS crash or power cut (`TP_CRASH_IMAGE=<dir>`, test machinery like
 * TP_FAILPOINT): a copy of DATA_DIR holding only what this process's syncs made durable. A file's content is what
 * it held when it was last synced; a name exists once its directory was synced after the name appeared, and is gone
 * once its directory was synced after it went (a rename is both). Whatever else was written is lost. A crash test
 * kills the process and starts the next one on the copy. Unset, every hook is one comparison.
 */
export class CrashImage {
  readonly #root: string;
  readonly #image: string;
  /** The synced content of each file, by device and inode (a rename keeps them). */
  readonly #content = new Map<string, Buffer>();
  /** Each durable name (relative path) and the file it names. */
  readonly #names = new Map<string, string>();

  constructor(root: string, image: string) {
    this.#root = resolve(root);
    this.#image = resolve(image);
    mkdirSync(this.#image, { recursive: true });
  }

  /** Makes `path` durable as it is now (a synchronous sync has completed). */
  synced(path: string): void {
    this.capture(path)();
  }

  /**
   * Takes the content of `path` as it is now; the returned function makes it durable (call it when the sync that
   * started now has completed). A directory's entries are taken when it is called.
   */
  capture(path: string): () => void {
    const at = relative(this.#root, resolve(path));
    if (at.startsWith('..') || at.startsWith(sep)) return () => {}; // outside DATA_DIR (its parent, say): not modelled
    const stat = statSync(path);
    if (stat.isDirectory()) return () => this.#syncDirectory(path, at);
    const file = fileKey(stat);
    const bytes = readFileSync(path);
    return () => {
      this.#content.set(file, bytes);
      for (const [name, named] of this.#names) if (named === file) writeFileSync(join(this.#image, name), bytes);
    };
  }

  #syncDirectory(path: string, at: string): void {
    const target = join(this.#image, at);
    mkdirSync(target, { recursive: true });
    const entries = readdirSync(path, { withFileTypes: true });
    const present = new Set(entries.map((e) => e.name));
    for (const name of readdirSync(target)) {
      if (present.has(name)) continue;
      rmSync(join(target, name), { recursive: true, force: true });
      for (const durable of this.#names.keys()) if (durable === join(at, name) || durable.startsWith(join(at, name) + sep)) this.#names.delete(durable);
    }
    for (const entry of entries) {
      const name = join(at, entry.name);
      if (entry.isDirectory()) mkdirSync(join(this.#image, name), { recursive: true });
      if (!entry.isFile()) continue;
      const file = fileKey(statSync(join(path, entry.name)));
      this.#names.set(name, file);
      writeFileSync(join(this.#image, name), this.#content.get(file) ?? Buffer.alloc(0));
    }
  }
}

const fileKey = (stat: Stats) => `${stat.dev}:${stat.ino}`;

const image = process.env.TP_CRASH_IMAGE;
/** The model, when this process runs under a crash test. */
export const crashImage = image ? new CrashImage(process.env.DATA_DIR ?? './data', image) : undefined;
