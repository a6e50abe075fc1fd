/**
 * Migrations on PostgreSQL (collected only with DATABASE_URL): servers starting at once on a fresh database
 * take the migration lock in turn, so each migration is applied exactly once and every server gets the schema.
 */
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/platform/db/migrations/index.ts';
import { openDatabase } from '../../server/platform/db/orm.ts';
import { createTestDatabase } from '../helpers/server.ts';

describe('PostgreSQL', () => {
  it('lets several servers start at once on a fresh database: one migrates, the others wait', async () => {
    const fresh = await createTestDatabase();
    try {
      const opened = await Promise.all([1, 2, 3].map(() => openDatabase(fresh.config)));
      try {
        const applied = await opened[0]!.em().execute<{ name: string }[]>('select name from mikro_orm_migrations order by id');
        expect(applied.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
        // Every opener sees the whole schema, whoever migrated.
        for (const db of opened) expect(await db.em().execute('select count(*) from organization')).toHaveLength(1);
      } finally {
        await Promise.all(opened.map((db) => db.close()));
      }
    } finally {
      await fresh.drop();
    }
  });
});
