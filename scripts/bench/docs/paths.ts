/** Where the docs bench finds the repository: its node_modules (Astro, Starlight) and our renderer. */
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const OUR_RENDERER = join(REPO_ROOT, 'sites/index.ts');
