import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import { validateFrontmatter, type ValidatedFrontmatter } from '../config/load.ts';
import { preparePage, type PreparedPage } from '../content/mdx.ts';
import type { SanitizeOptions } from '../content/sanitize.ts';
import { sha256, writeAtomically } from './build-cache.ts';

/**
 * What reading and preparing each page gave the last build (its frontmatter validated, its MDX parsed, sanitised and
 * turned into Markdown), kept in the build cache for the next one: a page whose text and inputs are the same is not
 * parsed again (~0.2-0.3 s of a 1,000-page rebuild, against ~15 ms to read this back). Keyed by a hash of the text
 * and of everything else the steps read (the file's name, the site's variables, the base path, `zoomImages`, the docs
 * folder). The one thing they read outside that: whether the media files a page names exist; each entry records
 * the paths it asked about and their answers, and is used only while they still hold. The builder's own code is
 * not in the key: a build cache of another renderer is emptied whole (build-cache.ts).
 */

/** Changes with what an entry holds. */
const VERSION = 1;

interface FrontmatterEntry {
  data: ValidatedFrontmatter['data'];
  problems: ValidatedFrontmatter['problems'];
  bodyLine: number;
  /** Where the body starts in the source (it is the source from there). */
  bodyStart: number;
}

interface PreparedEntry {
  page: PreparedPage;
  /** Paths the sanitiser asked about (absolute) and whether each existed. */
  probes: [path: string, existed: boolean][];
}

interface Stored {
  version: number;
  frontmatter: [string, FrontmatterEntry][];
  prepared: [string, PreparedEntry][];
}

export class PreparedPages {
  readonly #file: string;
  readonly #frontmatter: Map<string, FrontmatterEntry>;
  readonly #prepared: Map<string, PreparedEntry>;
  /** What this build used: what the next one gets. */
  readonly #usedFrontmatter = new Map<string, FrontmatterEntry>();
  readonly #usedPrepared = new Map<string, PreparedEntry>();
  readonly #variables = new WeakMap<object, string>();
  /** Pages this build read or prepared anew. */
  misses = 0;

  private constructor(file: string, stored: Stored | undefined) {
    this.#file = file;
    this.#frontmatter = new Map(stored?.frontmatter);
    this.#prepared = new Map(stored?.prepared);
  }

  /** What the last build kept in `file`; nothing when there is none or it cannot be read (every page is prepared). */
  static async open(file: string): Promise<PreparedPages> {
    const stored = await readFile(file).then(
      (bytes) => {
        const value = deserialize(bytes) as Partial<Stored>;
        return value.version === VERSION && Array.isArray(value.frontmatter) && Array.isArray(value.prepared) ? (value as Stored) : undefined;
      },
      () => undefined,
    ).catch(() => undefined);
    return new PreparedPages(file, stored);
  }

  /** validateFrontmatter(file, source), or what it gave before for the same file name and source. */
  frontmatter(file: string, source: string): ValidatedFrontmatter {
    const key = sha256(file, source);
    let entry = this.#frontmatter.get(key);
    if (!entry) {
      const validated = validateFrontmatter(file, source);
      entry = { data: validated.data, problems: validated.problems, bodyLine: validated.bodyLine, bodyStart: source.length - validated.body.length };
      this.misses++;
    }
    this.#usedFrontmatter.set(key, entry);
    return { data: entry.data, problems: entry.problems, bodyLine: entry.bodyLine, body: source.slice(entry.bodyStart) };
  }

  /** preparePage(page, variables, options), or what it gave before for the same inputs while its media probes hold. */
  prepare(page: { file: string; body: string; bodyLine: number }, variables: Record<string, unknown>, options: SanitizeOptions): PreparedPage {
    let variablesJson = this.#variables.get(variables);
    if (variablesJson === undefined) this.#variables.set(variables, (variablesJson = JSON.stringify(variables)));
    const key = sha256(page.file, String(page.bodyLine), variablesJson, JSON.stringify([options.base, options.zoomImages, options.sourceDir]), page.body);
    let entry = this.#prepared.get(key);
    if (!entry || !entry.probes.every(([path, existed]) => existsSync(path) === existed)) {
      const probes: PreparedEntry['probes'] = [];
      const exists = (path: string) => {
        const existed = existsSync(path);
        probes.push([path, existed]);
        return existed;
      };
      entry = { page: preparePage(page, variables, { ...options, exists }), probes };
      this.misses++;
    }
    this.#usedPrepared.set(key, entry);
    return entry.page;
  }

  /** Keeps what this build used for the next one (written only when it differs from what was read). */
  async save(): Promise<void> {
    if (this.misses === 0 && this.#usedFrontmatter.size === this.#frontmatter.size && this.#usedPrepared.size === this.#prepared.size) return;
    const stored: Stored = { version: VERSION, frontmatter: [...this.#usedFrontmatter], prepared: [...this.#usedPrepared] };
    await writeAtomically(this.#file, serialize(stored));
  }
}
