#!/usr/bin/env node
/* global process, console */
// The `docs` command of the packed CLI. Plain JavaScript with no static imports, so that on a Node too old for
// Astro it still runs far enough to say so (a module graph Node cannot load would fail with an obscure error).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`docs needs Node 22.12 or newer (Astro's floor); this is Node ${process.versions.node}. Install a newer Node (https://nodejs.org) and run it again.`);
  process.exit(1);
}
await import('../dist/docs.js');
