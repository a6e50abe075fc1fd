/**
 * `npm run seed` as a developer runs it (a process on the configured database): it writes a marketplace the API
 * then serves, with statistics that match its orders and reviews, and a second run leaves a seeded database alone.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { processEnvFor } from '../helpers/server-process.ts';
import { createTestDatabase, testConfig } from '../helpers/server.ts';

const root = new URL('../..', import.meta.url).pathname;
const seed = (config: DatabaseConfig, ...args: string[]) =>
  promisify(execFile)(process.execPath, ['server/marketplace/seed/seed.ts', ...args], { cwd: root, env: processEnvFor(config) });

let database: { config: DatabaseConfig; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('npm run seed', () => {
  it('fills an empty database with agents the API serves, rated from their reviews; a second run changes nothing', async () => {
    const first = await seed(database.config);
    const agents = Number(/(\d+) agents \(/.exec(first.stdout)?.[1]);
    expect(agents).toBeGreaterThan(10);

    const again = await seed(database.config);
    expect(again.stdout).toContain(`already seeded (${agents} agents); nothing to do`);

    const server = await startServer(testConfig(database.config), createLogger('silent'));
    try {
      const search = (await (await fetch(`${server.url}/api/agents/search?limit=100`)).json()) as { total: number; agents: { id: string; rating: number; completedOrders: number }[] };
      expect(search.total).toBe(agents);
      const rated = search.agents.find((agent) => agent.rating > 0 && agent.completedOrders > 0);
      expect(rated).toBeDefined();
      const detail = (await (await fetch(`${server.url}/api/agents/${rated!.id}`)).json()) as { rating: number; reviews: { rating: number }[] };
      expect(detail.reviews.length).toBeGreaterThan(0);
      if (detail.reviews.length < 50) {
        const mean = detail.reviews.reduce((sum, review) => sum + review.rating, 0) / detail.reviews.length;
        expect(detail.rating).toBeCloseTo(mean, 3);
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});
