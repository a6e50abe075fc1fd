import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rollup, type Plugin } from 'rollup';
import { dts } from 'rollup-plugin-dts';

/**
 * The server's tRPC context and procedure meta as a client sees them. AppRouter's declaration names `Context`
 * (every service, hence MikroORM, pg, LiteSVM...) and `Meta` (trpc-to-openapi's), which tRPC's client types never
 * read: they infer from inputs, outputs, the error shape and the transformer. routers/trpc.ts re-exports both, so
 * its declarations are swapped for these and no server package reaches the consumer.
 */
const CLIENT_VIEW_OF_TRPC = 'export type Context = object;\nexport type Meta = object;\n';

function clientViewOfTrpc(typesDir: string): Plugin {
  const trpcDeclarations = join(typesDir, 'routers', 'trpc.d.ts');
  return { name: 'client-view-of-trpc', load: (id) => (id === trpcDeclarations ? CLIENT_VIEW_OF_TRPC : null) };
}

/** tsc's declarations of the SDK and of the routers/ and server/ files its types import (tsconfig.build.json). */
function emitDeclarations(sdkDir: string, outDir: string): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const { status } = spawnSync(process.execPath, [tsc, '-p', join(sdkDir, 'tsconfig.build.json'), '--outDir', outDir], { stdio: 'inherit' });
  if (status !== 0) throw new Error(`tsc could not emit the SDK's declarations (exit ${status})`);
}

const isPackage = (id: string) => /^[^./]/.test(id);

/**
 * dist/index.d.ts: one declaration file (rollup-plugin-dts), with AppRouter and the event types inlined from
 * routers/ and server/, so a consumer gets tRPC's inference without the server's source. Returns what it imports.
 */
export async function bundleDeclarations(sdkDir: string, outfile: string): Promise<string[]> {
  const typesDir = mkdtempSync(join(tmpdir(), 'client-sdk-types-'));
  try {
    emitDeclarations(sdkDir, typesDir);
    const bundle = await rollup({
      input: join(typesDir, 'client-sdk', 'index.d.ts'),
      external: isPackage,
      plugins: [clientViewOfTrpc(typesDir), dts()],
    });
    const { output } = await bundle.write({ file: outfile, format: 'es' });
    await bundle.close();
    return output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.imports : []));
  } finally {
    rmSync(typesDir, { recursive: true, force: true });
  }
}
