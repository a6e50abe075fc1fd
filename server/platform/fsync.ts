import { closeSync, fsyncSync, openSync } from 'node:fs';

/** Syncs a file or directory by its path: a directory's sync makes the names created or renamed in it durable. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
