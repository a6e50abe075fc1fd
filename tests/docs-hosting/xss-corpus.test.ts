/**
 * Cross-site scripting payloads in every input a repository controls, published anonymously as a pull request's
 * preview (`/acme/corpus~7`, the attacker's way in: the default branch is harmless) and from the default branch on
 * a vanity subdomain (where `scripts.*` analytics are served), read in chromium twice: as served, and with the
 * Content-Security-Policy taken out (meta and header), so the sanitiser alone must hold too.
 *
 * Inputs: MDX bodies (raw HTML, JSX attributes written as strings and as literal expressions, Astro directives,
 * Markdown links, images and definitions), every prop of every built-in component, frontmatter, docs.json (docs.page
 * and Mintlify forms, variables substituted into bodies), code blocks and their titles, Mermaid diagrams, math, SVG
 * files, redirects and the 404 page. A payload that ran would call `alert`, set `window.__xss`, fetch `/__xss` or
 * load a script from https://evil.example (answered here with a script that does the same): the test listens for
 * all four while each page loads and while every element gets the events handlers wait for, and no link, source or
 * action may hold a script URL. Each page's markers (`P<n>.`) show that its payloads were compiled, not dropped with a
 * page that failed to build. The site's own scripts keep working under its policy (the theme toggle and search).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM } from '../helpers/browser.ts';
import { get, hostingConfig, published } from '../helpers/hosting.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';
import { corpusFiles, mintlifyJson } from './xss-payloads.ts';

// Functions passed to page.evaluate run in the browser.
declare const document: any;

if (!HAS_CHROMIUM) console.warn(`tests/docs-hosting/xss-corpus.test.ts: ${NO_CHROMIUM}`);

describe.skipIf(!HAS_CHROMIUM)('XSS payloads a repository can hold, previewed and published', () => {
  let server: TestServer;
  let repo: GitFixture;
  let mint: GitFixture;
  let browser: Browser;
  const corpus = corpusFiles();
  const port = () => new URL(server.url).port;
  /** What ran: a dialog, a beacon to /__xss, a request for https://evil.example. */
  const ran: string[] = [];

  /** A browser context reading the sites: outside this machine only evil.example answers (with script). */
  async function readerContext(withoutPolicy: boolean): Promise<BrowserContext> {
    const context = await browser.newContext();
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname.startsWith('/__xss') || url.hostname === 'evil.example') ran.push(`${withoutPolicy ? 'without policy' : 'served'}: ${route.request().url()} from ${route.request().frame().url()}`);
      if (url.hostname === 'evil.example') return route.fulfill({ contentType: 'text/javascript', body: "window.__xss='evil';fetch('/__xss/evil')" });
      if (url.port !== port()) return route.abort('blockedbyclient');
      if (!withoutPolicy || route.request().resourceType() !== 'document') return route.continue();
      // The page without its Content-Security-Policy: the sanitiser is the only guard left.
      // Fetched from here, not by the browser: a vanity host is asked at 127.0.0.1 with its Host header, and with the
      // Sec-Fetch-Dest a browser sends with a navigation (interception comes before the browser adds it).
      const host = url.host;
      url.hostname = '127.0.0.1';
      const headers = { ...(await route.request().allHeaders()), host, 'sec-fetch-dest': 'document' };
      const response = await route.fetch({ url: url.href, headers, maxRedirects: 0 });
      const served = { ...response.headers() };
      delete served['content-security-policy'];
      const body = (await response.text()).replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/gi, '');
      return route.fulfill({ response, headers: served, body });
    });
    return context;
  }

  beforeAll(async () => {
    server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ vanityDomain: 'docs.test' }) });
    const rest = restClient(server.url, (await createOrganization(server)).apiKey);
    // The default branch is harmless; the pull request holds the corpus.
    repo = createGitRepo();
    repo.write({ 'docs.json': JSON.stringify({ name: 'Corpus' }), 'index.mdx': '# Harmless\n' });
    repo.commit('harmless');
    repo.git('checkout', '-q', '-b', 'attack');
    repo.write(corpus.files);
    const attack = repo.commit('corpus');
    repo.git('update-ref', 'refs/pull/7/head', attack);
    repo.git('checkout', '-q', 'main');
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'corpus', source: repo.dir })).status).toBe(201);
    // The same pages published from a default branch, under Mintlify's docs.json, on a vanity subdomain.
    mint = createGitRepo();
    mint.write({ ...corpus.files, 'docs.json': JSON.stringify(mintlifyJson) });
    mint.commit('mintlify corpus');
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'mint', source: mint.dir })).status).toBe(201);
    expect((await published(rest, 'acme/mint')).status).toBe('SUCCEEDED');
    // Anonymous: the preview is built by reading it, nobody published it.
    for (let i = 0; ; i++) {
      const res = await fetch(`${server.url}/acme/corpus~7/`);
      if (res.status === 200) break;
      expect([res.status, i < 600]).toEqual([503, true]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // A page answered by the test (its policy taken out) has no address the browser knows: it may still load the
    // site's files from 127.0.0.1.
    browser = await launchChromium(['--host-resolver-rules=MAP *.docs.test 127.0.0.1', '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessChecks,LocalNetworkAccessChecks']);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.destroy();
    repo?.cleanup();
    mint?.cleanup();
  });

  /** Every page of the corpus at `site`, and the status it answers. */
  const pagesAt = (site: string): [string, number][] =>
    ['/', ...Object.keys(corpus.markers)].map((path) => [`${site}${path}`, path === '/no-such-page' ? 404 : 200]);
  const SITES = () => ({
    'a preview on the service host': `${server.url}/acme/corpus~7`,
    'the default branch on a vanity subdomain (analytics on)': `http://acme.docs.test:${port()}/mint`,
  });

  it('holds at least 300 payloads across every input a repository controls', () => {
    expect(corpus.payloads).toBeGreaterThanOrEqual(300);
  });

  for (const withoutPolicy of [false, true]) {
    describe(withoutPolicy ? 'with the Content-Security-Policy taken out' : 'as served', () => {
      let context: BrowserContext;
      let page: Page;
      beforeAll(async () => {
        context = await readerContext(withoutPolicy);
        page = await context.newPage();
        page.on('pageerror', (error) => console.warn(`${page.url()}: ${error.message}`));
        page.on('dialog', (dialog) => {
          ran.push(`${withoutPolicy ? 'without policy' : 'served'}: dialog "${dialog.message()}" at ${page.url()}`);
          void dialog.dismiss();
        });
      });
      afterAll(() => context?.close());

      for (const [where, site] of Object.entries({ preview: 0, vanity: 1 })) {
        it(`no payload runs while the pages of ${where === 'preview' ? 'a preview' : 'a vanity subdomain'} load or their elements get the events handlers wait for`, async () => {
          const base = Object.values(SITES())[site]!;
          for (const [url, status] of pagesAt(base)) {
            const response = await page.goto(url);
            expect(response?.status(), url).toBe(status);
            const path = new URL(url).pathname.replace(/^\/(acme\/corpus~7|mint)/, '') || '/';
            // The page was built with its payloads: every marker is there.
            const text = await page.evaluate(() => document.body.innerText as string);
            for (const marker of corpus.markers[path] ?? []) expect(text, `${url}: ${marker}`).toContain(marker);
            // Mermaid draws after load: wait for it to finish (drawn or refused).
            await page.waitForFunction(() => !document.querySelector('figure[data-mermaid]:not([data-mermaid=drawn]):not([data-mermaid=error])'), undefined, { timeout: 15_000 });
            await page.evaluate(() => {
              for (const element of document.querySelectorAll('*') as Iterable<{ dispatchEvent(event: Event): void }>) {
                for (const type of ['mouseover', 'focus', 'toggle', 'load', 'error', 'animationstart', 'pointerenter', 'play', 'start']) element.dispatchEvent(new Event(type));
              }
            });
            await page.waitForTimeout(100);
            expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss), url).toBeUndefined();
            // Nothing left that a click, a focus or a later script would run.
            const found = await page.evaluate(() => {
              const risky: string[] = [];
              const URLS = new Set(['href', 'src', 'action', 'formaction', 'poster', 'data', 'xlink:href', 'background', 'cite', 'ping']);
              for (const element of document.querySelectorAll('*') as Iterable<{ tagName: string; attributes: Iterable<{ name: string; value: string }> }>) {
                for (const { name, value } of element.attributes) {
                  // A handler, or a URL that runs script or leaves for the attacker's host (as the browser resolves it).
                  const urls = name === 'srcset' ? value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]!) : URLS.has(name) ? [value] : [];
                  const bad = urls.some((url) => {
                    const resolved = URL.parse(url, document.baseURI);
                    return !resolved || /^(javascript|vbscript|data):$/.test(resolved.protocol) || resolved.hostname === 'evil.example';
                  });
                  if (name.startsWith('on') || bad) risky.push(`<${element.tagName.toLowerCase()} ${name}="${value}">`);
                }
              }
              return risky;
            });
            expect(found, url).toEqual([]);
          }
          expect(ran).toEqual([]);
        }, 180_000);
      }

      it('redirects to script URLs, SVG files opened directly and the 404 page of a preview run nothing', async () => {
        for (const [site, host] of [['/acme/corpus~7'], ['/mint', `acme.docs.test:${port()}`]] as const) {
          for (const path of ['/go', '/go-data', '/go-vb', '/redirecting']) {
            // Dropped from the configuration (no such page then), or a redirect elsewhere: never to a script URL.
            const res = await get(server.url, `${site}${path}`, { host });
            expect([404, 307, 200], `${site}${path}`).toContain(res.status);
            expect(String(res.headers.location ?? ''), `${site}${path}`).not.toMatch(/^\s*(javascript|vbscript|data):/i);
          }
        }
        for (const site of Object.values(SITES())) {
          for (const svg of ['/images/evil.svg', '/evil.svg']) {
            await page.goto(`${site}${svg}`);
            await page.waitForTimeout(200);
            expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss), `${site}${svg}`).toBeUndefined();
          }
        }
        expect(ran).toEqual([]);
      });
    });
  }

  it('every hosted page and notice carries its policy as a header too: a page its meta policy plus frame-ancestors', async () => {
    const vanity = `acme.docs.test:${port()}`;
    const pages: [string, number, string?][] = [...pagesAt('/acme/corpus~7'), ['/acme/mint/', 200], ...pagesAt('/mint').map(([path, code]): [string, number, string] => [path, code, vanity])];
    for (const [path, status, host] of pages) {
      const res = await get(server.url, path, { host });
      expect(res.status, path).toBe(status);
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(res.text)?.[1];
      expect(meta, path).toBeDefined();
      expect([res.headers['content-security-policy'], res.headers['x-frame-options']], path).toEqual([`${meta}; frame-ancestors 'self'`, 'SAMEORIGIN']);
    }
    // The service's own notices: nothing published on the default branch yet, no such ref.
    for (const path of ['/acme/corpus', '/acme/corpus~no-such-ref']) {
      const res = await get(server.url, path);
      expect(res.status, path).toBe(404);
      expect([res.headers['content-security-policy'], res.headers['x-frame-options']], path).toEqual([expect.stringMatching(/^default-src 'none'; .*frame-ancestors 'self'$/), 'SAMEORIGIN']);
    }
  });

  it('third-party origins in the policy come from `scripts` only, and only where the scripts are served', async () => {
    const policyAt = async (path: string, host?: string) => String((await get(server.url, path, { host })).headers['content-security-policy'] ?? '');
    /** The origins the policy lets run or reach: its script, connect and image sources. */
    const origins = (policy: string) =>
      [...new Set(policy.split('; ').filter((directive) => /^(script|connect|img)-src /.test(directive)).flatMap((directive) => directive.match(/https?:\/\/[^\s;']+/g) ?? []))].sort();
    // The service host serves no analytics, preview or not: its policy names no other origin, whatever the pages hold.
    for (const path of ['/acme/corpus~7/directives', '/acme/corpus~7/html', '/acme/mint/', '/acme/mint~main/']) expect(origins(await policyAt(path)), path).toEqual([]);
    // The default branch on its vanity subdomain: Google's origins for the tag manager, the Plausible instance's.
    const google = ['https://*.analytics.google.com', 'https://*.google-analytics.com', 'https://*.googletagmanager.com', 'https://www.googletagmanager.com'];
    expect(origins(await policyAt('/mint/', `acme.docs.test:${port()}`))).toEqual([...google, 'https://stats.example'].sort());
    // Frames: only the built-in players', on a page with one (an iframe of YouTube's read as <YouTube>).
    expect(/frame-src ([^;]*)/.exec(await policyAt('/acme/corpus~7/html'))?.[1]).toBe('https://www.youtube-nocookie.com');
    expect(/frame-src ([^;]*)/.exec(await policyAt('/acme/corpus~7/directives'))?.[1]).toBe("'none'");
    // Its previews run none of them.
    expect(origins(await policyAt('/mint~main/', `acme.docs.test:${port()}`))).toEqual([]);
  });
});
