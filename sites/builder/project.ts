import { fileURLToPath } from 'node:url';

/**
 * The Astro project (this folder's parent: src/, public/): in the source and in the CLI's bundle (cli/bundle.ts),
 * whose files sit one folder below the package's root too.
 */
export const SITES_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
