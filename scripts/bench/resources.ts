/**
 * The resource API part of the API bench: 1,000 employees seeded into one organization, and
 *   GET  /employee-resources   over HTTP, via ResourceService.listEmployees, via a raw em.find
 *   POST /employee-resources   over HTTP, via ResourceService.createEmployee
 */
import type { RunningServer } from '../../server/app.ts';
import { EmployeeResource } from '../../server/resources/entities.ts';
import type { EmployeeCreate } from '../../server/resources/schemas.ts';
import type { ApiSetup } from './api.ts';
import { integer, secondsSince } from './common/format.ts';

export const SEEDED_EMPLOYEES = 1_000;
const SEED_CONCURRENCY = 10;

function employeeBody(resourceId: string): EmployeeCreate {
  return {
    resourceId,
    resourceName: 'Ada Lovelace',
    timezone: 'Europe/London',
    createdAt: '2026-01-15T09:30:00.000Z',
    isActive: true,
    userId: `user-${resourceId}`,
    email: 'ada@example.com',
    role: 'Engineer',
  };
}

/** Seeds through the service, SEED_CONCURRENCY inserts at a time. */
async function seedEmployees(server: RunningServer, orgId: string): Promise<void> {
  let next = 0;
  const insertUntilDone = async () => {
    while (next < SEEDED_EMPLOYEES) {
      const id = `seed-${next++}`;
      await server.services.resources.createEmployee(orgId, employeeBody(id));
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, insertUntilDone));
}

/** One request of each kind, so that a broken scenario fails loudly instead of benchmarking errors. */
async function checkScenariosWork(server: RunningServer, apiKey: string): Promise<void> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const list = await fetch(`${server.url}/employee-resources`, { headers });
  const listed: unknown = await list.json();
  if (list.status !== 200 || !Array.isArray(listed) || listed.length !== SEEDED_EMPLOYEES) {
    throw new Error(`GET /employee-resources answered ${list.status} with ${Array.isArray(listed) ? listed.length : 'no'} items`);
  }
  const body = JSON.stringify(employeeBody('check-1'));
  const created = await fetch(`${server.url}/employee-resources`, { method: 'POST', headers, body });
  if (created.status !== 201) throw new Error(`POST /employee-resources answered ${created.status}: ${await created.text()}`);
}

/** A counter per run, so every created resource gets an id of its own. */
function uniqueIds(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/** A new organization with SEEDED_EMPLOYEES employees; both scenarios checked to work. */
export async function setUpResources(server: RunningServer): Promise<ApiSetup> {
  const { orgId, apiKey } = await server.services.organizations.create('Bench');
  const seedingAt = performance.now();
  await seedEmployees(server, orgId);
  const notes = [`seeded ${integer(SEEDED_EMPLOYEES)} employees in ${secondsSince(seedingAt)}`];
  await checkScenariosWork(server, apiKey);
  const headers = { authorization: `Bearer ${apiKey}` };
  const nextId = uniqueIds('direct');
  return {
    notes,
    scenarios: [
      {
        scenario: 'GET /employee-resources',
        http: { path: '/employee-resources', headers },
        direct: [
          { path: 'service listEmployees', operation: () => server.services.resources.listEmployees(orgId) },
          { path: 'MikroORM em.fork().find (ref.)', operation: () => server.db.orm.em.fork().find(EmployeeResource, { organization: orgId }) },
        ],
      },
      {
        scenario: 'POST /employee-resources',
        http: { method: 'POST', path: '/employee-resources', headers, body: JSON.stringify(employeeBody('http-[<id>]')) },
        direct: [{ path: 'service createEmployee', operation: () => server.services.resources.createEmployee(orgId, employeeBody(nextId())) }],
      },
    ],
  };
}
