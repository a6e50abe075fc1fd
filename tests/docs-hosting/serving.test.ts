/**
 * How a published site's files are answered (server/docs-hosting/serving/serve.ts), on one small repository built
 * once: which file a path names, content types and caching, compression and ETags as clients negotiate them,
 * redirects, methods, and the service's own notices. Publishing, domains and webhooks: end-to-end.test.ts.
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { get, hostingConfig, published, settled } from '../helpers/hosting.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { breakDatabase, createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

/** The service's own notice pages: an inline style, nothing else. */
const NOTICE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

let server: TestServer;
let rest: Rest;
let repo: GitFixture;
const page = (path: string, options: Parameters<typeof get>[2] = {}) => get(server.url, path, options);

/** A GET with the path sent exactly as written (no URL normalisation of dot segments) and the raw body. */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  repo = createGitRepo('main');
  repo.write({
    'docs.json': JSON.stringify({
      name: 'Served',
      // Destinations as a repository may write them: non-ASCII, beyond the BMP, even a lone surrogate.
      redirects: { '/old': '/guide', '/out': 'https://example.com/ünï', '/emoji': 'https://example.com/😀', '/lone': 'https://example.com/\ud800x' },
      scripts: { vendorAnalytics: 'G-SERVED', altAnalytics: true, vendorSiteVerification: 'served-verification' },
    }),
    'index.mdx': '# Served\n\nThe home page.\n',
    'guide.mdx': `# Guide\n\n${'A long paragraph that compresses well. '.repeat(200)}\n`,
    'images/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>',
    'files/data.bin.pdf': '%PDF-1.4 not really',
    'public/files/notes.unknownext': 'bytes of a kind nobody registered',
    // Text served as it is (public/ is copied to the site's root), one at the compression threshold and one just over it.
    'public/files/at-threshold.txt': 'x'.repeat(1024),
    'public/files/over-threshold.txt': 'x'.repeat(1025),
    // Read by the ETag test only: its body is made (not taken from the cache) while that test runs.
    'public/files/etag.txt': 'e'.repeat(2048),
  });
  repo.commit('docs');
  repo.git('checkout', '-q', '-b', 'broken');
  // Seven errors (docs.json and six pages) and a warning: the notice lists the first five errors only.
  repo.write({ 'docs.json': '{ "name": ', 'bad.mdx': '<div>\n', 'warned.mdx': '# Warned\n\n<iframe src="https://example.com/"></iframe>\n' });
  for (const n of [2, 3, 4, 5, 6]) repo.write({ [`more-${n}.mdx`]: '<div>\n' });
  repo.commit('broken');
  // Four branches whose builds fail fast (invalid docs.json): what readers see while versions are being built.
  for (const n of [1, 2, 3, 4]) {
    repo.git('checkout', '-q', '-b', `asked-${n}`, 'broken');
    repo.write({ 'docs.json': `{ "name": ${n}` });
    repo.commit(`asked ${n}`);
  }
  repo.git('checkout', '-q', 'main');
  repo.git('branch', 'later');
  repo.git('branch', 'feature/x');
  repo.git('checkout', '-q', '-b', 'routed');
  repo.write({ 'routed.mdx': '# Routed\n' });
  repo.commit('routed');
  repo.git('checkout', '-q', 'main');
  // PUBLIC_BASE_URL as people write it, with a trailing slash: no URL made from it has `//`.
  server = await startTestServer({ rateLimits: 'off', publicBaseUrl: 'https://docs.example.com/', docs: hostingConfig({ vanityDomain: 'docs.test' }) });
  rest = restClient(server.url, (await createOrganization(server)).apiKey);
  const registered = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'served', source: repo.dir });
  expect([registered.status, registered.body.webhookUrl]).toEqual([201, 'https://docs.example.com/api/docs/repositories/acme/served/webhook']);
  await published(rest, 'acme/served');
  const broken = await rest('POST', '/api/docs/repositories/acme/served/publish', { ref: 'broken' });
  expect((await settled(rest, broken.body)).status).toBe('FAILED');
}, 120_000);
// Every answer is complete: nothing after it (the API's handlers) tries to answer again and fails.
afterEach(() => expect(server.loggedErrors).toEqual([]));
afterAll(async () => {
  await server?.destroy();
  repo?.cleanup();
});

describe('which file a path names', () => {
  it('the root, a page with or without its slash, and a file itself', async () => {
    for (const path of ['/acme/served', '/acme/served/']) expect((await page(path)).text, path).toContain('The home page.');
    for (const path of ['/acme/served/guide', '/acme/served/guide/', '/acme/served/guide/index.html']) expect((await page(path)).text, path).toContain('compresses well');
    expect((await page('/acme/served/images/logo.svg')).text).toContain('<circle r="4"/>');
  });
  it('owner and repository names in any case', async () => {
    expect((await page('/ACME/Served/guide')).text).toContain('compresses well');
    expect((await page('/Served/guide', { host: 'ACME.docs.test' })).text).toContain('compresses well');
    const again = await rest('POST', '/api/docs/repositories', { owner: 'Acme', repo: 'SERVED', source: repo.dir });
    expect([again.status, again.body.error]).toEqual([409, 'CONFLICT']);
  });
  it('dot segments, empty segments and broken escapes name nothing: the site 404 page', async () => {
    for (const path of ['/acme/served/images/../guide', '/acme/served/./guide', '/acme/served/images//logo.svg', '/acme/served/%E0%A4%A', '/acme/served/nope']) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body.toString(), path).toContain('href="/acme/served/"'); // the site's own 404 page, in its layout
    }
  });
});

describe('headers', () => {
  it('content types by extension, nosniff, Vary and a length; octet-stream for what is not known', async () => {
    const html = await page('/acme/served/guide');
    expect(html.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff', vary: 'Accept-Encoding' });
    expect(Number(html.headers['content-length'])).toBe(Buffer.byteLength(html.text));
    expect((await page('/acme/served/files/data.bin.pdf')).headers['content-type']).toBe('application/pdf');
    expect((await page('/acme/served/sitemap.xml')).headers['content-type']).toMatch(/xml/);
    expect((await page('/acme/served/files/notes.unknownext')).headers['content-type']).toBe('application/octet-stream');
  });
  it('content-hashed assets are immutable; everything else is revalidated; 404s are not immutable', async () => {
    const css = /href="(\/acme\/served\/_astro\/[^"]+\.css)"/.exec((await page('/acme/served/guide')).text)?.[1];
    expect(css).toBeDefined();
    expect((await page(css!)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await page('/acme/served/guide')).headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect((await page('/acme/served/_astro/missing.css')).headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });
  it('previews carry X-Robots-Tag: noindex; the default URL does not', async () => {
    expect((await page('/acme/served/guide')).headers['x-robots-tag']).toBeUndefined();
    expect((await page('/acme/served~main/guide')).headers['x-robots-tag']).toBe('noindex');
  });
  it('an SVG is sandboxed, and shown as text when opened as a document; a page carries the policy of its meta, framed by its own origin only', async () => {
    const svg = await page('/acme/served/images/logo.svg');
    expect([svg.headers['content-type'], svg.headers['content-security-policy'], svg.headers.vary]).toEqual([
      'image/svg+xml',
      "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'",
      'Accept-Encoding, Sec-Fetch-Dest',
    ]);
    for (const dest of ['document', 'iframe', 'embed', 'object']) {
      expect((await page('/acme/served/images/logo.svg', { headers: { 'sec-fetch-dest': dest } })).headers['content-type'], dest).toBe('text/plain; charset=utf-8');
    }
    expect((await page('/acme/served/images/logo.svg', { headers: { 'sec-fetch-dest': 'image' } })).headers['content-type']).toBe('image/svg+xml');
    const guide = await page('/acme/served/guide');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(guide.text)![1];
    expect([guide.headers['content-security-policy'], guide.headers['x-frame-options']]).toEqual([`${meta}; frame-ancestors 'self'`, 'SAMEORIGIN']);
  });
});

describe('compression and ETags', () => {
  it('gzip when the client accepts it (a q-value above 0, or *), for text over 1 kB; never when refused', async () => {
    for (const accept of ['gzip', 'br, gzip;q=0.5', '*', 'GZIP', 'gzip;xq=0']) {
      const res = await page('/acme/served/guide', { headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
    }
    for (const accept of ['gzip;q=0', 'gzip; q=0.0 ', 'identity', 'br', '', 'gzip;q=0, *;q=1']) {
      const res = await page('/acme/served/guide', { headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBeUndefined();
    }
    const small = await page('/acme/served/images/logo.svg', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined(); // a repository file, and small
    const at = await page('/acme/served/files/at-threshold.txt', { headers: { 'accept-encoding': 'gzip' } });
    const over = await page('/acme/served/files/over-threshold.txt', { headers: { 'accept-encoding': 'gzip' } });
    expect([at.headers['content-encoding'], at.headers['content-length']]).toEqual([undefined, '1024']); // 1 kB is not worth it
    expect(over.headers['content-encoding']).toBe('gzip');
    const zipped = await raw('/acme/served/guide', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(zipped.body).toString()).toContain('compresses well');
  });
  it('ETags differ between the plain and the gzipped body and between ways of serving; If-None-Match answers 304', async () => {
    const plain = (await page('/acme/served/files/etag.txt')).headers.etag as string;
    const gzipped = (await page('/acme/served/files/etag.txt', { headers: { 'accept-encoding': 'gzip' } })).headers.etag as string;
    const preview = (await page('/acme/served~main/files/etag.txt')).headers.etag as string;
    expect((await page('/acme/served/guide')).headers.etag).not.toBe(plain);
    expect(plain).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(gzipped).toBe(`${plain.slice(0, -1)}-gz"`);
    expect(preview).not.toBe(plain);
    for (const match of [plain, `W/${plain}`, `"other", ${plain}`, '*']) {
      const res = await page('/acme/served/files/etag.txt', { headers: { 'if-none-match': match } });
      expect([res.status, res.text], match).toEqual([304, '']);
    }
    expect((await page('/acme/served/guide', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    expect((await page('/acme/served/nope', { headers: { 'if-none-match': '*' } })).status).toBe(404); // only a 200 becomes 304
  });
});

describe('methods and redirects', () => {
  it('HEAD answers the headers without a body; other methods on files 405', async () => {
    const head = await page('/acme/served/guide', { method: 'HEAD' });
    expect([head.status, head.text, Number(head.headers['content-length']) > 0]).toEqual([200, '', true]);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await page('/acme/served/guide', { method });
      expect([res.status, res.headers.allow, res.headers['content-type'], res.text], method).toEqual([405, 'GET, HEAD', 'text/plain; charset=utf-8', 'Method not allowed\n']);
    }
  });
  it('only reading an unpublished ref builds it: another method there builds nothing', async () => {
    const builds = async () => (await rest('GET', '/api/docs/repositories/acme/served/builds')).body.total as number;
    const before = await builds();
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await page('/acme/served~later/', { method })).status, method).toBe(404);
    expect(await builds()).toBe(before);
  });
  it('a redirects key answers 307 for any method, resolved for where it is served, ASCII-safe', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await page('/acme/served/old', { method });
      expect([res.status, res.headers.location, res.headers['cache-control'], res.headers['content-type']], method).toEqual([307, '/acme/served/guide', 'public, max-age=0, must-revalidate', 'text/plain; charset=utf-8']);
      expect(res.text).toBe('Redirecting to /acme/served/guide\n');
    }
    expect((await page('/acme/served~main/old')).headers.location).toBe('/acme/served~main/guide');
    expect((await page('/served/old', { host: 'acme.docs.test' })).headers.location).toBe('/served/guide');
    expect((await page('/acme/served/out')).headers.location).toBe('https://example.com/%C3%BCn%C3%AF');
    expect((await page('/acme/served/emoji')).headers.location).toBe('https://example.com/%F0%9F%98%80');
    expect((await page('/acme/served/lone')).headers.location).toBe('https://example.com/%EF%BF%BDx'); // U+FFFD
  });
});

describe('origins written into pages', () => {
  it('PUBLIC_BASE_URL on the service host; the request host, with its scheme, on a vanity host; a malformed Host is not written', async () => {
    expect((await page('/acme/served/guide')).text).toContain('<link rel="canonical" href="https://docs.example.com/acme/served/guide">');
    expect((await page('/served/guide', { host: 'acme.docs.test' })).text).toContain('<link rel="canonical" href="https://acme.docs.test/served/guide">');
    // A vanity host is named at the public port, whatever port its Host header says.
    const odd = await page('/served/guide', { host: 'acme.docs.test:8080' });
    expect(odd.text).toContain('<link rel="canonical" href="https://acme.docs.test/served/guide">');
    const evil = await page('/acme/served/guide', { host: 'evil"><script>' });
    expect(evil.text).not.toContain('evil"');
  });
});

describe('what only the default branch, or only a domain of its own, carries', () => {
  it('site verification on the default branch; analytics only on a vanity host (a domain of its own) of the default branch; none on previews', async () => {
    const ANALYTICS = 'googletagmanager.com/gtag/js?id=G-SERVED';
    const VERIFICATION = '<meta name="google-site-verification" content="served-verification">';
    const ALT = 'data-analytics="alt"';
    const carries = (text: string) => [text.includes(ANALYTICS), text.includes(VERIFICATION), text.includes(ALT)];
    expect(carries((await page('/acme/served/guide')).text)).toEqual([false, true, false]);
    expect(carries((await page('/served/guide', { host: 'acme.docs.test' })).text)).toEqual([true, true, true]);
    expect(carries((await page('/acme/served~main/guide')).text)).toEqual([false, false, false]);
    expect(carries((await page('/served~main/guide', { host: 'acme.docs.test' })).text)).toEqual([false, false, false]);
  });
});

describe("the site's own routes", () => {
  const initialize = (path: string) =>
    fetch(new URL(path, server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'serving-test', version: '1' } } }),
    });
  it('/mcp answers POST, with or without a trailing slash, where a file would answer 405', async () => {
    for (const path of ['/acme/served/mcp', '/acme/served/mcp/', '/acme/served/mcp//', '/acme/served~main/mcp']) {
      const res = await initialize(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('"name":"acme/served documentation"');
    }
  });
  it("pages are named by their URLs where the site is served: PUBLIC_BASE_URL's on the service host, the host's on a vanity host", async () => {
    const listPages = (path: string, host?: string) =>
      get(server.url, path, {
        method: 'POST',
        ...(host ? { host } : {}),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_pages', arguments: {} } }),
      });
    expect((await listPages('/acme/served~main/mcp')).text).toContain('"url":"https://docs.example.com/acme/served~main/guide"');
    expect((await listPages('/served/mcp', 'acme.docs.test')).text).toContain('"url":"https://acme.docs.test/served/guide"');
  });
  it('a POST to a route of an unpublished ref builds it, as reading a page does', async () => {
    const builds = async () => (await rest('GET', '/api/docs/repositories/acme/served/builds')).body.total as number;
    const before = await builds();
    const res = await initialize('/acme/served~routed/mcp');
    expect(res.status).toBe(503); // "being built"
    expect(await res.text()).toContain('<title>acme/served is being built</title>');
    expect(await builds()).toBe(before + 1);
    const all = (await rest('GET', '/api/docs/repositories/acme/served/builds')).body.builds as { id: string; status: string }[];
    for (const build of all.filter((b) => b.status === 'QUEUED' || b.status === 'BUILDING')) await settled(rest, build);
  });
});

describe("the service's notices", () => {
  it('an unknown ref: 404 listing the published refs as this host serves them, escaped', async () => {
    const res = await page('/acme/served~%3Cb%3Enope/guide');
    expect([res.status, res.headers['cache-control'], res.headers['content-security-policy']]).toEqual([404, 'no-store', NOTICE_POLICY]);
    expect(res.text).toContain('<title>No such version of acme/served</title>');
    expect(res.text).toContain('<code>&#60;b&#62;nope</code>');
    expect(res.text).toContain('<p>Published: <a href="/acme/served~broken">broken</a>, <a href="/acme/served~main">main</a>, <a href="/acme/served~routed">routed</a>.</p>');
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    expect(res.text).not.toContain('http-equiv="refresh"'); // only a 503 reloads itself
  });
  it('the published refs are linked as each host names them, a ref with a slash encoded', async () => {
    await published(rest, 'acme/served', 'feature/x'); // main's commit: its build is reused
    const vanity = await page('/served~nope/', { host: 'acme.docs.test' });
    expect(vanity.status).toBe(404);
    expect(vanity.text).toContain('<a href="/served~main">main</a>');
    expect(vanity.text).toContain('<a href="/served~feature%2Fx">feature/x</a>');
    expect((await page('/acme/served~nope/')).text).toContain('<a href="/acme/served~feature%2Fx">feature/x</a>');
  });
  it('a vanity host with no such repository: "No documentation here"', async () => {
    const res = await page('/nothing/guide', { host: 'acme.docs.test' });
    expect([res.status, res.text.includes('Nothing is published at <code>acme.docs.test/nothing/guide</code>.')]).toEqual([404, true]);
    expect(res.text).toContain('<title>No documentation here</title>');
  });
  it('a ref whose only build failed: 503 with Retry-After, the error and its first problems', async () => {
    const res = await page('/acme/served~broken/');
    expect([res.status, res.headers['retry-after']]).toEqual([503, '60']);
    expect(res.text).toContain('acme/served could not be built');
    expect(res.text).toMatch(/The build of <code>broken<\/code> \(commit <code>[0-9a-f]{12}<\/code>\) failed: /);
    expect(res.text).toMatch(/<code>docs\.json:1:\d+<\/code> Invalid JSON/);
    expect(res.text).toContain('<code>bad.mdx:1:1</code> not valid MDX'); // escaped: `&#60;div&#62;`
    expect(res.text).toMatch(/failed: [^<]*\.<\/p><p><code>docs\.json:/); // one paragraph each
    expect(res.text).toContain('&#60;div&#62;');
    expect(res.text.match(/<p><code>[^<]+:\d+:\d+<\/code> /g)).toHaveLength(5); // of seven errors
    expect(res.text).not.toContain('warned.mdx'); // warnings are not why it failed
    expect(res.text).toContain('<meta http-equiv="refresh" content="60">'); // as its Retry-After says
  });
  it('versions being built: 503 "being built" that reloads itself; beyond three at once for a repository, 503 "busy"', async () => {
    // On a server that runs no builds (no build slots) they wait, however fast this machine would build them.
    const waiting = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ buildConcurrency: 0 }) });
    const notices = [];
    try {
      const registered = await restClient(waiting.url, (await createOrganization(waiting)).apiKey)('POST', '/api/docs/repositories', { owner: 'acme', repo: 'served', source: repo.dir });
      expect(registered.status).toBe(201);
      for (const n of [1, 2, 3, 4]) notices.push(await get(waiting.url, `/acme/served~asked-${n}/guide`));
    } finally {
      await waiting.close();
    }
    for (const res of notices.slice(0, 3)) {
      expect([res.status, res.headers['retry-after'], res.headers['cache-control'], res.headers['content-security-policy']]).toEqual([503, '5', 'no-store', NOTICE_POLICY]);
      expect(res.text).toContain('<title>acme/served is being built</title>');
      expect(res.text).toContain('<meta http-equiv="refresh" content="5">');
    }
    expect(notices[0]!.text).toMatch(/The site of <code>asked-1<\/code> is being built \(commit <code>[0-9a-f]{12}<\/code>\)\. This page reloads/);
    const busy = notices[3]!;
    expect([busy.status, busy.headers['retry-after'], busy.headers['cache-control']]).toEqual([503, '30', 'no-store']);
    expect(busy.text).toContain('<title>acme/served is busy</title>');
    expect(busy.text).toContain('<meta http-equiv="refresh" content="30">');
    expect(busy.text).toContain('Several versions of acme/served are being built. Try <code>asked-4</code> again in a minute.');
  });
  it('the default branch before anything is published: 404 saying so, naming the branch', async () => {
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'fresh', source: repo.dir })).status).toBe(201);
    const res = await page('/acme/fresh/', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(res.text).toContain('<title>No such version of acme/fresh</title>');
    expect(res.text).toContain('<p>Nothing of acme/fresh is published yet.</p>');
  });
  it('the default branch while its first build runs: 503 "being built", naming the branch', async () => {
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'first', source: repo.dir })).status).toBe(201);
    const build = await rest('POST', '/api/docs/repositories/acme/first/publish', {});
    const reading = await page('/acme/first/'); // a build takes seconds: still running
    expect(reading.status).toBe(503);
    expect(reading.text).toMatch(/The site of the default branch \(<code>main<\/code>\) is being built \(commit <code>[0-9a-f]{12}<\/code>\)/);
    await settled(rest, build.body);
  });
});

describe('notices of a server with reader limits and a database that goes away', () => {
  it('an address asking for more unpublished versions, or more refs, than its limits allow: 429 with Retry-After; the database gone: 503', async () => {
    // A reader's address may have 2 builds an hour made for it and look 30 refs up a minute here.
    const limited = await startTestServer({ docs: hostingConfig({ readerLimits: { buildsPerHour: 2, refLookupsPerMinute: 30 } }) });
    try {
      const limitedRest = restClient(limited.url, (await createOrganization(limited)).apiKey);
      expect((await limitedRest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'asked', source: repo.dir })).status).toBe(201);
      // Without PUBLIC_BASE_URL, pages name the host they were asked on, over http.
      await published(limitedRest, 'acme/asked');
      expect((await get(limited.url, '/acme/asked/guide')).text).toContain(`<link rel="canonical" href="${limited.url}/acme/asked/guide">`);
      // Any client can send a new Host with each request: past the first 16 origins, a page is resolved for its request
      // alone, neither kept nor compressed (it costs no more than a kept one, and the kept ones stay).
      const gzip = { 'accept-encoding': 'gzip' };
      const hosts = await Promise.all(Array.from({ length: 20 }, (_, i) => get(limited.url, '/acme/asked/guide', { host: `h${i}.example`, headers: gzip })));
      expect(hosts.filter((res) => res.headers['content-encoding'] === 'gzip')).toHaveLength(15);
      const plain = hosts.filter((res) => res.headers['content-encoding'] === undefined);
      expect(plain.map((res) => /<link rel="canonical" href="http:\/\/(h\d+)\.example\/acme\/asked\/guide">/.exec(res.text)?.[1]).every(Boolean)).toBe(true);
      expect((await get(limited.url, '/acme/asked/guide', { headers: gzip })).headers['content-encoding']).toBe('gzip');

      // Refs that name nothing build nothing: they spend no build (lookups 1-20 of 30).
      for (let i = 0; i < 20; i++) expect((await get(limited.url, `/acme/asked~no-such-ref-${i}/`)).status).toBe(404);
      // Nor does a ref whose commit is built already (`later` is main's commit).
      expect((await get(limited.url, '/acme/asked~later/guide')).status).toBe(200);
      // Two new versions are built; the third is one too many.
      for (const n of [1, 2]) expect((await get(limited.url, `/acme/asked~asked-${n}/`)).status).toBe(503);
      const res = await get(limited.url, '/acme/asked~asked-3/');
      expect([res.status, res.headers['cache-control'], Number(res.headers['retry-after']) > 0]).toEqual([429, 'no-store', true]);
      expect(res.text).toContain('<title>Too many new versions asked for</title>');
      expect(res.text).toContain('Try <code>asked-3</code> again later.');
      expect(res.text).not.toContain('http-equiv="refresh"'); // only a 503 reloads itself, whatever its Retry-After
      // Other methods build nothing (the look-up counts: 25 of 30).
      expect((await get(limited.url, '/acme/asked~two-more/', { method: 'POST' })).status).toBe(404);
      // Refs looked up, as many as the minute allows (30); then none is looked up before the address has waited.
      for (let i = 0; i < 5; i++) expect((await get(limited.url, `/acme/asked~more-${i}/`)).status).toBe(404);
      const lookups = await get(limited.url, '/acme/asked~deadbeef1/');
      expect([lookups.status, Number(lookups.headers['retry-after']) > 0]).toEqual([429, true]);
      // The published site is served as ever.
      expect((await get(limited.url, '/acme/asked/guide')).status).toBe(200);

      await breakDatabase(limited);
      // A ref nobody asked for yet: its lookup needs the database (a published default branch may be served from memory).
      // A full ref name is looked up in git by nobody: the address's spent look-ups do not hold it back.
      const down = await get(limited.url, '/acme/asked~refs%2Fheads%2Fafter-the-outage/guide');
      expect([down.status, down.headers['retry-after'], down.headers['content-type'], down.headers['cache-control']]).toEqual([503, '5', 'text/html; charset=utf-8', 'no-store']);
      expect(down.headers['content-security-policy']).toBe(NOTICE_POLICY);
      expect(down.text).toContain('<title>Temporarily unavailable</title>');
      expect(down.text).toContain('<meta http-equiv="refresh" content="5">');
      expect(down.text).toContain('<p>The documentation cannot be read right now. Please try again in a moment.</p>');
      expect((await get(limited.url, '/api/agents/00000000-0000-4000-8000-000000000000')).status).toBe(503);
    } finally {
      await limited.destroy();
    }
  }, 120_000); // a server of its own, started, published and built to
});
