import { fileURLToPath } from 'node:url';
import { browserBundleSize, describeBundleSize } from '../../client-sdk/build/browser-size.ts';

/** What a web app ships for the client SDK: every export with its dependencies, one minified bundle, raw and gzipped. */
export async function benchSdkBundle(): Promise<void> {
  const size = await browserBundleSize(fileURLToPath(new URL('../../client-sdk', import.meta.url)));
  console.log(`  @typed-platform/client, every export (esbuild, browser): ${describeBundleSize(size)}`);
}
