/**
 * Documentation hosting end to end (docs/docs-hosting.md): a real git
 * repository with docs on two branches, a tag and a pull-request ref, registered and published through the API,
 * built by the real renderer in build processes, served by the real server per ref, on a vanity subdomain and on
 * a custom domain; redirects, failed builds, webhooks, caching headers and helpful 404s.
 */
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { get, hostingConfig, published, pushWebhook, settled, type Build } from '../helpers/hosting.ts';
import { startDnsStandIn, type DnsStandIn } from '../helpers/dns.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';
import { DocsSites, type SiteRequest } from '../../server/docs-hosting/serving/sites.ts';

let server: TestServer;
let dns: DnsStandIn;
let rest: Rest;
let repo: GitFixture;
let secret: string;
const shas: Record<string, string> = {};
const site = 'acme/widgets';

const config = {
  name: 'Widgets',
  scripts: { vendorSiteVerification: 'site-token', altAnalytics: true },
  sidebar: [{ group: 'Start', pages: [{ title: 'Home', href: '/' }, { title: 'Guide', href: '/guide' }] }],
};

beforeAll(async () => {
  repo = createGitRepo('main');
  repo.write({
    'docs.json': JSON.stringify(config),
    'index.mdx': '# Widgets\n\nWelcome to the widgets.\n',
    'guide.mdx': '---\ntitle: Guide\n---\n\nGuide version one.\n',
    'gone.mdx': '# Gone soon\n\nThis page will be removed.\n',
    'moved.mdx': '---\nredirect: /guide\n---\n',
    'images/drawing.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script><circle r="4"/></svg>',
  });
  shas.v1 = repo.commit('v1');
  repo.git('tag', 'v1.0');
  repo.write({ 'guide.mdx': '---\ntitle: Guide\n---\n\nGuide on main.\n' });
  shas.main = repo.commit('main v2');
  repo.git('checkout', '-q', '-b', 'beta');
  // A file of the repository's own with the name of the one the host composes: the host's is served.
  repo.write({ 'guide.mdx': '---\ntitle: Guide\n---\n\nGuide on beta.\n', 'public/llms-full.txt': 'Planted by the repository.\n' });
  shas.beta = repo.commit('beta');
  repo.git('checkout', '-q', '-b', 'pr', 'main');
  repo.write({ 'pr.mdx': '# From pull request 7\n' });
  shas.pr = repo.commit('pr');
  repo.git('update-ref', 'refs/pull/7/head', shas.pr);
  repo.git('checkout', '-q', 'main');
  repo.git('branch', '-q', '-D', 'pr');

  dns = await startDnsStandIn();
  server = await startTestServer({
    rateLimits: 'off',
    docs: hostingConfig({ vanityDomain: 'docs.test', buildConcurrency: 2, dnsServers: [dns.server] }),
  });
  rest = restClient(server.url, (await createOrganization(server)).apiKey);
  const created = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'widgets', source: repo.dir });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  secret = created.body.webhookSecret;
}, 60_000);
afterAll(async () => {
  await server?.destroy();
  await dns?.close();
  repo?.cleanup();
});

const page = (path: string, options: Parameters<typeof get>[2] = {}) => get(server.url, path, options);

describe('publishing from git, by ref', () => {
  it('publishes the default branch: /{owner}/{repo} serves it, internal links under that path', async () => {
    const build = await published(rest, site);
    expect(build).toMatchObject({ commit: shas.main, refs: ['refs/heads/main'], pages: 4, problems: [] });
    const guide = await page('/acme/widgets/guide');
    expect(guide.status).toBe(200);
    expect(guide.text).toContain('Guide on main.');
    expect(guide.text).toContain('href="/acme/widgets/"');
    expect(guide.text).not.toMatch(/__DOCS_BASE__|docs-origin\.invalid/);
    expect((await page('/acme/widgets')).text).toContain('Welcome to the widgets.');
    expect((await page('/ACME/Widgets/guide/')).status).toBe(200); // owner/repo case-insensitive, trailing slash tolerated
  });

  it('serves a branch, a tag, a pull request and a commit at /{owner}/{repo}~{ref}, each its own build', async () => {
    const beta = await published(rest, site, 'beta');
    const tag = await published(rest, site, 'v1.0');
    const pull = await published(rest, site, '7');
    expect([beta.commit, tag.commit, pull.commit]).toEqual([shas.beta, shas.v1, shas.pr]);
    expect([beta.refs, tag.refs, pull.refs]).toEqual([['refs/heads/beta'], ['refs/tags/v1.0'], ['refs/pull/7/head']]);
    expect((await page('/acme/widgets~beta/guide')).text).toContain('Guide on beta.');
    expect((await page('/acme/widgets~beta/guide')).text).toContain('href="/acme/widgets~beta/"');
    expect((await page('/acme/widgets~v1.0/guide')).text).toContain('Guide version one.');
    expect((await page('/acme/widgets~7/pr')).text).toContain('From pull request 7');
    // A commit: the build of that commit, whichever ref asked for it (builds are cached by commit).
    const commit = await page(`/acme/widgets~${shas.v1!.slice(0, 10)}/guide`);
    expect([commit.status, commit.text.includes('Guide version one.')]).toEqual([200, true]);
    const { body } = await rest('GET', '/api/docs/repositories/acme/widgets/builds');
    expect(body.builds.filter((b: Build) => b.commit === shas.v1)).toHaveLength(1);
  });

  it('builds a ref nobody published when a reader asks for it: 503 with Retry-After while building, then the site', async () => {
    repo.git('branch', 'same', shas.main!);
    repo.git('checkout', '-q', '-b', 'later');
    repo.write({ 'guide.mdx': '# Later\n\nGuide on later.\n' });
    const later = repo.commit('later');
    repo.git('checkout', '-q', 'main');
    await published(rest, site); // fetches the new branches (main itself is unchanged: its build is reused)
    // A branch at a commit built before: served at once.
    const same = await page('/acme/widgets~same/guide');
    expect([same.status, same.text.includes('Guide on main.')]).toEqual([200, true]);
    // A commit of its own: built on demand.
    const building = await page('/acme/widgets~later/guide');
    expect([building.status, building.headers['retry-after']]).toEqual([503, '5']);
    expect(building.text).toContain('is being built');
    const builds = (await rest('GET', '/api/docs/repositories/acme/widgets/builds')).body.builds as Build[];
    expect(await settled(rest, builds.find((b) => b.commit === later)!)).toMatchObject({ status: 'SUCCEEDED', refs: ['refs/heads/later'] });
    expect((await page('/acme/widgets~later/guide')).text).toContain('Guide on later.');
    expect((await page(`/acme/widgets~${later.slice(0, 12)}/guide`)).text).toContain('Guide on later.');
  });

  it("llms-full.txt: each ref's listed pages, composed from their stored Markdown (no file of its own is stored)", async () => {
    const main = await page('/acme/widgets/llms-full.txt');
    expect([main.status, main.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8']);
    const origin = server.url;
    expect(main.text).toBe(
      `# Widgets\n\n---\n\nSource: ${origin}/acme/widgets/\n\n# Widgets\n\nWelcome to the widgets.\n\n---\n\nSource: ${origin}/acme/widgets/guide\n\n# Guide\n\nGuide on main.\n\n` +
        `---\n\nSource: ${origin}/acme/widgets/gone\n\n# Gone soon\n\nThis page will be removed.\n`,
    );
    const beta = (await page('/acme/widgets~beta/llms-full.txt')).text;
    expect(beta).toContain(`Source: ${origin}/acme/widgets~beta/guide\n\n# Guide\n\nGuide on beta.`);
    expect(beta).not.toContain('Planted');
    expect((await page('/widgets/llms-full.txt', { host: 'acme.docs.test' })).text).toContain('Source: http://acme.docs.test/widgets/guide');
    // Neither main's nor beta's build stored one, though beta's public/ folder has a file of that name.
    for (const commit of [shas.main, shas.beta]) {
      const stored = await server.db
        .em()
        .getConnection()
        .execute<{ path: string }[]>("select f.path from docs_file f join docs_build b on b.id = f.build_id where b.commit = ? and f.path like 'llms%'", [commit]);
      expect(stored.map((row) => row.path)).toEqual(['llms.txt']);
    }
    // Composed only up to a size: beyond it, none (a repository could make every request gather hundreds of MB).
    const small = new DocsSites(server.db, { maxComposedBytes: 10 });
    const request = (await small.route(new URL(server.url).host, '/acme/widgets/llms-full.txt')) as SiteRequest;
    const deployment = await small.deployment(request.repository, request.ref);
    expect(deployment.state === 'ready' && [deployment.build.files.has('llms-full.txt'), deployment.build.files.has('index.md')]).toEqual([false, true]);
  });

  it('GET /api/docs/repositories/{owner}/{repo}: what each ref serves', async () => {
    const { status, body } = await rest('GET', '/api/docs/repositories/acme/widgets');
    expect(status).toBe(200);
    expect(body.defaultBranch).toBe('main');
    const byRef = Object.fromEntries(body.deployments.map((d: { ref: string }) => [d.ref, d]));
    expect(byRef['refs/heads/main']).toMatchObject({ url: '/acme/widgets', servedCommit: shas.main });
    expect(byRef['refs/pull/7/head']).toMatchObject({ url: '/acme/widgets~7', servedCommit: shas.pr });
    expect(byRef['refs/tags/v1.0']).toMatchObject({ url: '/acme/widgets~v1.0', servedCommit: shas.v1 });
  });
});

describe('serving', () => {
  it('caching: content-hashed assets immutable, HTML revalidated with an ETag (304 when unchanged)', async () => {
    const guide = await page('/acme/widgets/guide');
    expect(guide.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const css = /href="(\/acme\/widgets\/_astro\/[^"]+\.css)"/.exec(guide.text)![1]!;
    const asset = await page(css);
    expect([asset.status, asset.headers['cache-control'], asset.headers['content-type']]).toEqual([200, 'public, max-age=31536000, immutable', 'text/css; charset=utf-8']);
    const again = await page('/acme/widgets/guide', { headers: { 'if-none-match': String(guide.headers.etag) } });
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await page('/acme/widgets~beta/guide', { headers: { 'if-none-match': String(guide.headers.etag) } })).status).toBe(200);
  });

  it('pages carry their Content-Security-Policy; a repository SVG is served sandboxed, and so are the service\'s notices', async () => {
    const html = await page('/acme/widgets/guide');
    expect(html.text).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    const svg = await page('/acme/widgets/images/drawing.svg');
    expect([svg.status, svg.headers['content-type'], svg.headers['content-security-policy']]).toEqual([
      200,
      'image/svg+xml',
      "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'",
    ]);
    expect((await page('/acme/widgets~nope/guide')).headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/);
  });

  it('previews (any ~ref) stay out of search engines; the default URL does not', async () => {
    expect((await page('/acme/widgets~beta/guide')).headers['x-robots-tag']).toBe('noindex');
    expect((await page('/acme/widgets/guide')).headers['x-robots-tag']).toBeUndefined();
  });

  it('the site-verification meta tag only on the default branch; alternative analytics only on a vanity subdomain or custom domain', async () => {
    const verification = /<meta name="google-site-verification" content="site-token">/;
    const alt = /data-analytics="alt"/;
    const main = (await page('/acme/widgets/guide')).text;
    expect([verification.test(main), alt.test(main)]).toEqual([true, false]);
    const beta = (await page('/acme/widgets~beta/guide')).text;
    expect([verification.test(beta), alt.test(beta)]).toEqual([false, false]);
    const vanity = (await page('/widgets/guide', { host: 'acme.docs.test' })).text;
    expect([verification.test(vanity), alt.test(vanity)]).toEqual([true, true]);
    expect(vanity).toContain('data-domain="acme.docs.test"');
  });

  it('a vanity subdomain {owner}.<domain>/{repo}[~ref] and a mapped custom domain [/~ref] serve the same sites', async () => {
    const vanity = await page('/widgets/guide', { host: 'acme.docs.test' });
    expect([vanity.status, vanity.text.includes('Guide on main.')]).toEqual([200, true]);
    expect(vanity.text).toContain('href="/widgets/"');
    expect((await page('/widgets~beta/guide', { host: 'acme.docs.test' })).text).toContain('Guide on beta.');
    expect((await page('/nothing/guide', { host: 'acme.docs.test' })).status).toBe(404);

    const mapped = await rest('POST', '/api/docs/domains', { hostname: 'Docs.Acme.Test', owner: 'acme', repo: 'widgets' });
    expect([mapped.status, mapped.body]).toEqual([
      201,
      {
        hostname: 'docs.acme.test',
        owner: 'acme',
        repo: 'widgets',
        verified: false,
        verification: { type: 'TXT', name: '_docs-challenge.docs.acme.test', value: expect.stringMatching(/^docs-verification=[0-9a-f]{32}$/) },
        createdAt: expect.any(String),
      },
    ]);
    // Mapped but not proven: the name serves nothing of the repository.
    expect((await page('/guide', { host: 'docs.acme.test' })).status).toBe(404);
    dns.txt('_docs-challenge.docs.acme.test', ['v=spf1 -all', mapped.body.verification.value]);
    const verified = await rest('POST', '/api/docs/domains/docs.acme.test/verify', {});
    expect([verified.status, verified.body.verified], JSON.stringify(verified.body)).toEqual([200, true]);
    const custom = await page('/guide', { host: 'docs.acme.test' });
    expect([custom.status, custom.text.includes('Guide on main.')]).toEqual([200, true]);
    expect(custom.text).toContain('<link rel="canonical" href="http://docs.acme.test/guide">');
    expect(custom.text).toMatch(/data-analytics="alt"/);
    expect((await page('/~beta/guide', { host: 'docs.acme.test' })).text).toContain('Guide on beta.');
    const unknownRef = await page('/~nope/guide', { host: 'docs.acme.test' });
    expect([unknownRef.status, unknownRef.text.includes('href="/~beta"')]).toEqual([404, true]); // the refs, as this host serves them
    expect((await rest('POST', '/api/docs/domains', { hostname: 'docs.acme.test', owner: 'acme', repo: 'widgets' })).status).toBe(409);
    expect((await rest('GET', '/api/docs/repositories/acme/widgets')).body.domains).toEqual(['docs.acme.test']);
    // Another organization cannot remove it, nor learn more than that it maps no such domain.
    const other = restClient(server.url, (await createOrganization(server, 'Squatter')).apiKey);
    const foreign = await other('DELETE', '/api/docs/domains/docs.acme.test');
    expect([foreign.status, foreign.body.error, foreign.body.details]).toEqual([404, 'NOT_FOUND', { reason: 'domain' }]);
    expect((await page('/guide', { host: 'docs.acme.test' })).status).toBe(200);
    expect((await rest('DELETE', '/api/docs/domains/unmapped.acme.test')).body).toMatchObject({ error: 'NOT_FOUND', details: { reason: 'domain' } });
    expect((await rest('DELETE', '/api/docs/domains/docs.acme.test')).status).toBe(204);
    expect((await page('/guide', { host: 'docs.acme.test' })).status).not.toBe(200);
  });

  it('helpful 404s: the site’s own 404 page for a missing page, the published refs for an unknown ref', async () => {
    const missing = await page('/acme/widgets/no-such-page');
    expect([missing.status, missing.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    expect(missing.text).toContain('href="/acme/widgets/"'); // in the site's layout, linking home
    const ref = await page('/acme/widgets~nope/guide');
    expect(ref.status).toBe(404);
    expect(ref.text).toContain('has no branch, tag, pull request or commit named <code>nope</code>');
    expect(ref.text).toContain('href="/acme/widgets~beta"');
    expect((await page('/acme/unregistered')).status).toBe(404);
  });

  it('a control character in a ref, owner or repository names nothing: 404, never a database error', async () => {
    for (const [path, host] of [
      ['/acme/widgets~%00/guide', undefined],
      ['/acme/widgets~a%01b', undefined],
      ['/acme/%00', undefined],
      ['/ac%00me/widgets', undefined],
      ['/widgets~%00', 'acme.docs.test'],
      ['/w%00idgets', 'acme.docs.test'],
    ] as const) {
      expect((await page(path, host ? { host } : {})).status, `${host ?? ''}${path}`).toBe(404);
    }
    expect((await page('/acme/widgets~%00')).text).toContain('No such version of acme/widgets');
  });

  it('pages are read with GET and HEAD: another method answers 405', async () => {
    const post = await page('/acme/widgets/guide', { method: 'POST' });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect((await page('/acme/widgets/guide', { method: 'HEAD' })).status).toBe(200);
  });

  it('a Host header that is not a host name is not written into pages', async () => {
    const odd = await page('/acme/widgets/guide', { host: 'evil_host"><script>' });
    expect(odd.status).toBe(200);
    expect(odd.text).toContain('<link rel="canonical" href="http://localhost/acme/widgets/guide">');
  });

  it('/schema.json on the service host', async () => {
    const schema = await page('/schema.json');
    expect([schema.status, JSON.parse(schema.text).$schema]).toEqual([200, 'https://json-schema.org/draft/2020-12/schema']);
  });
});

describe('push webhook, redirects, failed builds', () => {
  it('refuses a wrong signature (401) and answers ping', async () => {
    const wrong = await pushWebhook(server.url, site, secret, { ref: 'refs/heads/main' }, 'push', 'sha256=00');
    expect([wrong.status, wrong.body.error]).toEqual([401, 'UNAUTHORIZED']);
    expect((await pushWebhook(server.url, site, 'not the secret', { ref: 'refs/heads/main' })).status).toBe(401);
    // As long as the expected one, but not in bytes: still just a wrong signature.
    expect((await pushWebhook(server.url, site, secret, {}, 'push', `sha256=${'é'.repeat(64)}`)).status).toBe(401);
    const ping = await pushWebhook(server.url, site, secret, { zen: 'Keep it logically awesome.' }, 'ping');
    expect([ping.status, ping.body.builds]).toEqual([200, []]);
  });

  it('a page removed and a `redirects` entry added: the push publishes it and the old path answers 307', async () => {
    repo.remove('gone.mdx');
    repo.write({ 'docs.json': JSON.stringify({ ...config, redirects: { '/gone/': '/guide', '/ext': 'https://example.com/elsewhere', '/guide': '/', '/uni': '/gäste/ünï' } }) });
    const after = repo.commit('remove gone, add redirects');
    const push = await pushWebhook(server.url, site, secret, { ref: 'refs/heads/main', after, repository: { full_name: site } });
    expect(push.status).toBe(200);
    expect((await settled(rest, push.body.builds![0]!)).status).toBe('SUCCEEDED');

    for (const path of ['/acme/widgets/gone', '/acme/widgets/gone/']) {
      const redirect = await page(path);
      expect([redirect.status, redirect.headers.location]).toEqual([307, '/acme/widgets/guide']);
    }
    expect((await page('/acme/widgets/ext')).headers.location).toBe('https://example.com/elsewhere');
    expect((await page('/acme/widgets/uni')).headers.location).toBe('/acme/widgets/g%C3%A4ste/%C3%BCn%C3%AF');
    // A page exists at /guide: the page is served, `redirects` is not read.
    expect((await page('/acme/widgets/guide')).status).toBe(200);
    // Redirects answer any method; 307 tells the client to repeat it at the destination.
    const posted = await page('/acme/widgets/gone', { method: 'POST' });
    expect([posted.status, posted.headers.location]).toEqual([307, '/acme/widgets/guide']);
    // A page's frontmatter `redirect` governs its own path.
    expect([(await page('/acme/widgets/moved')).status, (await page('/acme/widgets/moved')).headers.location]).toEqual([307, '/acme/widgets/guide']);
    // Internal destinations follow the routing mode and ref.
    expect((await page('/widgets/gone', { host: 'acme.docs.test' })).headers.location).toBe('/widgets/guide');
    // The beta branch was not pushed: its page is still there.
    expect((await page('/acme/widgets~beta/gone')).status).toBe(200);
  });

  it('a build that fails keeps the last good one served, and records the failure with the validation report', async () => {
    repo.write({ 'docs.json': '{\n  "name": "Widgets",\n  "sidebar": [\n' });
    const broken = repo.commit('broken docs.json');
    const push = await pushWebhook(server.url, site, secret, { ref: 'refs/heads/main', after: broken });
    const build = await settled(rest, push.body.builds![0]!);
    expect(build.status).toBe('FAILED');
    expect(build.error).toBe('The site has errors');
    expect(build.problems.filter((p) => p.severity === 'error').map((p) => [p.file, p.line])).toEqual([['docs.json', 4]]);
    expect((await page('/acme/widgets/guide')).text).toContain('Guide on main.');
    const { body } = await rest('GET', '/api/docs/repositories/acme/widgets');
    expect(body.deployments.find((d: { ref: string }) => d.ref === 'refs/heads/main')).toMatchObject({ wantedCommit: broken, servedCommit: expect.not.stringMatching(broken) });
  });

  it('a pushed tag is built as the tag, even where a branch has its name; a closed pull request is no longer served', async () => {
    repo.git('branch', 'v2', shas.beta!);
    repo.git('tag', 'v2', shas.v1!);
    const push = await pushWebhook(server.url, site, secret, { ref: 'refs/tags/v2', after: shas.v1 });
    expect(push.body.builds![0]).toMatchObject({ commit: shas.v1, refs: expect.arrayContaining(['refs/tags/v2']) });
    expect((await settled(rest, push.body.builds![0]!)).status).toBe('SUCCEEDED');
    // The branch v2 exists (unpublished): ~v2 is the branch, whatever was published first; the tag has a URL of its own.
    const deployments = (await rest('GET', '/api/docs/repositories/acme/widgets')).body.deployments as { ref: string; url: string }[];
    expect(deployments.find((d) => d.ref === 'refs/tags/v2')?.url).toBe('/acme/widgets~refs%2Ftags%2Fv2');
    expect((await page('/acme/widgets~refs%2Ftags%2Fv2/guide')).text).toContain('Guide version one.');
    const branch = await page('/acme/widgets~v2/guide');
    expect(branch.text).not.toContain('Guide version one.'); // being built for the branch, or the branch's page
    expect(await published(rest, site, 'v2')).toMatchObject({ commit: shas.beta, status: 'SUCCEEDED' });
    expect((await page('/acme/widgets~v2/guide')).text).toContain('Guide on beta.');
    const closed = await pushWebhook(server.url, site, secret, { action: 'closed', number: 7 }, 'pull_request');
    expect([closed.status, closed.body.builds]).toEqual([200, []]);
    expect((await rest('GET', '/api/docs/repositories/acme/widgets')).body.deployments.map((d: { ref: string }) => d.ref)).not.toContain('refs/pull/7/head');
  });

  it('a deleted branch is no longer served', async () => {
    repo.git('branch', '-q', '-D', 'later');
    expect((await pushWebhook(server.url, site, secret, { ref: 'refs/heads/later', after: '0'.repeat(40), deleted: true })).status).toBe(200);
    expect((await page('/acme/widgets~later/guide')).status).toBe(404);
  });
});

describe('the organization API', () => {
  it('registering: 401 without a key, 409 for a taken name, 422 for reserved owners and bad sources, 404 for another organization', async () => {
    expect((await restClient(server.url, null)('POST', '/api/docs/repositories', { owner: 'x', repo: 'y', source: repo.dir })).status).toBe(401);
    expect((await rest('POST', '/api/docs/repositories', { owner: 'Acme', repo: 'Widgets', source: repo.dir })).status).toBe(409);
    const reserved = await rest('POST', '/api/docs/repositories', { owner: 'api', repo: 'docs', source: repo.dir });
    expect([reserved.status, Object.keys(reserved.body.details)]).toEqual([422, ['owner']]);
    const bad = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'other', source: 'ext::sh -c evil' });
    expect([bad.status, Object.keys(bad.body.details)]).toEqual([422, ['source']]);
    const notGit = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'other', source: tmpdir() });
    expect([notGit.status, notGit.body.details.source]).toEqual([422, 'Not a git repository this server can read']); // git's own words (paths, hosts) stay in the log
    expect((await rest('GET', '/api/docs/repositories/acme/other')).status).toBe(404);
    const ownHost = await rest('POST', '/api/docs/domains', { hostname: 'someone.docs.test', owner: 'acme', repo: 'widgets' });
    expect([ownHost.status, Object.keys(ownHost.body.details)]).toEqual([422, ['hostname']]); // the vanity domain's
    const other = restClient(server.url, (await createOrganization(server, 'Other')).apiKey);
    expect((await other('GET', '/api/docs/repositories/acme/widgets')).status).toBe(404);
    expect((await other('POST', '/api/docs/repositories/acme/widgets/publish', {})).status).toBe(404);
    expect((await rest('POST', '/api/docs/repositories/acme/widgets/publish', { ref: 'no-such-branch' })).body).toMatchObject({ error: 'NOT_FOUND', details: { reason: 'ref' } });
  });

  it('an owner name belongs to the organization that registered it first: another gets 409, whatever the case', async () => {
    const other = restClient(server.url, (await createOrganization(server, 'Squatter')).apiKey);
    for (const owner of ['acme', 'ACME']) {
      const squat = await other('POST', '/api/docs/repositories', { owner, repo: 'new', source: repo.dir });
      expect([squat.status, squat.body.error, squat.body.details]).toEqual([409, 'CONFLICT', { reason: 'owner' }]);
    }
    expect((await page('/acme/new')).status).toBe(404);
    // The holder registers more repositories under its name; the other organization takes a name of its own.
    const own = await other('POST', '/api/docs/repositories', { owner: 'squatter', repo: 'new', source: repo.dir });
    expect(own.status).toBe(201);
  });
});
