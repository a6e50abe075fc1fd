import { chmodSync, closeSync, fdatasync, fsyncSync, openSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { crashImage } from './crash-image.ts';

/** Syncs a file or directory by its path: a directory's sync makes the names created or renamed in it durable. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncFile(fd, path);
  } finally {
    closeSync(fd);
  }
}

/** Syncs an open file or directory (`path` names it for crash tests' model of the disk). */
export function fsyncFile(fd: number, path: string): void {
  fsyncSync(fd);
  crashImage?.synced(path);
}

/** fdatasync on the thread pool: what the file held when it was called is on disk when it resolves. */
export function fdatasyncFile(fd: number, path: string): Promise<void> {
  const synced = crashImage?.capture(path);
  return new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))).then(() => synced?.());
}

/**
 * Creates a file that must not exist yet (a key, say) with `mode`, and makes it durable, content and name: without
 * the syncs a power cut soon after could leave it empty, or gone while what it protects survived.
 */
export function createFileDurably(path: string, content: string, mode: number): void {
  writeFileSync(path, content, { flag: 'wx', mode });
  chmodSync(path, mode); // whatever the umask
  fsyncPath(path);
  fsyncPath(dirname(path));
}
