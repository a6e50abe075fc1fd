import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * dist/index.js: the SDK's own modules as one ES module, for Node and browsers. Its packages stay imports, for
 * the consumer to install and dedupe. The `import type`s of routers/ and server/ vanish; any other module from
 * outside client-sdk/ fails the build, so the package never carries server code. Not minified: apps minify.
 * Returns what the module imports.
 */
export async function bundleJavaScript(sdkDir: string, outfile: string): Promise<string[]> {
  const { metafile } = await build({
    absWorkingDir: sdkDir,
    entryPoints: [join(sdkDir, 'index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    // neutral: no Node built-ins (a `node:` import fails here), the SDK must run in browsers too.
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
  });
  const outside = Object.keys(metafile.inputs).filter((input) => input.startsWith('../'));
  if (outside.length > 0) throw new Error(`dist/index.js would carry code from outside client-sdk/: ${outside.join(', ')}`);
  return Object.values(metafile.outputs).flatMap((output) => output.imports.map((imported) => imported.path));
}
