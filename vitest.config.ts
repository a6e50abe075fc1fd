import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The suite runs on the embedded PGlite, or on PostgreSQL when DATABASE_URL is set (CI runs both). A file
 * named `*.postgres.test.ts` needs PostgreSQL (several server processes on one database, the shared rate-limit
 * store, the migration lock) and one named `*.pglite.test.ts` is about the embedded database: each is collected
 * only on its database, so a run has no skipped tests and each CI run covers its own.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
/** Tests that never touch the database (documentation sites, the packed docs CLI, a few of hosting's, openapi.json's lints): the PGlite run covers them. */
const databaseFree = [
  'tests/docs-sites/**',
  'tests/packages/docs-cli-package.test.ts',
  'tests/docs-hosting/build-processes.test.ts',
  'tests/docs-hosting/site-search.test.ts',
  'tests/platform/openapi-document.test.ts',
  'tests/platform/openapi-lint.test.ts',
  'tests/platform/openapi-spectral.test.ts',
];

// Each test file runs in a process of its own that loads Astro, Vite and the server anew: with Node's code cache
// (in this checkout, inherited by those processes and the ones they start) that takes ~0.7 s less each time.
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, 'node_modules', '.cache', 'node-compile-cache');

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(onPostgres ? ['tests/**/*.pglite.test.ts', ...databaseFree] : ['tests/**/*.postgres.test.ts'])],
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
    // At least two files at once: much of a file's time is spent waiting on processes it spawns (servers, builds,
    // chromium), so on 2 cores two workers take the suite from ~11-13 to ~8.5 minutes (vitest's default is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
