import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, createResourceClient } from '../../client-sdk/index.ts';
import { breakDatabase, createOrganization, startTestServer, useOrganizationServer, type TestServer } from '../helpers/server.ts';
import { ENDPOINTS } from '../helpers/endpoints.ts';
import { employee, restClient, type Rest } from '../helpers/rest.ts';

let server: TestServer;
let apiKey: string;
let rest: Rest;
useOrganizationServer((f) => ({ server, apiKey, rest } = f));

const pathOf = (path: string) => path.replace('{id}', 'some-id');

/** The documented error body, exactly: no library fields, no stack traces. */
function expectErrorBody(body: unknown, action: string) {
  expect(body).toEqual({ message: `Error ${action}`, error: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
}

describe('authentication: Authorization: Bearer <organization API key>', () => {
  it.each(ENDPOINTS)('$method $path without a key answers 401 { message, error }', async ({ method, path, action, body }) => {
    const res = await restClient(server.url, null)(method, pathOf(path), body ? {} : undefined);
    expect(res.status).toBe(401);
    expectErrorBody(res.body, action);
    expect(res.body.error).toMatch(/Missing API key/);
  });

  it.each(ENDPOINTS)('$method $path with an unknown key answers 401', async ({ method, path, action, body }) => {
    const res = await restClient(server.url, 'rk_not-a-real-key')(method, pathOf(path), body ? {} : undefined);
    expect(res.status).toBe(401);
    expectErrorBody(res.body, action);
    expect(res.body.error).toBe('Unknown API key');
  });

  it('refuses another scheme than Bearer', async () => {
    const res = await rest('GET', '/employee-resources', undefined, { authorization: `Basic ${apiKey}` });
    expect(res.status).toBe(401);
  });

  it('reads the header as `Bearer`, whitespace, the key: any case, extra spaces and a trailing space tolerated, nothing else', async () => {
    const status = async (authorization: string) => (await rest('GET', '/employee-resources', undefined, { authorization })).status;
    for (const accepted of [`Bearer ${apiKey}`, `bearer ${apiKey}`, `Bearer   ${apiKey}`, `Bearer \t${apiKey}`, `Bearer ${apiKey} `]) expect(await status(accepted), accepted).toBe(200);
    for (const refused of [`xBearer ${apiKey}`, `Token Bearer ${apiKey}`, `Bearer ${apiKey} junk`, `Bearer ${apiKey}x`, `Bearer`, `Bearer${apiKey}`]) expect(await status(refused), refused).toBe(401);
  });

  it('creates nothing for an unauthenticated request', async () => {
    const input = employee();
    await restClient(server.url, null)('POST', '/employee-resources', input);
    const ids = (await rest('GET', '/employee-resources')).body.map((e: any) => e.resourceId);
    expect(ids).not.toContain(input.resourceId);
  });
});

describe('malformed requests answer 400 with the documented body', () => {
  const writes = ENDPOINTS.filter((e) => e.body);

  it.each(writes)('$method $path with malformed JSON', async ({ method, path, action }) => {
    const res = await rest(method, pathOf(path), '{"resourceId": ');
    expect(res.status).toBe(400);
    expectErrorBody(res.body, action);
    expect(res.body.error).toMatch(/not valid JSON/);
  });

  it.each(writes)('$method $path with a non-JSON content type', async ({ method, path, action }) => {
    const res = await rest(method, pathOf(path), 'resourceId=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, action);
    expect(res.body.error).toMatch(/Content-Type must be application\/json/);
  });

  it.each(writes)('$method $path with a JSON value that is not an object', async ({ method, path, action }) => {
    for (const value of ['[]', '"text"', '42', 'null']) {
      const res = await rest(method, pathOf(path), value);
      expect(res.status, value).toBe(400);
      expectErrorBody(res.body, action);
    }
  });

  it.each([['application/json; charset=utf-8'], ['Application/JSON'], ['application/json;charset="UTF-8"']])(
    'accepts the JSON media type %s',
    async (contentType) => {
      const res = await rest('POST', '/employee-resources', employee(), { 'content-type': contentType });
      expect(res.status).toBe(201);
    },
  );

  it.each([['application/jsonx'], ['application/json-patch+json'], ['application/json; charset=latin1'], ['text/json']])(
    'refuses the content type %s (400) and changes nothing',
    async (contentType) => {
      const input = employee();
      const res = await rest('POST', '/employee-resources', input, { 'content-type': contentType });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/Content-Type must be application\/json/);
      const ids = (await rest('GET', '/employee-resources')).body.map((e: any) => e.resourceId);
      expect(ids).not.toContain(input.resourceId);
    },
  );

  it('refuses a body that is not UTF-8 (400)', async () => {
    const res = await fetch(`${server.url}/employee-resources`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: Buffer.concat([Buffer.from('{"resourceName":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/not valid UTF-8/);
  });

  it.each([['constructor'], ['__proto__'], ['toString']])('names an unknown field called %s', async (field) => {
    const res = await rest('POST', '/employee-resources', `{${JSON.stringify(field)}: 1}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(`${field}: Unknown field`);
  });

  it('refuses arrays and objects nested more than 64 deep with 400 on every JSON endpoint, signed or not; 64 is parsed', async () => {
    const nested = (depth: number) => `{"resourceName": ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const post = (path: string, body: string, key: string | null = apiKey) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body });
    for (const [path, key] of [['/employee-resources', apiKey], ['/api/agents/register', null], ['/api/docs/repositories/acme/widgets/webhook', null]] as const) {
      for (const depth of [65, 40_000]) {
        const res = await post(path, nested(depth), key);
        expect(res.status, `${path} ${depth}`).toBe(400);
        // The resource API says it in `error`, the marketplace and hosting APIs in `message` (their `error` is a code).
        const body = (await res.json()) as { error: string; message: string };
        expect(`${body.error} ${body.message}`, path).toMatch(/nested more than 64 levels deep/);
      }
    }
    // 64 levels is read and judged by the action's own rules (resourceName must be a string).
    const atLimit = await post('/employee-resources', nested(64));
    expect(atLimit.status).toBe(400);
    expect(((await atLimit.json()) as { error: string }).error).toContain('resourceName: Invalid input: expected string, received array');
    // Brackets inside strings do not count; native tRPC answers a deep body as a client error too.
    expect((await post('/employee-resources', JSON.stringify(employee({ note: '['.repeat(1000) })))).status).toBe(201);
    expect((await post('/trpc/resources.employees.create', nested(40_000))).status).toBe(400);
  });

  it('answers 413 to a body over 100 kB', async () => {
    const res = await rest('POST', '/employee-resources', employee({ note: 'x'.repeat(120_000) }));
    expect(res.status).toBe(413);
    expectErrorBody(res.body, 'creating employee resource');
  });
});

describe('request targets that are not paths', () => {
  it.each([['OPTIONS', '*'], ['GET', 'http://[::1']])('%s %s answers 400', async (method, target) => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(server.url);
      request({ host: url.hostname, port: url.port, method, path: target }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(400);
  });
});

describe('unknown routes', () => {
  it.each([['GET', '/nothing-here'], ['DELETE', '/employee-resources/x'], ['PATCH', '/asset-resources/x']])(
    '%s %s answers 404 { message, error }',
    async (method, path) => {
      const res = await rest(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found', error: expect.any(String) });
    },
  );
});

describe('native tRPC and the SDK', () => {
  it('report the same status, code and bad fields as ApiError', async () => {
    const sdk = createResourceClient({ baseUrl: server.url, apiKey });
    const failure = await sdk.employees.create({ ...employee(), email: 'nope' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { email: expect.any(String) } });

    const unknown = await sdk.employees.update('missing', { note: 'x' }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const unauthenticated = createResourceClient({ baseUrl: server.url, apiKey: 'wrong' });
    await expect(unauthenticated.employees.list()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('cap native tRPC bodies at 100 kB too (413)', async () => {
    const res = await fetch(`${server.url}/trpc/resources.employees.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ note: 'x'.repeat(200_000) }),
    });
    expect(res.status).toBe(413);
  });

  it('never put stack traces in tRPC error responses', async () => {
    const res = await fetch(`${server.url}/trpc/resources.employees.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ resourceId: 'x' }),
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toMatch(/"stack"|\n\s+at /);
  });
});

describe('500 Internal Server Error', () => {
  it('answers { message, error } naming the action, with nothing internal, when the database fails', async () => {
    const broken = await startTestServer();
    const key = (await createOrganization(broken)).apiKey;
    const client = restClient(broken.url, key);
    await client('GET', '/employee-resources'); // the key is now cached: the failure below is the listing's own
    await breakDatabase(broken);
    try {
      const res = await client('GET', '/employee-resources');
      expect(res.status).toBe(500);
      // PostgreSQL gone reads as unavailable; a closed PGlite as an internal failure. Either way: 500, nothing internal.
      const failure = /^(Internal server error|Service unavailable: the database cannot be reached; retry later)$/;
      expect(res.body).toEqual({ message: 'Error fetching employee resources', error: expect.stringMatching(failure) });
      const created = await client('POST', '/employee-resources', employee());
      expect(created.status).toBe(500);
      expect(created.body).toEqual({ message: 'Error creating employee resource', error: expect.stringMatching(failure) });
    } finally {
      await broken.destroy();
    }
  });
});

describe('logs', () => {
  it('never contain API keys or signatures', async () => {
    const { pino } = await import('pino');
    const { Writable } = await import('node:stream');
    let logged = '';
    const sink = new Writable({ write: (chunk, _encoding, done) => ((logged += chunk.toString()), done()) });
    const { startServer } = await import('../../server/app.ts');
    const { createTestDatabase, testConfig } = await import('../helpers/server.ts');
    const database = await createTestDatabase();
    const logged_server = await startServer(testConfig(database.config), pino({ level: 'info' }, sink));
    try {
      const { apiKey: key } = await logged_server.services.organizations.create('Logged');
      await restClient(logged_server.url, key)('GET', '/employee-resources');
      await restClient(logged_server.url, 'rk_wrong-key')('GET', '/employee-resources');
      const signatures = { 'x-hub-signature-256': 'sha256=webhook-signature-value', 'x-signature': 'wallet-signature-value', cookie: 'session=cookie-value' };
      await fetch(`${logged_server.url}/api/agents/search`, { headers: signatures });
      await fetch(`${logged_server.url}/health`);
      // One line per request naming method, path (never the query) and status; health probes are not logged.
      expect(logged).toMatch(/"msg":"GET \/employee-resources 200 \d+ ms"/);
      expect(logged).toMatch(/"msg":"GET \/employee-resources 401 \d+ ms"/);
      expect(logged).toContain('/api/agents/search');
      expect(logged).not.toContain('/health');
      await fetch(`${logged_server.url}/employee-resources?orgId=secret-query-value`, { headers: { authorization: `Bearer ${key}` } });
      expect(logged).toContain('"path":"/employee-resources"');
      expect(logged).not.toContain('secret-query-value'); // queries are not logged, nor are headers
      expect(logged).not.toContain('"headers"');
      for (const secret of [key, 'rk_wrong-key', 'webhook-signature-value', 'wallet-signature-value', 'cookie-value']) expect(logged).not.toContain(secret);
      if (database.config.kind === 'pglite') {
        // The development organization the embedded database starts with: the log names its file, not its key.
        const dev = JSON.parse(readFileSync(join(database.config.dataDir, 'dev-organization.json'), 'utf8')) as { apiKey: string };
        expect(logged).toContain('dev-organization.json');
        expect(logged).not.toContain(dev.apiKey);
      }
    } finally {
      await logged_server.close();
      await database.drop();
    }
  });
});

describe('query strings', () => {
  it.each([['__proto__='], ['__proto__=1&__proto__=2'], ['constructor=x'], ['toString=1']])('?%s is harmless (no 500)', async (query) => {
    for (const path of ['/all-resources', '/employee-resources']) {
      const res = await rest('GET', `${path}?${query}`);
      expect(res.status, path).toBe(200);
    }
  });
});
