import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/platform/db/orm.ts';

/**
 * PGlite's cold start (initdb in WASM) takes seconds; pay it once per run: migrate a data dir here
 * and hand its dump to every test server, which loads it in about half a second.
 */
export default async function setup(project: TestProject) {
  const work = mkdtempSync(join(tmpdir(), 'tp-template-'));
  const dataDir = join(work, 'data');
  const template = join(work, 'pglite-template.tar');

  const db = await openDatabase({ kind: 'pglite', dataDir });
  await db.close();
  const pglite = await PGlite.create({ dataDir });
  writeFileSync(template, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
  rmSync(dataDir, { recursive: true, force: true });

  project.provide('pgliteTemplate', template);
  return () => rmSync(work, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
