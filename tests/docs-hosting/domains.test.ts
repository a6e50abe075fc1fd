/**
 * Custom domains and their proof (server/docs-hosting/domains.ts): a mapped name serves a repository's sites only
 * while its DNS TXT challenge is answered, looked up through a real DNS server on 127.0.0.1 (dns2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { DocsDomain } from '../../server/docs-hosting/entities.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { get, hostingConfig, published, smallDocsRepo } from '../helpers/hosting.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let dns: DnsStandIn;
let rest: Rest;
let repo: GitFixture;
const page = (path: string, host: string) => get(server.url, path, { host });

beforeAll(async () => {
  dns = await startDnsStandIn();
  server = await startTestServer({ rateLimits: 'off', publicBaseUrl: 'https://docs.example.com', docs: hostingConfig({ vanityDomain: 'docs.test', dnsServers: [dns.server] }) });
  rest = restClient(server.url, (await createOrganization(server)).apiKey);
  repo = smallDocsRepo();
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'widgets', source: repo.dir })).status).toBe(201);
  await published(rest, 'acme/widgets');
}, 60_000);
afterAll(async () => {
  await server?.destroy();
  await dns?.close();
  repo?.cleanup();
});

describe('the DNS challenge', () => {
  it('serves only while answered: seen on request, gone on the next check; another value proves nothing', async () => {
    const name = '_docs-challenge.help.acme.test';
    const mapped = await rest('POST', '/api/docs/domains', { hostname: 'help.acme.test', owner: 'acme', repo: 'widgets' });
    expect([mapped.status, mapped.body.verified, mapped.body.verification.name]).toEqual([201, false, name]);
    // Published after mapping: the next request looks it up and serves.
    dns.txt(name, ['v=spf1 -all', mapped.body.verification.value]);
    expect((await page('/', 'help.acme.test')).text).toContain('The home page.');
    // Withdrawn: the periodic check unproves it, and it stops serving.
    dns.txt(name, undefined);
    await server.services.docs.domains.recheck(0);
    expect((await page('/', 'help.acme.test')).text).not.toContain('The home page.');
    // A value of another mapping does not prove it.
    dns.txt(name, ['docs-verification=0123456789abcdef0123456789abcdef']);
    expect((await rest('POST', '/api/docs/domains/help.acme.test/verify', {})).body.verified).toBe(false);
  });

  it('a record left by an earlier mapping does not prove a new one: each mapping has its own token', async () => {
    const first = await rest('POST', '/api/docs/domains', { hostname: 'again.acme.test', owner: 'acme', repo: 'widgets' });
    dns.txt('_docs-challenge.again.acme.test', [first.body.verification.value]);
    expect((await rest('POST', '/api/docs/domains/again.acme.test/verify', {})).body.verified).toBe(true);
    expect((await rest('DELETE', '/api/docs/domains/again.acme.test')).status).toBe(204);
    const second = await rest('POST', '/api/docs/domains', { hostname: 'again.acme.test', owner: 'acme', repo: 'widgets' });
    expect(second.body.verification.value).not.toBe(first.body.verification.value);
    expect(second.body.verified).toBe(false);
    dns.txt('_docs-challenge.again.acme.test', [second.body.verification.value]);
    expect((await rest('POST', '/api/docs/domains/again.acme.test/verify', {})).body).toMatchObject({ verified: true, hostname: 'again.acme.test', owner: 'acme', repo: 'widgets' });
  });

  it('another organization can neither verify nor remove a domain it did not map', async () => {
    const other = restClient(server.url, (await createOrganization(server, 'Other')).apiKey);
    await rest('POST', '/api/docs/domains', { hostname: 'mine.acme.test', owner: 'acme', repo: 'widgets' });
    for (const [method, path] of [['POST', '/api/docs/domains/mine.acme.test/verify'], ['DELETE', '/api/docs/domains/mine.acme.test']] as const) {
      const res = await other(method, path, method === 'POST' ? {} : undefined);
      expect([res.status, res.body.error, res.body.message, res.body.details], `${method} ${path}`).toEqual([
        404,
        'NOT_FOUND',
        'No domain mine.acme.test is mapped by this organization',
        { reason: 'domain' },
      ]);
    }
    const again = await rest('POST', '/api/docs/domains', { hostname: 'mine.acme.test', owner: 'acme', repo: 'widgets' });
    expect([again.status, again.body.error, again.body.message, again.body.details]).toEqual([409, 'CONFLICT', 'mine.acme.test is already mapped', { reason: 'duplicate' }]);
  });

  it("the service's own names are not a repository's to map", async () => {
    for (const hostname of ['docs.example.com', 'docs.test', 'acme.docs.test', 'deep.acme.docs.test']) {
      const res = await rest('POST', '/api/docs/domains', { hostname, owner: 'acme', repo: 'widgets' });
      expect([res.status, res.body.message, res.body.details], hostname).toEqual([422, 'Invalid request', { hostname: 'Belongs to this service (its own host or its vanity domain)' }]);
    }
    for (const hostname of ['localhost', '127.0.0.1', 'intranet', '[::1]']) {
      expect((await rest('POST', '/api/docs/domains', { hostname, owner: 'acme', repo: 'widgets' })).status, hostname).toBe(422);
    }
  });

  it('one domain is looked up, recorded or removed at a time: the others stay as they are', async () => {
    const a = await rest('POST', '/api/docs/domains', { hostname: 'a.acme.test', owner: 'acme', repo: 'widgets' });
    dns.txt('_docs-challenge.a.acme.test', [a.body.verification.value]);
    expect((await rest('POST', '/api/docs/domains/a.acme.test/verify', {})).body.verified).toBe(true);
    await rest('POST', '/api/docs/domains', { hostname: 'b.acme.test', owner: 'acme', repo: 'widgets' });
    expect((await rest('POST', '/api/docs/domains/b.acme.test/verify', {})).body.verified).toBe(false);
    expect((await rest('POST', '/api/docs/domains/a.acme.test/verify', {})).body.verified).toBe(true);
    expect((await rest('DELETE', '/api/docs/domains/b.acme.test')).status).toBe(204);
    expect((await rest('GET', '/api/docs/repositories/acme/widgets')).body.domains).toContain('a.acme.test');
    expect((await page('/', 'a.acme.test')).text).toContain('The home page.');
  });

  it('the periodic check looks up only the domains not checked for its interval', async () => {
    await rest('POST', '/api/docs/domains', { hostname: 'fresh.acme.test', owner: 'acme', repo: 'widgets' });
    const before = dns.questions.length;
    await server.services.docs.domains.recheck(3_600_000);
    expect(dns.questions.slice(before)).toEqual([]);
    await server.services.docs.domains.recheck(0);
    expect(dns.questions.slice(before)).toContain('TXT _docs-challenge.fresh.acme.test');
  });

  it('a DNS outage changes nothing: a proven domain keeps serving, an unproven one stays unproven', async () => {
    const proven = await rest('POST', '/api/docs/domains', { hostname: 'steady.acme.test', owner: 'acme', repo: 'widgets' });
    dns.txt('_docs-challenge.steady.acme.test', [proven.body.verification.value]);
    expect((await rest('POST', '/api/docs/domains/steady.acme.test/verify', {})).body.verified).toBe(true);
    expect((await rest('POST', '/api/docs/domains', { hostname: 'pending.acme.test', owner: 'acme', repo: 'widgets' })).body.verified).toBe(false);
    await dns.close();
    try {
      await server.services.docs.domains.recheck(0);
      expect((await page('/', 'steady.acme.test')).text).toContain('The home page.');
      expect((await rest('POST', '/api/docs/domains/pending.acme.test/verify', {})).body.verified).toBe(false);
      expect((await rest('POST', '/api/docs/domains/steady.acme.test/verify', {})).body.verified).toBe(true);
      // Mapped during the outage: never looked up, so the next periodic check asks for it, however short ago it was mapped.
      expect((await rest('POST', '/api/docs/domains', { hostname: 'late.acme.test', owner: 'acme', repo: 'widgets' })).status).toBe(201);
    } finally {
      dns = await startDnsStandIn(Number(dns.server.split(':')[1])); // back where the server asks
    }
    const late = await server.db.em().findOneOrFail(DocsDomain, { hostname: 'late.acme.test' });
    expect(late.checkedAt).toBeNull();
    dns.txt('_docs-challenge.late.acme.test', [`docs-verification=${late.token}`]);
    await server.services.docs.domains.recheck(3_600_000);
    // Proven by the periodic check itself (a request would look it up too: read the record, not a page).
    expect((await server.db.em().fork().findOneOrFail(DocsDomain, { hostname: 'late.acme.test' })).verifiedAt).not.toBeNull();
  }, 60_000);
});

describe('a name another organization mapped and has not proven', () => {
  let other: Rest;
  let otherRepo: GitFixture;
  const beta = { owner: 'beta', repo: 'site' };
  /** Sets a mapping's times in the past, as the database would have them that many days later. */
  const daysLater = (hostname: string, days: number, column: 'created_at' | 'unproven_since') =>
    server.db.em().execute(`update docs_domain set ${column} = ${column} - make_interval(days => ?) where hostname = ?`, [days, hostname]);

  beforeAll(async () => {
    other = restClient(server.url, (await createOrganization(server, 'Victim')).apiKey);
    otherRepo = createGitRepo();
    otherRepo.write({ 'docs.json': JSON.stringify({ name: 'Beta' }), 'index.mdx': '# Beta\n\nThe home page of Beta.\n' });
    otherRepo.commit('docs');
    expect((await other('POST', '/api/docs/repositories', { ...beta, source: otherRepo.dir })).status).toBe(201);
    await published(other, 'beta/site');
  }, 60_000);
  afterAll(() => otherRepo?.cleanup());

  it('holds it for 7 days: then another organization maps it in its place; a proven mapping holds it however old', async () => {
    expect((await rest('POST', '/api/docs/domains', { hostname: 'docs.victim.test', owner: 'acme', repo: 'widgets' })).status).toBe(201);
    const refused = await other('POST', '/api/docs/domains', { hostname: 'docs.victim.test', ...beta });
    expect([refused.status, refused.body.error, refused.body.details.reason]).toEqual([409, 'CONFLICT', 'unproven']);
    await daysLater('docs.victim.test', 8, 'created_at');
    const taken = await other('POST', '/api/docs/domains', { hostname: 'docs.victim.test', ...beta });
    expect([taken.status, taken.body.owner, taken.body.repo, taken.body.verified]).toEqual([201, 'beta', 'site', false]);
    expect((await rest('POST', '/api/docs/domains/docs.victim.test/verify', {})).status).toBe(404);
    expect((await rest('GET', '/api/docs/repositories/acme/widgets')).body.domains).not.toContain('docs.victim.test');
    // The new mapping holds it now, against the organization it replaced too.
    expect((await rest('POST', '/api/docs/domains', { hostname: 'docs.victim.test', owner: 'acme', repo: 'widgets' })).body.details.reason).toBe('unproven');

    const proven = await rest('POST', '/api/docs/domains', { hostname: 'docs.kept.test', owner: 'acme', repo: 'widgets' });
    dns.txt('_docs-challenge.docs.kept.test', [proven.body.verification.value]);
    expect((await rest('POST', '/api/docs/domains/docs.kept.test/verify', {})).body.verified).toBe(true);
    await daysLater('docs.kept.test', 30, 'created_at');
    const kept = await other('POST', '/api/docs/domains', { hostname: 'docs.kept.test', ...beta });
    expect([kept.status, kept.body.message, kept.body.details]).toEqual([409, 'docs.kept.test is already mapped', { reason: 'duplicate' }]);
    // Its record gone, it is held for 7 days from then, not from when it was mapped a month ago.
    dns.txt('_docs-challenge.docs.kept.test', undefined);
    await server.services.docs.domains.recheck(0);
    expect((await other('POST', '/api/docs/domains', { hostname: 'docs.kept.test', ...beta })).body.details.reason).toBe('unproven');
    await daysLater('docs.kept.test', 8, 'unproven_since');
    expect((await other('POST', '/api/docs/domains', { hostname: 'docs.kept.test', ...beta })).status).toBe(201);
  });

  it('yields at once to an organization that proves the name with the record its refusal named', async () => {
    const squatted = await rest('POST', '/api/docs/domains', { hostname: 'help.victim.test', owner: 'acme', repo: 'widgets' });
    const refused = await other('POST', '/api/docs/domains', { hostname: 'help.victim.test', ...beta });
    const record = refused.body.details.verification;
    expect([refused.status, refused.body.details.reason, record.type, record.name]).toEqual([409, 'unproven', 'TXT', '_docs-challenge.help.victim.test']);
    expect(record.value).toMatch(/^docs-verification=[0-9a-f]{32}$/);
    expect(record.value).not.toBe(squatted.body.verification.value);
    // The holder's own record proves nothing for another organization.
    dns.txt('_docs-challenge.help.victim.test', [squatted.body.verification.value]);
    expect((await other('POST', '/api/docs/domains', { hostname: 'help.victim.test', ...beta })).status).toBe(409);
    dns.txt('_docs-challenge.help.victim.test', [record.value]);
    const taken = await other('POST', '/api/docs/domains', { hostname: 'help.victim.test', ...beta });
    expect([taken.status, taken.body.owner, taken.body.verified, taken.body.verification]).toEqual([201, 'beta', true, record]);
    expect((await page('/', 'help.victim.test')).text).toContain('The home page of Beta.');
    expect((await rest('POST', '/api/docs/domains/help.victim.test/verify', {})).status).toBe(404);
  });
});
