import { generate } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { appRouter } from '../../routers/index.ts';
import { buildOpenApiDocument } from '../../server/platform/http/openapi.ts';
import { TIME_ZONES } from '../../server/platform/schemas.ts';
import { walletFor } from '../helpers/marketplace.ts';
import { dereference, type OpenApiDocument } from '../helpers/openapi-contract.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * openapi.json's request schemas are as strict as the server (issue 36): bodies a generator makes from them
 * (json-schema-faker, as third-party integrators do) pass the procedure's zod input and the real server's checks.
 */

type Schema = Record<string, any>;
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(appRouter))) as Schema;
const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs: z.ZodType[] } }> } })._def.procedures;

const operation = (method: string, path: string) => doc.paths[path][method];
const bodySchema = (path: string) => dereference(doc as OpenApiDocument, operation('post', path).requestBody.content['application/json'].schema);
const property = (path: string, name: string) => bodySchema(path).properties[name];

/** The six operations of the issue: the REST path, the procedure, and how the real server is called. */
const OPERATIONS = [
  { path: '/employee-resources', procedure: 'resources.employees.create', caller: 'org' },
  { path: '/asset-resources', procedure: 'resources.assets.create', caller: 'org' },
  { path: '/api/agents/register', procedure: 'agents.register', caller: 'wallet' },
  { path: '/api/orders', procedure: 'orders.create', caller: 'wallet' },
  { path: '/dev/faucet', procedure: 'payments.faucet', caller: 'public' },
  { path: '/api/docs/domains', procedure: 'docs.domains.create', caller: 'org' },
] as const;

const BODIES = 60;
const bodiesFrom = (schema: Schema) => Promise.all(Array.from({ length: BODIES }, (_, i) => generate(schema, { seed: i + 1 })));
/** The issues of the bodies the schema refuses, as `path: message` (empty when every body parses). */
const refusals = (schema: z.ZodType, bodies: unknown[]) =>
  bodies.flatMap((body) => {
    const result = schema.safeParse(body);
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  });

describe('the document carries the rules', () => {
  it('time zones: an enum of exactly the names the server lists', () => {
    expect(property('/employee-resources', 'timezone').enum).toEqual(TIME_ZONES);
    expect(TIME_ZONES).toContain('UTC');
    expect(TIME_ZONES).toContain('Europe/Paris');
  });

  it('money: bounds and the 6-decimal step', () => {
    const price = property('/api/orders', 'price');
    expect(price).toMatchObject({ type: 'number', exclusiveMinimum: 0, maximum: 1e9, multipleOf: 0.000001 });
    expect(price.minimum).toBeUndefined();
    expect(property('/api/agents/register', 'basePrice')).toMatchObject({ minimum: 0, maximum: 1e9, multipleOf: 0.000001 });
    // Needs the route to declare its amount as usdcUpTo(1_000_000, ...): a refine added in the router has no `maximum`.
    expect(property('/dev/faucet', 'amount'), 'routers/marketplace/payments.ts: amount: usdcUpTo(...)').toMatchObject({ minimum: 0, maximum: 1_000_000, multipleOf: 0.000001 });
  });

  it('wallets: a base58 pattern and lengths', () => {
    for (const wallet of [property('/api/orders', 'clientWallet'), property('/api/agents/register', 'walletAddress')]) {
      expect(wallet).toMatchObject({ minLength: 32, maxLength: 44 });
      expect(new RegExp(wallet.pattern).test('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')).toBe(true);
      expect(new RegExp(wallet.pattern).test('0xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')).toBe(false);
    }
  });

  it('hostnames: the pattern of the server check, in any case', () => {
    const pattern = new RegExp(property('/api/docs/domains', 'hostname').pattern);
    expect(['docs.acme.com', 'Docs.Acme.COM', 'a-b.c1.io'].map((host) => pattern.test(host))).toEqual([true, true, true]);
    expect(['localhost', '-a.com', 'a..com', 'docs.acme.c0m'].map((host) => pattern.test(host))).toEqual([false, false, false, false]);
  });

  it('not-blank strings: minLength and a pattern; categories: uniqueItems', () => {
    expect(property('/employee-resources', 'resourceName')).toMatchObject({ minLength: 1, pattern: '\\S' });
    expect(property('/api/orders', 'description')).toMatchObject({ minLength: 1, pattern: '\\S' });
    expect(property('/api/agents/register', 'categories')).toMatchObject({ uniqueItems: true, minItems: 1 });
  });

  it('examples fit their property; limit and offset say what they are', () => {
    expect(property('/api/agents/register', 'endpoint').example).toBe('https://lingua.example/run');
    expect(property('/api/agents/register', 'avatarUrl').example).toMatch(/^https:\/\/.+\.png$/);
    const pages = ['/api/agents/search', '/api/orders', '/api/conversations/{id}/messages', '/api/docs/repositories/{owner}/{repo}/builds'];
    for (const path of pages) {
      // On the parameter's schema: trpc-to-openapi wraps optional query parameters anew, without their meta.
      const parameters = operation('get', path).parameters as { name: string; schema: Schema }[];
      for (const name of ['limit', 'offset']) expect(parameters.find((p) => p.name === name)?.schema.description, `${path} ${name}`).toMatch(/\w/);
    }
  });
});

describe('generated bodies pass the procedure input', () => {
  for (const { path, procedure } of OPERATIONS) {
    it(procedure, async () => {
      expect(refusals(procedures[procedure]!._def.inputs[0]!, await bodiesFrom(bodySchema(path)))).toEqual([]);
    });
  }
});

describe('the real server takes generated bodies', () => {
  let server: TestServer;
  let org: ReturnType<typeof restClient>;
  beforeAll(async () => {
    server = await startTestServer();
    org = restClient(server.url, (await createOrganization(server)).apiKey);
  });
  afterAll(() => server?.destroy());

  for (const { path, procedure, caller } of OPERATIONS) {
    it(procedure, async () => {
      const refused: unknown[] = [];
      for (const body of await bodiesFrom(bodySchema(path))) {
        const res =
          caller === 'org' ? await org('POST', path, body)
          : caller === 'public' ? await restClient(server.url, null)('POST', path, body)
          : await walletFor(server.url).rest('POST', path, body);
        // Other refusals (no such repository or conversation, a wallet that is not the caller) come after validation.
        if (res.status === 400 || res.status === 422) refused.push({ status: res.status, body: res.body });
      }
      expect(refused).toEqual([]);
    });
  }
});
