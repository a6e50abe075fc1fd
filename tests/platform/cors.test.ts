import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedFetch, generateKeypair, keypairSigner, signedHeaders } from '../../client-sdk/index.ts';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { WALLET_HEADERS } from '../../server/marketplace/wallet-signature.ts';
import { loadConfig } from '../../server/platform/config.ts';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from '../../server/platform/http/cors.ts';
import { get, hostingConfig } from '../helpers/hosting.ts';
import { employee } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Browser apps on other origins call the REST API and tRPC (docs/architecture.md "CORS"): preflights are answered,
 * every answer of the API (errors and 429s too) says who may read it and which headers they may read; hosted
 * documentation sites, /schema.json and /ws keep their own headers.
 */

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

/** A header's comma-separated list, lower-cased, as a set. */
const list = (value: string | string[] | null | undefined) =>
  new Set(
    String(value ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );

function preflight(baseUrl: string, path: string, origin: string, method: string, headers: string[]) {
  return get(baseUrl, path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, ...(headers.length ? { 'access-control-request-headers': headers.join(', ') } : {}) },
  });
}

const CORS_HEADER = /^access-control-/;
const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => CORS_HEADER.test(name));

describe('CORS_ORIGINS', () => {
  const origins = (value?: string) => loadConfig(value === undefined ? {} : { CORS_ORIGINS: value }).corsOrigins;

  it('defaults to * (any origin; calls carry their credentials in headers, never cookies)', () => {
    expect(origins()).toBe('*');
    expect(origins('')).toBe('*');
    expect(origins(' * ')).toBe('*');
  });

  it('takes comma-separated origins, kept as browsers send them', () => {
    expect(origins('https://App.Example.com/, http://localhost:5173,https://b.example:8443')).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
      'https://b.example:8443',
    ]);
  });

  it.each(['*, https://app.example.com', 'app.example.com', 'https://app.example.com/path', 'ftp://app.example.com', 'https://app.example.com?x', ' , '])(
    'refuses %j',
    (value) => {
      expect(() => origins(value)).toThrow(/CORS_ORIGINS: must be \* or comma-separated origins/);
    },
  );
});

describe('open to any origin (the default)', () => {
  let server: TestServer;
  let apiKey: string;
  let repo: GitFixture;

  beforeAll(async () => {
    server = await startTestServer({ docs: hostingConfig({ vanityDomain: 'docs.test' }) });
    ({ apiKey } = await createOrganization(server));
    repo = createGitRepo();
    repo.write({ 'docs.json': JSON.stringify({ name: 'Site' }), 'index.mdx': '# Home\n' });
    repo.commit('docs');
    const registered = await fetch(`${server.url}/api/docs/repositories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ owner: 'acme', repo: 'site', source: repo.dir }),
    });
    expect(registered.status).toBe(201);
  });
  afterAll(async () => {
    await server?.destroy();
    repo?.cleanup();
  });

  describe('preflight', () => {
    it.each([
      ['a REST path of the resource API', '/employee-resources', 'POST', ['authorization', 'content-type']],
      ['a REST path with a path parameter', '/asset-resources/room-1', 'PUT', ['authorization', 'content-type']],
      ['a signed marketplace POST with Idempotency-Key', '/api/orders', 'POST', ['content-type', 'idempotency-key', 'x-signature', 'x-timestamp', 'x-wallet-address']],
      ['a docs-hosting DELETE', '/api/docs/domains/docs.acme.example', 'DELETE', ['authorization']],
      ['a tRPC query', '/trpc/resources.employees.list', 'GET', ['authorization']],
      ['a tRPC batch mutation', '/trpc/resources.employees.create?batch=1', 'POST', ['authorization', 'content-type']],
      ['a path no route has (the real call then reads its 404)', '/no/such/path', 'GET', ['authorization']],
    ])('%s: 204, any origin, the methods, exactly the headers clients send, a max age, no credentials', async (_what, path, method, headers) => {
      const res = await preflight(server.url, path, APP, method, headers);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(list(res.headers['access-control-allow-methods'])).toEqual(new Set(['get', 'post', 'put', 'patch', 'delete']));
      expect(list(res.headers['access-control-allow-headers'])).toEqual(list(CORS_ALLOWED_HEADERS.join(',')));
      for (const header of headers) expect(list(res.headers['access-control-allow-headers'])).toContain(header);
      expect(res.headers['access-control-max-age']).toBe(String(CORS_MAX_AGE_SECONDS));
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('allows every header the SDK and the server name: the wallet signature, API keys, Idempotency-Key, JSON', async () => {
      const sdkHeaders = Object.keys(await signedHeaders(keypairSigner(generateKeypair().secretKey), 'GET', '/api/orders'));
      const allowed = list(CORS_ALLOWED_HEADERS.join(','));
      for (const name of [...sdkHeaders, ...Object.values(WALLET_HEADERS), 'Authorization', 'Idempotency-Key', 'Content-Type']) {
        expect(allowed, name).toContain(name.toLowerCase());
      }
    });

    it('an OPTIONS that is no preflight (no Access-Control-Request-Method) is left to the routes', async () => {
      const res = await get(server.url, '/employee-resources', { method: 'OPTIONS', headers: { origin: APP } });
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });
  });

  describe('answers', () => {
    it('a REST list with an API key: 200 with the CORS headers, the rate-limit and retry headers exposed', async () => {
      const created = await fetch(`${server.url}/employee-resources`, {
        method: 'POST',
        headers: { origin: APP, authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(employee()),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('access-control-allow-origin')).toBe('*');
      const res = await fetch(`${server.url}/employee-resources`, { headers: { origin: APP, authorization: `Bearer ${apiKey}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveLength(1);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(list(res.headers.get('access-control-expose-headers'))).toEqual(list(CORS_EXPOSED_HEADERS.join(',')));
      expect(list(res.headers.get('access-control-expose-headers'))).toEqual(
        new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'idempotent-replayed']),
      );
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it.each([
      ['GET', '/employee-resources', 401],
      ['PUT', '/employee-resources/nobody', 401],
      ['GET', '/no/such/path', 404],
      ['GET', '/api/no/such/path', 404],
    ])('an error (%s %s -> %i) carries them too', async (method, path, status) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { origin: APP, 'content-type': 'application/json' },
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Limit');
    });

    it('tRPC: a query with an API key and one without', async () => {
      const ok = await fetch(`${server.url}/trpc/resources.employees.list`, { headers: { origin: APP, authorization: `Bearer ${apiKey}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('*');
      const refused = await fetch(`${server.url}/trpc/resources.employees.list`, { headers: { origin: APP } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('a signed marketplace call through the SDK carries them, with the rate-limit headers a page may now read', async () => {
      const api = createSignedFetch(keypairSigner(generateKeypair().secretKey), server.url);
      const res = await api('/api/orders', { headers: { origin: APP } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    });

    it('a 429 carries them, and Retry-After is readable', async () => {
      let res: Response | undefined;
      for (let i = 0; i < 150; i++) {
        res = await fetch(`${server.url}/api/agents/search?limit=1`, { headers: { origin: APP } });
        if (res.status === 429) break;
        await res.arrayBuffer();
      }
      expect(res!.status).toBe(429);
      expect(res!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res!.headers.get('access-control-allow-origin')).toBe('*');
      expect(list(res!.headers.get('access-control-expose-headers'))).toContain('retry-after');
    });

    it('/openapi.json and /health may be read from other origins; the document points at the host it was read from', async () => {
      for (const path of ['/openapi.json', '/health']) {
        const res = await fetch(`${server.url}${path}`, { headers: { origin: APP } });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        if (path === '/openapi.json') expect(((await res.json()) as { servers: { url: string }[] }).servers[0]).toEqual(expect.objectContaining({ url: '/' }));
      }
    });
  });

  describe('what keeps its own headers', () => {
    it('a hosted site on the service host (/{owner}/{repo}): no API CORS headers, not even for a preflight', async () => {
      const page = await get(server.url, '/acme/site', { headers: { origin: APP } });
      expect([page.status, page.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']); // docs hosting's notice: nothing published yet
      expect(corsHeaders(page.headers)).toEqual([]);
      const res = await preflight(server.url, '/acme/site/guide', APP, 'GET', ['authorization']);
      expect(res.status).not.toBe(204);
      expect(corsHeaders(res.headers)).toEqual([]);
    });

    it('a vanity subdomain: every path is the site\'s, the API\'s paths included', async () => {
      for (const path of ['/site', '/health', '/employee-resources', '/trpc/resources.employees.list']) {
        const page = await get(server.url, path, { host: 'acme.docs.test', headers: { origin: APP } });
        expect([page.status, page.headers['content-type']], path).toEqual([404, 'text/html; charset=utf-8']); // docs hosting's notice
        expect(corsHeaders(page.headers), path).toEqual([]);
        const api = await preflight(server.url, path, APP, 'POST', ['authorization']);
        expect(api.headers['access-control-allow-origin'], path).toBe('*'); // the same path on the service host is the API's
      }
      const res = await get(server.url, '/employee-resources', {
        host: 'acme.docs.test',
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST' },
      });
      expect(corsHeaders(res.headers)).toEqual([]);
    });

    it('/schema.json keeps its own open Access-Control-Allow-Origin; the home page and /ws get none', async () => {
      const schema = await get(server.url, '/schema.json', { headers: { origin: APP } });
      expect(schema.status).toBe(200);
      expect(corsHeaders(schema.headers)).toEqual(['access-control-allow-origin']);
      expect(schema.headers['access-control-allow-origin']).toBe('*');
      for (const path of ['/', '/ws']) {
        expect(corsHeaders((await get(server.url, path, { headers: { origin: APP } })).headers), path).toEqual([]);
      }
    });
  });
});

describe('an allow-list (CORS_ORIGINS=https://app.example.com)', () => {
  let server: TestServer;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer({ corsOrigins: loadConfig({ CORS_ORIGINS: `${APP}, http://localhost:5173` }).corsOrigins! });
    ({ apiKey } = await createOrganization(server));
  });
  afterAll(() => server?.destroy());

  it('a listed origin: its own origin allowed (never *), on preflights and answers, Vary: Origin', async () => {
    for (const path of ['/employee-resources', '/trpc/resources.employees.list']) {
      const res = await preflight(server.url, path, APP, 'GET', ['authorization']);
      expect(res.status, path).toBe(204);
      expect(res.headers['access-control-allow-origin'], path).toBe(APP);
      expect(res.headers.vary, path).toBe('Origin');
      expect(list(res.headers['access-control-allow-headers']), path).toContain('authorization');
      const answer = await get(server.url, path, { headers: { origin: APP, authorization: `Bearer ${apiKey}` } });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['access-control-allow-origin'], path).toBe(APP);
      expect(answer.headers['access-control-expose-headers'], path).toContain('Retry-After');
      expect(list(answer.headers.vary), path).toContain('origin'); // tRPC adds its own (trpc-accept, accept)
    }
    const second = await preflight(server.url, '/employee-resources', 'http://localhost:5173', 'POST', ['authorization', 'content-type']);
    expect(second.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('another origin: the preflight allows nothing and the answer has no Access-Control-* header (the browser keeps it from the page)', async () => {
    for (const origin of [OTHER, 'http://app.example.com', 'https://app.example.com:444', 'null']) {
      const res = await preflight(server.url, '/employee-resources', origin, 'POST', ['authorization', 'content-type']);
      expect(res.status, origin).toBe(204);
      expect(corsHeaders(res.headers), origin).toEqual([]);
      expect(res.headers.vary, origin).toBe('Origin');
      const answer = await get(server.url, '/employee-resources', { headers: { origin, authorization: `Bearer ${apiKey}` } });
      expect(answer.status, origin).toBe(200); // the server still answers: CORS protects readers, not the API
      expect(corsHeaders(answer.headers), origin).toEqual([]);
      expect(answer.headers.vary, origin).toBe('Origin');
    }
  });

  it('a call without Origin (curl, servers) is answered as before, without CORS headers', async () => {
    const res = await get(server.url, '/employee-resources', { headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });

  it('/schema.json stays open to any origin', async () => {
    const schema = await get(server.url, '/schema.json', { headers: { origin: OTHER } });
    expect(schema.headers['access-control-allow-origin']).toBe('*');
  });
});
