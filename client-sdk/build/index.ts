/**
 * Builds the SDK package into client-sdk/dist/ (`npm run sdk:build`; `npm pack` in client-sdk/ runs it first):
 *   index.js    the SDK's modules as one ES module, its packages left as imports (javascript.ts)
 *   index.d.ts  one declaration file, AppRouter inlined (declarations.ts)
 * then checks package.json's dependencies against what both import (dependencies.ts) and prints what the SDK
 * weighs as a browser bundle (browser-size.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserBundleSize, describeBundleSize } from './browser-size.ts';
import { bundleDeclarations } from './declarations.ts';
import { checkDependencies } from './dependencies.ts';
import { bundleJavaScript } from './javascript.ts';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const dist = join(sdkDir, 'dist');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

const startedAt = performance.now();
rmSync(dist, { recursive: true, force: true });
const imported = [...(await bundleJavaScript(sdkDir, join(dist, 'index.js'))), ...(await bundleDeclarations(sdkDir, join(dist, 'index.d.ts')))];
checkDependencies(readJson(join(sdkDir, 'package.json')), readJson(join(sdkDir, '..', 'package.json')), imported);
const size = await browserBundleSize(sdkDir);
console.log(`client-sdk/dist: index.js and index.d.ts in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
console.log(`browser bundle of the whole SDK (esbuild): ${describeBundleSize(size)}`);
