import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../routers/index.ts';
import { buildOpenApiDocument } from '../../server/platform/http/openapi.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * openapi.json is the contract third parties generate clients from: it must be current, valid
 * OpenAPI 3.1, and document the statuses and error body the server really sends.
 */

const committedText = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
const committed = JSON.parse(committedText);

type DocResponse = { description: string; content?: Record<string, { schema?: Record<string, unknown> }> };
type Operation = { operationId: string; security?: Record<string, string[]>[]; responses: Record<string, DocResponse> };

/** Every operation of the document as [METHOD, path, operation]. */
const allOperations: [string, string, Operation][] = Object.entries(committed.paths as Record<string, Record<string, Operation>>).flatMap(
  ([path, item]) => Object.entries(item).map(([method, op]): [string, string, Operation] => [method.toUpperCase(), path, op]),
);
/**
 * The resource API's operations (the marketplace's live under /api, and /dev for the embedded ledger; documentation
 * hosting's under /api/docs; both are checked at the end).
 */
const isDocsHosting = (path: string) => path.startsWith('/api/docs/');
const isMarketplace = (path: string) => (path.startsWith('/api/') && !isDocsHosting(path)) || path.startsWith('/dev/');
const operations = allOperations.filter(([, path]) => !isMarketplace(path) && !isDocsHosting(path));
const marketplaceOperations = allOperations.filter(([, path]) => isMarketplace(path));
const docsOperations = allOperations.filter(([, path]) => isDocsHosting(path));
const statusesOf = (op: Operation) => Object.keys(op.responses).map(Number);

/** The documented resource endpoints (the document must hold these, whatever else it grows). */
const SPEC_OPERATIONS = [
  'POST /employee-resources',
  'GET /employee-resources',
  'PUT /employee-resources/{resourceId}',
  'POST /asset-resources',
  'GET /asset-resources',
  'PUT /asset-resources/{resourceId}',
  'GET /all-resources',
];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.destroy());

describe('openapi.json', () => {
  it('is exactly what buildOpenApiDocument(appRouter) produces now (no drift: `npm run openapi` was run)', () => {
    expect(committedText).toBe(`${JSON.stringify(buildOpenApiDocument(appRouter), null, 2)}\n`);
  });

  it('is served by the running server at GET /openapi.json', async () => {
    const res = await fetch(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(committed);
  });

  it('passes an OpenAPI 3.1 validator', async () => {
    expect(committed.openapi).toMatch(/^3\.1\./);
    // validate() dereferences its argument in place: hand it a copy.
    await expect(SwaggerParser.validate(structuredClone(committed))).resolves.toBeTruthy();
  });

  it('holds every documented resource endpoint', () => {
    const documented = operations.map(([method, path]) => `${method} ${path}`);
    expect(documented).toEqual(expect.arrayContaining(SPEC_OPERATIONS));
  });
});

describe('documented statuses', () => {
  it.each([['/employee-resources'], ['/asset-resources']])('POST %s documents 201 Created and no 200', (path) => {
    const { responses } = committed.paths[path].post as Operation;
    expect(responses).toHaveProperty('201');
    expect(responses).not.toHaveProperty('200');
    expect(responses['201']!.content?.['application/json']?.schema).toBeDefined();
  });

  it.each(operations)('%s %s documents 401 and 500', (_method, _path, op) => {
    expect(statusesOf(op)).toEqual(expect.arrayContaining([401, 500]));
  });

  it.each(operations.filter(([method]) => method === 'PUT'))('%s %s documents 404 and 400', (_method, _path, op) => {
    expect(statusesOf(op)).toEqual(expect.arrayContaining([400, 404]));
  });

  it.each(operations.filter(([method]) => method === 'POST'))('%s %s documents 409 and 400', (_method, _path, op) => {
    expect(statusesOf(op)).toEqual(expect.arrayContaining([400, 409]));
  });

  it.each(operations)('%s %s documents exactly one 2xx, and every error as a ResourceError', (_method, _path, op) => {
    const statuses = statusesOf(op);
    expect(statuses.filter((s) => s >= 200 && s < 300)).toHaveLength(1);
    for (const status of statuses.filter((s) => s >= 400)) {
      expect(op.responses[status]!.content, `status ${status}`).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/ResourceError' } },
      });
    }
  });

  it('ResourceError has exactly the required string properties message and error', () => {
    const schema = committed.components.schemas.ResourceError;
    expect(schema.type).toBe('object');
    expect([...schema.required].sort()).toEqual(['error', 'message']);
    expect(Object.keys(schema.properties).sort()).toEqual(['error', 'message']);
    expect(schema.properties.message.type).toBe('string');
    expect(schema.properties.error.type).toBe('string');
  });
});

describe('authentication', () => {
  it('declares a bearer security scheme', () => {
    const schemes = Object.entries(committed.components.securitySchemes as Record<string, { type: string; scheme?: string }>);
    expect(schemes.filter(([, s]) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer')).toHaveLength(1);
  });

  it.each(operations)('%s %s requires it', (_method, _path, op) => {
    const [bearer] = Object.entries(committed.components.securitySchemes as Record<string, { scheme?: string }>).find(
      ([, s]) => s.scheme?.toLowerCase() === 'bearer',
    )!;
    const security = op.security ?? committed.security;
    expect(security).toEqual([{ [bearer]: [] }]);
  });

  it.each(operations)('%s %s really answers the documented 401 with a ResourceError body without a key', async (method, path) => {
    const res = await fetch(`${server.url}${path.replace('{resourceId}', 'any-id')}`, {
      method,
      ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });
});

describe('GET /reference', () => {
  /** The page and the URLs of the scripts and stylesheets it loads. */
  async function referencePage() {
    const res = await fetch(`${server.url}/reference`);
    const html = await res.text();
    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    return { res, html, assets };
  }

  /** Absolute http(s) URLs in a text whose host is not our server's. */
  const foreignUrls = (text: string) =>
    [...text.matchAll(/https?:\/\/[^\s"'<>)`]+/g)].map((m) => m[0]).filter((url) => new URL(url).origin !== server.url);

  it('answers 200 with an HTML page', async () => {
    const { res, html } = await referencePage();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toMatch(/^<!doctype html>/i);
  });

  it('runs only its own files, in no frame, and no file of it is sniffed as another type', async () => {
    const { res, assets } = await referencePage();
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy.split('; ')).toEqual(expect.arrayContaining(["default-src 'none'", "script-src 'self'", "connect-src 'self'", "base-uri 'none'", "frame-ancestors 'none'"]));
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|\*/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    for (const asset of assets) expect((await fetch(new URL(asset, server.url))).headers.get('x-content-type-options'), asset).toBe('nosniff');
  });

  it('loads its scripts and styles from our own origin only', async () => {
    const { html, assets } = await referencePage();
    expect(assets.length).toBeGreaterThan(0);
    expect(foreignUrls(html)).toEqual([]);
    for (const asset of assets) expect(new URL(asset, server.url).origin, asset).toBe(server.url);
  });

  it('serves every asset the page references (200), and the stylesheets pull in nothing remote', async () => {
    const { assets } = await referencePage();
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(new URL(asset, server.url));
      expect(res.status, asset).toBe(200);
      const body = await res.text();
      expect(body.length, asset).toBeGreaterThan(0);
      if (asset.endsWith('.css')) {
        expect(res.headers.get('content-type'), asset).toMatch(/^text\/css/);
        const remote = [...body.matchAll(/url\(\s*["']?([^"')]+)/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:'));
        expect(remote.filter((u) => new URL(u, new URL(asset, server.url)).origin !== server.url), asset).toEqual([]);
      } else {
        expect(res.headers.get('content-type'), asset).toMatch(/javascript/);
      }
    }
  });

  it('points the viewer at our own /openapi.json', async () => {
    const { assets } = await referencePage();
    const scripts = await Promise.all(
      assets.filter((a) => a.endsWith('.js') && !a.includes('swagger-ui-bundle')).map(async (a) => (await fetch(new URL(a, server.url))).text()),
    );
    const init = scripts.join('\n');
    expect(init).toContain("'/openapi.json'");
    expect(foreignUrls(init)).toEqual([]);
  });
});

describe('marketplace operations', () => {
  it("document the marketplace's 16 endpoints, complete and cancel, the payments config and the dev faucet", () => {
    expect(marketplaceOperations.map(([method, path]) => `${method} ${path}`).sort()).toEqual(
      [
        'GET /api/agents/search', 'GET /api/agents/{id}', 'POST /api/agents/register', 'PATCH /api/agents/{id}',
        'DELETE /api/agents/{id}', 'GET /api/agents/{id}/stats', 'POST /api/conversations', 'GET /api/conversations/{id}',
        'GET /api/conversations/{id}/messages', 'POST /api/conversations/{id}/messages',
        'POST /api/orders', 'POST /api/orders/{id}/accept', 'POST /api/orders/{id}/deliver', 'POST /api/orders/{id}/review',
        'GET /api/orders/{id}', 'GET /api/orders', 'POST /api/orders/{id}/complete', 'POST /api/orders/{id}/cancel',
        'GET /api/payments/config', 'POST /dev/faucet',
      ].sort(),
    );
  });

  it.each([
    ['POST', '/api/agents/register', 201],
    ['POST', '/api/conversations', 201],
    ['POST', '/api/conversations/{id}/messages', 201],
    ['DELETE', '/api/agents/{id}', 204],
    ['POST', '/api/orders', 201],
    ['POST', '/api/orders/{id}/review', 201],
    ['POST', '/api/orders/{id}/accept', 200],
    ['POST', '/api/orders/{id}/deliver', 200],
  ])('%s %s documents %i as its success', (method, path, status) => {
    const op = marketplaceOperations.find(([m, p]) => m === method && p === path)![2];
    expect(statusesOf(op).filter((s) => s < 300)).toEqual([status]);
  });

  it.each(marketplaceOperations)('%s %s documents its errors as MarketplaceError, 429 included', (_method, _path, op) => {
    expect(statusesOf(op)).toContain(429);
    for (const status of statusesOf(op).filter((s) => s >= 400)) {
      expect(JSON.stringify(op.responses[String(status)])).toContain('#/components/schemas/MarketplaceError');
    }
  });

  const PUBLIC = ['GET /api/agents/search', 'GET /api/agents/{id}', 'GET /api/payments/config', 'POST /dev/faucet'];
  const isPublic = (method: string, path: string) => PUBLIC.includes(`${method} ${path}`);

  it.each(marketplaceOperations.filter(([method, path]) => !isPublic(method, path)))(
    '%s %s requires a wallet signature (one scheme; the other signed headers are parameters)',
    (_method, _path, op) => {
      expect((op as { security?: unknown }).security).toEqual([{ WalletSignature: [] }]);
    },
  );

  it.each(marketplaceOperations.filter(([method, path]) => isPublic(method, path)))('%s %s needs no signature', (_method, _path, op) => {
    expect((op as { security?: unknown }).security).toBeUndefined();
  });
});

describe('documentation hosting operations', () => {
  it('document repositories, publishing, builds, the push webhook, chat agents and custom domains', () => {
    expect(docsOperations.map(([method, path]) => `${method} ${path}`).sort()).toEqual(
      [
        'POST /api/docs/repositories', 'GET /api/docs/repositories/{owner}/{repo}', 'POST /api/docs/repositories/{owner}/{repo}/publish',
        'GET /api/docs/repositories/{owner}/{repo}/builds', 'POST /api/docs/repositories/{owner}/{repo}/webhook',
        'POST /api/docs/repositories/{owner}/{repo}/agents', 'GET /api/docs/builds/{id}', 'POST /api/docs/domains', 'DELETE /api/docs/domains/{hostname}',
        'POST /api/docs/domains/{hostname}/verify', 'PATCH /api/docs/repositories/{owner}/{repo}',
      ].sort(),
    );
  });

  it.each(docsOperations)('%s %s documents its errors with the /api error body (its own codes)', (_method, _path, op) => {
    for (const status of statusesOf(op).filter((s) => s >= 400)) {
      expect(JSON.stringify(op.responses[String(status)])).toContain('#/components/schemas/DocsError');
    }
  });

  it.each([
    ['POST', '/api/docs/repositories', 201],
    ['POST', '/api/docs/repositories/{owner}/{repo}/agents', 201],
    ['POST', '/api/docs/domains', 201],
    ['DELETE', '/api/docs/domains/{hostname}', 204],
    ['POST', '/api/docs/domains/{hostname}/verify', 200],
    ['POST', '/api/docs/repositories/{owner}/{repo}/publish', 200],
  ])('%s %s documents %i as its success', (method, path, status) => {
    const op = docsOperations.find(([m, p]) => m === method && p === path)![2];
    expect(statusesOf(op).filter((s) => s < 300)).toEqual([status]);
  });

  it.each(docsOperations)('%s %s: an organization API key, but the webhook (signed by its secret instead)', (_method, path, op) => {
    expect(op.security).toEqual(path.endsWith('/webhook') ? [{ WebhookSignature: [] }] : [{ ApiKey: [] }]);
  });
});
