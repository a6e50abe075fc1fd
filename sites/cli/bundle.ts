/**
 * Bundles the `docs` CLI for its package (`npm pack` in sites/ runs it): Node refuses to strip types under
 * node_modules, so the CLI and the builder run there as JavaScript (`dist/docs.js`, and beside it the worker
 * entries `dist/social-worker.js`, the social images' thread, and `dist/astro-worker.js`, an Astro build's
 * process). The Astro project (src/) and the modules its pages import stay TypeScript: Vite compiles those.
 * Packages stay imports, resolved from the package's dependencies.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist');
await rm(out, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    docs: join(root, 'cli', 'docs.ts'),
    'social-worker': join(root, 'builder', 'social-worker.ts'),
    'astro-worker': join(root, 'builder', 'astro-worker.ts'),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  packages: 'external',
  // Chunks sit beside the entries: SITES_DIR (one folder up from any of them) is the package's root.
  chunkNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`bundled the docs CLI into ${out} (${(bytes / 1024).toFixed(0)} kB)`);
