import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { appRouter } from '../../routers/index.ts';
import { type Api, type AppErrorCode, statusOf } from '../../server/platform/errors.ts';
import { buildOpenApiDocument } from '../../server/platform/http/openapi.ts';
import type { Meta } from '../../server/platform/http/procedure-meta.ts';

/**
 * What openapi.json says of each operation, against the procedures it is generated from: every operation described
 * with examples valid for its zod input and output, every error code under the status the server answers it with,
 * and the statuses, headers and parameters third parties found missing (issue 36).
 */

type Parameter = { $ref?: string; in?: string; name?: string };
type Response = { description: string; headers?: Record<string, unknown>; content?: Record<string, { example?: unknown }> };
type Operation = {
  operationId: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { example?: Record<string, unknown> }> };
  responses: Record<string, Response>;
};
type Procedure = { _def: { meta?: Meta; inputs: z.ZodType[]; output?: z.ZodType } };

const doc = buildOpenApiDocument(appRouter) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  tags: { name: string; description: string }[];
  servers: { url: string }[];
  components: { securitySchemes: Record<string, Record<string, unknown>>; parameters: Record<string, { name: string }>; schemas: Record<string, { properties: { error: { enum?: string[] } } }> };
};
const procedures = appRouter._def.procedures as unknown as Record<string, Procedure>;

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => {
    const procedure = procedures[op.operationId.replace(/-/g, '.')]!;
    const meta = procedure._def.meta!;
    return { name: `${method.toUpperCase()} ${path}`, method, op, procedure, meta, api: meta.api ?? 'resources' };
  }),
);
const byId = (id: string) => operations.find(({ op }) => op.operationId === id)!;
const statuses = (op: Operation) => Object.keys(op.responses).map(Number);
/** The codes a response's description lists: `- \`CODE\`: when`. */
const codesOf = (response: Response) => [...response.description.matchAll(/^- `([A-Z_]+)`/gm)].map((m) => m[1] as AppErrorCode);
const parameterNames = (op: Operation) =>
  (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]!.name : p.name));
const withBody = operations.filter(({ op }) => op.requestBody);

describe('every operation', () => {
  it.each(operations)('$name has a description and defined tags', ({ op }) => {
    expect(op.description?.trim()).toBeTruthy();
    for (const tag of op.tags) expect(doc.tags.find((t) => t.name === tag)?.description, tag).toBeTruthy();
  });

  it.each(withBody)('$name: its request example is a valid input, shown without the path parameters', ({ op, procedure, meta }) => {
    const example = meta.examples?.request;
    expect(example).toBeDefined();
    expect(procedure._def.inputs[0]!.safeParse(example).error).toBeUndefined();
    const paths = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name!);
    expect(op.requestBody!.content['application/json']!.example).toEqual(Object.fromEntries(Object.entries(example!).filter(([key]) => !paths.includes(key))));
  });

  it.each(operations.filter(({ meta }) => meta.successStatus !== 204))('$name: its response example is a valid output', ({ op, procedure, meta }) => {
    const example = meta.examples?.response;
    expect(example).toBeDefined();
    expect(procedure._def.output!.safeParse(example).error).toBeUndefined();
    expect(op.responses[meta.successStatus ?? 200]!.content!['application/json']!.example).toEqual(example);
  });

  it.each(operations)('$name lists each error code under the status the server answers it with', ({ op, api }) => {
    for (const status of statuses(op).filter((s) => s >= 400)) {
      const codes = codesOf(op.responses[status]!);
      if (api === 'resources') continue; // its body carries no code
      expect(codes.length, `${status}`).toBeGreaterThan(0);
      for (const code of codes) {
        const answered = statusOf(code, api as Api);
        // TRANSACTION_FAILED is 503 when the chain cannot be reached (AppError's status override).
        expect(answered === status || (code === 'TRANSACTION_FAILED' && status === 503), `${code} under ${status}`).toBe(true);
        expect(doc.components.schemas[api === 'docs' ? 'DocsError' : 'MarketplaceError']!.properties.error.enum).toContain(code);
      }
    }
  });

  it.each(operations.filter(({ method }) => method !== 'get'))('$name: a body the server cannot read answers 400 or 413', ({ op }) => {
    expect(statuses(op)).toEqual(expect.arrayContaining([400, 413]));
  });

  it.each(operations)('$name: a database outage answers 503 with Retry-After (the resource API: 500)', ({ op, api }) => {
    if (api === 'resources') return expect(op.responses[500]!.description).toMatch(/database/);
    expect(op.responses[503]!.description).toContain('`SERVICE_UNAVAILABLE`: The database cannot be reached');
    expect(op.responses[503]!.headers).toHaveProperty('Retry-After');
  });
});

describe('what the issue found wrong', () => {
  it('400 on the faucet and domain verify; 409 IDEMPOTENCY_CONFLICT on the signed mutations', () => {
    for (const id of ['payments-faucet', 'docs-domains-verify']) expect(codesOf(byId(id).op.responses[400]!)).toContain('INVALID_REQUEST');
    for (const id of ['agents-update', 'conversations-create', 'conversations-send', 'orders-accept', 'agents-remove']) {
      expect(codesOf(byId(id).op.responses[409]!), id).toContain('IDEMPOTENCY_CONFLICT');
      expect(parameterNames(byId(id).op), id).toContain('Idempotency-Key');
    }
    for (const { name, op } of operations.filter(({ method }) => method === 'get')) expect(parameterNames(op), name).not.toContain('Idempotency-Key');
  });

  it('order operations answer ORDER_NOT_FOUND; review DUPLICATE_REVIEW; accept its payment codes', () => {
    for (const id of ['orders-get', 'orders-deliver', 'orders-review', 'orders-complete', 'orders-cancel']) {
      expect(codesOf(byId(id).op.responses[404]!), id).toEqual(['ORDER_NOT_FOUND']);
    }
    expect(codesOf(byId('orders-review').op.responses[409]!)).toContain('DUPLICATE_REVIEW');
    const accept = byId('orders-accept').op.responses;
    expect(codesOf(accept[400]!)).toContain('INVALID_PAYMENT_HEADER');
    expect(codesOf(accept[422]!)).toEqual(expect.arrayContaining(['AMOUNT_MISMATCH', 'INSUFFICIENT_FUNDS', 'AGENT_TOKEN_ACCOUNT_MISSING']));
  });

  it('rate-limited answers carry the X-RateLimit headers, a 429 Retry-After too', () => {
    for (const { name, op, api } of operations.filter(({ api }) => api === 'marketplace')) {
      expect(op.responses[429]!.headers, name).toHaveProperty('Retry-After');
      for (const status of statuses(op).filter((s) => s < 500)) expect(op.responses[status]!.headers, `${name} ${status} (${api})`).toHaveProperty('X-RateLimit-Remaining');
    }
    expect(byId('conversations-send').op.responses[201]!.headers).toHaveProperty('Idempotent-Replayed');
  });

  it('bodies whose every field is optional are optional', () => {
    const optional = ['orders-complete', 'orders-cancel', 'docs-repositories-publish', 'agents-update', 'resources-employees-update', 'resources-assets-update'];
    for (const { op } of withBody) expect(op.requestBody!.required !== false, op.operationId).toBe(!optional.includes(op.operationId));
  });

  it('the webhook documents its raw body, its signature and its event', () => {
    const { op } = byId('docs-repositories-webhook');
    expect(op.requestBody!.content['application/json']!.example).toMatchObject({ ref: 'refs/heads/main' });
    expect(op.security).toEqual([{ WebhookSignature: [] }]);
    expect(doc.components.securitySchemes.WebhookSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Hub-Signature-256' });
    expect(parameterNames(op)).toEqual(expect.arrayContaining(['X-Hub-Signature-256', 'X-GitHub-Event']));
  });

  it('wallet signatures are one scheme with the recipe, the other headers parameters', () => {
    const scheme = doc.components.securitySchemes.WalletSignature!;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Signature' });
    expect(scheme['x-wallet-signature']).toMatchObject({ algorithm: 'Ed25519' });
    for (const { name, op } of operations.filter(({ op }) => op.security?.[0]?.WalletSignature)) {
      expect(op.security, name).toEqual([{ WalletSignature: [] }]);
      expect(parameterNames(op), name).toEqual(expect.arrayContaining(['X-Wallet-Address', 'X-Timestamp', 'X-Body-SHA256']));
    }
  });

  it('servers: `/` first, then the local default', () => {
    expect(doc.servers.map((s) => s.url)).toEqual(['/', 'http://127.0.0.1:3000']);
  });
});
