import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/orm.ts';

/**
 * PGlite's cold start (initdb in WASM) takes seconds; pay it once per run: migrate a data dir here
 * and hand its dump to every test server, which loads it in about half a second.
 */
export default async function setup(project: TestProject) {
  const cache = join(import.meta.dirname, '..', '.cache');
  const dataDir = join(cache, 'template-data');
  const template = join(cache, 'pglite-template.tar');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });

  const db = await openDatabase({ kind: 'pglite', dataDir });
  await db.close();
  const pglite = await PGlite.create({ dataDir });
  writeFileSync(template, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
  rmSync(dataDir, { recursive: true, force: true });

  project.provide('pgliteTemplate', template);
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
