import { build } from 'esbuild';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleSize {
  minified: number;
  gzipped: number;
}

/**
 * What the whole SDK weighs in a browser: every export and its dependencies bundled by esbuild for the browser,
 * minified, then gzipped (level 9). An app that imports less ships less.
 */
export async function browserBundleSize(sdkDir: string): Promise<BundleSize> {
  const { outputFiles } = await build({
    entryPoints: [join(sdkDir, 'index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  const code = outputFiles[0]!.contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** "167.1 kB minified, 54.1 kB gzipped": how the build and `npm run bench` print it. */
export const describeBundleSize = ({ minified, gzipped }: BundleSize) => `${kb(minified)} minified, ${kb(gzipped)} gzipped`;
