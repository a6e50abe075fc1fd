import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResourceClient } from '../../client-sdk/index.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';
import { asset, employee, fullEmployee, restClient, type Rest } from '../helpers/rest.ts';

let server: TestServer;
let acme: { orgId: string; rest: Rest };
let globex: { orgId: string; rest: Rest };

beforeAll(async () => {
  server = await startTestServer();
  const [a, g] = [await createOrganization(server, 'Acme'), await createOrganization(server, 'Globex')];
  acme = { orgId: a.orgId, rest: restClient(server.url, a.apiKey) };
  globex = { orgId: g.orgId, rest: restClient(server.url, g.apiKey) };
});
afterAll(() => server?.destroy());

describe('GET /all-resources', () => {
  it('answers 200 { employees, assets }, each item with orgId', async () => {
    const e = fullEmployee();
    const a = asset();
    await acme.rest('POST', '/employee-resources', e);
    await acme.rest('POST', '/asset-resources', a);
    const res = await acme.rest('GET', '/all-resources');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['assets', 'employees']);
    expect(res.body.employees).toContainEqual({ ...e, orgId: acme.orgId });
    expect(res.body.assets).toContainEqual({ ...a, orgId: acme.orgId });
  });

  it('filters by organization with ?orgId=', async () => {
    const e = employee();
    await acme.rest('POST', '/employee-resources', e);
    const res = await acme.rest('GET', `/all-resources?orgId=${acme.orgId}`);
    expect(res.status).toBe(200);
    expect(res.body.employees).toContainEqual({ ...e, orgId: acme.orgId });
    expect(res.body).toEqual((await acme.rest('GET', '/all-resources')).body);
  });

  it("answers empty lists for another organization's id: a key only sees its own organization", async () => {
    const res = await acme.rest('GET', `/all-resources?orgId=${globex.orgId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ employees: [], assets: [] });
  });

  it('lists the same through the SDK', async () => {
    const sdk = createResourceClient({ baseUrl: server.url, apiKey: (await createOrganization(server)).apiKey });
    const e = employee();
    await sdk.employees.create(e);
    const all = await sdk.all();
    expect(all.employees.map((x) => x.resourceId)).toEqual([e.resourceId]);
    expect(all.assets).toEqual([]);
  });
});

describe('one organization never sees another\u2019s resources', () => {
  it('listings are scoped to the key\u2019s organization', async () => {
    const mine = employee();
    const theirs = asset();
    await acme.rest('POST', '/employee-resources', mine);
    await globex.rest('POST', '/asset-resources', theirs);

    const globexEmployees = (await globex.rest('GET', '/employee-resources')).body;
    expect(globexEmployees.map((x: any) => x.resourceId)).not.toContain(mine.resourceId);
    const acmeAssets = (await acme.rest('GET', '/asset-resources')).body;
    expect(acmeAssets.map((x: any) => x.resourceId)).not.toContain(theirs.resourceId);
    const globexAll = (await globex.rest('GET', '/all-resources')).body;
    for (const item of [...globexAll.employees, ...globexAll.assets]) expect(item.orgId).toBe(globex.orgId);
  });

  it('updates cannot reach another organization\u2019s resource (404, unchanged)', async () => {
    const mine = employee();
    await acme.rest('POST', '/employee-resources', mine);
    const res = await globex.rest('PUT', `/employee-resources/${mine.resourceId}`, { resourceName: 'Hijacked' });
    expect(res.status).toBe(404);
    const stored = (await acme.rest('GET', '/employee-resources')).body.find((x: any) => x.resourceId === mine.resourceId);
    expect(stored.resourceName).toBe(mine.resourceName);
  });

  it('the same resourceId may exist in two organizations', async () => {
    const shared = employee();
    expect((await acme.rest('POST', '/employee-resources', shared)).status).toBe(201);
    expect((await globex.rest('POST', '/employee-resources', shared)).status).toBe(201);
  });
});
