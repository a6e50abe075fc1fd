/**
 * The request schemas of openapi.json are the server's rules, as a third party's generator reads them: for every
 * operation that takes a JSON body, json-schema-faker makes bodies from the document's schema (seeded, so a run
 * is repeatable) and the real server must accept at least 95% of them, per operation. Accepted: the answer is not a
 * refusal of the input (400, 413, 422); an answer about the world (404 no such agent, 409 already registered, 403
 * not your order) is an accepted body. Path parameters are made from their schemas the same way; each call is
 * authenticated as the operation's security says (an organization key, a fresh wallet's signature, the webhook's
 * HMAC under a registered repository's secret). Every refusal is listed with the body and the server's answer.
 *
 * The operations come from the document the routers generate now (buildOpenApiDocument, what the server serves at
 * /openapi.json). (schema-strictness.test.ts checks the same idea against the zod inputs of a few procedures.)
 */
import { randomUUID } from 'node:crypto';
import { generate } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../routers/index.ts';
import { buildOpenApiDocument } from '../../server/platform/http/openapi.ts';
import type { GitFixture } from '../../scripts/lib/git-fixture.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { hostingConfig, settleBuilds, smallDocsRepo, webhookSignature } from '../helpers/hosting.ts';
import { walletFor } from '../helpers/marketplace.ts';
import { dereference, operationsOf, type OpenApiDocument, type Operation } from '../helpers/openapi-contract.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

/** Bodies per operation: at 95%, at most 2 may be refused. */
const BODIES = 40;
const THRESHOLD = 0.95;

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(appRouter))) as OpenApiDocument;
const withBodies = operationsOf(doc).filter((o) => o.op.requestBody);

let server: TestServer;
let dns: DnsStandIn;
let repo: GitFixture;
let apiKey: string;
let webhookSecret: string;

beforeAll(async () => {
  dns = await startDnsStandIn();
  server = await startTestServer({ docs: hostingConfig({ dnsServers: [dns.server] }) });
  ({ apiKey } = await createOrganization(server));
  repo = smallDocsRepo();
  // The repository the webhook's deliveries are signed for (its secret) and path parameters may name.
  const created = await restClient(server.url, apiKey)('POST', '/api/docs/repositories', { owner: 'acme', repo: 'widgets', source: repo.dir });
  if (created.status !== 201) throw new Error(`register repository: ${created.status} ${JSON.stringify(created.body)}`);
  webhookSecret = created.body.webhookSecret;
}, 60_000);

afterAll(async () => {
  // Builds a generated publish or delivery may have queued are settled before the server stops.
  if (server && apiKey) await settleBuilds(restClient(server.url, apiKey), 'acme/widgets');
  await server?.destroy();
  await dns?.close();
  repo?.cleanup();
});

/**
 * The operation's URL with each path parameter made from its schema; the webhook's names the registered repository
 * (a delivery for another is refused by its signature before its body is read).
 */
async function urlFor(o: Operation, seed: number): Promise<string> {
  let path = /\/webhook$/.test(o.path) ? o.path.replace('{owner}', 'acme').replace('{repo}', 'widgets') : o.path;
  for (const p of (o.op.parameters ?? []).map((p) => dereference(doc, p)) as { name: string; in: string; schema?: object }[]) {
    if (p.in !== 'path') continue;
    const value = await generate((p.schema ?? { type: 'string' }) as never, { seed });
    path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
  }
  return path;
}

/** One call of the operation with `body`, authenticated as its security says. */
async function call(o: Operation, url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const requirements = o.op.security ?? (doc.security as Record<string, string[]>[] | undefined) ?? [];
  const schemes = new Set(requirements.flatMap((requirement) => Object.keys(requirement)));
  const wallet = [...schemes].some((name) => /wallet/i.test(name));
  if (wallet) return walletFor(server.url).rest(o.method, url, body);
  if (/\/webhook$/.test(o.path)) {
    const text = JSON.stringify(body);
    const res = await fetch(`${server.url}${url}`, {
      method: o.method,
      headers: {
        'content-type': 'application/json',
        'x-github-event': eventOf(body),
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': webhookSignature(webhookSecret, text),
      },
      body: text,
    });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  }
  return restClient(server.url, schemes.size ? apiKey : null)(o.method, url, body);
}

/**
 * The X-GitHub-Event a delivery of this body carries: the document's webhook body is one of the push, pull_request
 * and ping payloads, told apart by their required fields (GitHub sends the event that matches its payload).
 */
function eventOf(body: unknown): string {
  const fields = body && typeof body === 'object' ? body : {};
  if ('ref' in fields) return 'push';
  if ('zen' in fields || 'hook_id' in fields) return 'ping';
  if ('number' in fields) return 'pull_request';
  return 'push';
}

/**
 * A body field that names something in the world rather than a form: registering a repository reads it (422 "Not a
 * git repository this server can read" for any other), so `source` names the fixture, as path ids name rows.
 */
function inTheWorld(o: Operation, body: unknown): unknown {
  if (o.method === 'POST' && o.path === '/api/docs/repositories' && body && typeof body === 'object') return { ...body, source: repo.dir };
  return body;
}

const refused = (status: number) => status === 400 || status === 413 || status === 422;

describe('bodies json-schema-faker makes from the request schemas', () => {
  it('the document has operations with JSON bodies', () => {
    expect(withBodies.length).toBeGreaterThan(10);
  });

  for (const o of withBodies) {
    it(`${o.name}: the server accepts at least ${THRESHOLD * 100}% of ${BODIES}`, async () => {
      const schema = dereference(doc, o.op.requestBody!.content['application/json']?.schema);
      expect(schema, 'an application/json body schema').toBeTruthy();
      const refusals: string[] = [];
      const failures: string[] = [];
      // Eight calls at a time (each wallet call by a fresh wallet: no rate limit is shared).
      const one = async (seed: number) => {
        let body: unknown;
        try {
          body = inTheWorld(o, await generate(schema, { seed }));
        } catch (error) {
          failures.push(`seed ${seed}: json-schema-faker could not make a body: ${String(error)}`);
          return;
        }
        const url = await urlFor(o, seed);
        const res = await call(o, url, body);
        const line = `seed ${seed} ${o.method} ${url} ${JSON.stringify(body).slice(0, 300)} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
        if (refused(res.status)) refusals.push(line);
        // Never an internal error, a signature or key the harness got wrong, or a rate limit it ran into.
        else if (res.status >= 500 || res.status === 401 || res.status === 429) failures.push(line);
      };
      for (let first = 1; first <= BODIES; first += 8) await Promise.all(Array.from({ length: Math.min(8, BODIES - first + 1) }, (_, i) => one(first + i)));
      const accepted = BODIES - refusals.length - failures.length;
      console.log(`[faker] ${o.name}: ${accepted}/${BODIES} accepted${refusals.length ? `; refused:\n  ${refusals.join('\n  ')}` : ''}`);
      expect(failures).toEqual([]);
      expect(accepted / BODIES, `refused:\n${refusals.join('\n')}`).toBeGreaterThanOrEqual(THRESHOLD);
    }, 60_000);
  }
});
