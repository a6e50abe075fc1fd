/**
 * What a build produces besides the pages and how it behaves: hosted builds resolved per response, the
 * agent and MCP outputs, safety (a repository's code never runs), code blocks, accessibility, lean output,
 * the not-found page, and the readSite, buildSite and devSite entry points.
 * Each site is built once (into a temp folder, tests/docs-sites/render-sites.ts) and the built files are read as a
 * browser or a crawler would; docs/docs-site-config.md is the contract.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BuildError, buildSite } from '../../sites/builder/index.ts';
import { HOSTED_BASE, HOSTED_ORIGIN, resolveHosted } from '../../sites/builder/hosted.ts';
import { hostedLlmsFullTxt } from '../../sites/builder/hosted-build.ts';
import { listedPages } from '../../sites/builder/outputs.ts';
import { readSite } from '../../sites/content/read.ts';
import { buildFixture, FIXTURES, parseHtml, startDevSite, type BuiltSite } from '../helpers/docs.ts';
import { BASE, ORIGIN, hrefs, loadSites } from './render-sites.ts';

let full: BuiltSite, empty: BuiltSite, variant: BuiltSite;

beforeAll(async () => {
  ({ full, empty, variant } = await loadSites('full', 'empty', 'variant'));
}, 120_000);

describe('hosted builds: one build per commit, resolved per response (sites/builder/hosted.ts)', () => {
  let hosted: BuiltSite;
  beforeAll(async () => {
    hosted = await buildFixture('docs-empty', {
      config: { scripts: { vendorTagManager: 'GTM-HOST', vendorSiteVerification: 'hosted-token', altAnalytics: true } },
      base: HOSTED_BASE,
      site: HOSTED_ORIGIN,
      context: { published: true, hosted: true, defaultBranch: false, customDomain: false },
    });
  }, 60_000);
  const served = (route: string, at: Parameters<typeof resolveHosted>[1]) => parseHtml(resolveHosted(hosted.page(route).html, at));

  it("the default path of the default branch: base path and origin in every URL, the verification meta, no third party's script", () => {
    const page = served('/guide', { base: '/acme/widgets', origin: 'https://docs.example.com', defaultBranch: true, customDomain: false });
    expect(page.select('link[rel=canonical]')?.attr('href')).toBe('https://docs.example.com/acme/widgets/guide');
    expect(hrefs(page, '.sidebar a, nav a').every((h) => !h?.startsWith('/') || h.startsWith('/acme/widgets/'))).toBe(true);
    expect(page.select('meta[name=google-site-verification]')?.attr('content')).toBe('hosted-token');
    // The service host's paths are one origin for every repository: no tag manager or analytics runs there.
    expect(page.select('script[data-analytics]')).toBeUndefined();
    expect(page.html).not.toMatch(/GTM-HOST|googletagmanager|plausible/);
    expect(page.html).not.toMatch(/__DOCS_BASE__|docs-origin\.invalid|docs:if|docs:end/);
  });
  it("a branch or pull-request preview: no verification meta, and none of the scripts its docs.json names", () => {
    const page = served('/guide', { base: '/acme/widgets~beta', origin: 'https://docs.example.com', defaultBranch: false, customDomain: false });
    expect(page.select('meta[name=google-site-verification]')).toBeUndefined();
    expect(page.select('script[data-analytics]')).toBeUndefined();
    expect(page.html).not.toContain('GTM-HOST');
    const onDomain = served('/guide', { base: '/~beta', origin: 'https://docs.acme.com', defaultBranch: false, customDomain: true });
    expect(onDomain.select('script[data-analytics]')).toBeUndefined();
    expect(page.select('link[rel=canonical]')?.attr('href')).toBe('https://docs.example.com/acme/widgets~beta/guide');
  });
  it('a custom domain at its root: root paths, the tag manager and alt analytics for that domain, their origins in the policy', () => {
    const page = served('/guide', { base: '', origin: 'https://docs.acme.com', defaultBranch: true, customDomain: true });
    expect(page.select('link[rel=canonical]')?.attr('href')).toBe('https://docs.acme.com/guide');
    expect(page.select('script[data-analytics=alt]')?.attr('data-domain')).toBe('docs.acme.com');
    expect(page.select('script[data-analytics=tag-manager]')?.text).toContain('"GTM-HOST"');
    const policy = page.select('meta[http-equiv=Content-Security-Policy]')?.attr('content') ?? '';
    expect(/script-src ([^;]*)/.exec(policy)?.[1]).toMatch(/ https:\/\/www\.googletagmanager\.com .* https:\/\/plausible\.io$/);
    expect([page.select('#docs-search-input')?.attr('data-base'), page.select('#docs-search-input')?.attr('data-pagefind')]).toEqual(['/', '/pagefind/en/']);
    expect(resolveHosted(hosted.file('sitemap.xml'), { base: '', origin: 'https://docs.acme.com', defaultBranch: true, customDomain: true })).toContain('<loc>https://docs.acme.com/guide</loc>');
  });
});

describe('agent and mcp', () => {
  it("a host's llms-full.txt, composed from the listed pages and their `<page>.md` files, is the one a build writes", () => {
    const { data } = full.result;
    const manifest = { name: data.name, description: data.description, pages: listedPages(data) };
    const composed = hostedLlmsFullTxt(manifest, (path) => full.file(path));
    expect(data.description).toBeTruthy();
    expect(resolveHosted(composed, { base: BASE, origin: ORIGIN, defaultBranch: true, customDomain: true })).toBe(full.file('llms-full.txt'));
  });
  it('the chat-panel credential never reaches the built site', () => {
    for (const route of ['/', '/en/quickstart']) expect(full.page(route).html).not.toContain('agent-key-for-tests');
    expect(full.file('llms-full.txt')).not.toContain('agent-key-for-tests');
  });
});

describe('safety: building a repository never runs its code', () => {
  const prose = () => full.page('/en/unsafe').select('.prose')!;
  it('`import`/`export` and `{expressions}` are removed, each a warning', () => {
    expect(prose().text).toContain('The answer is .');
    const messages = full.result.problems.filter((p) => p.file === 'en/unsafe.mdx').map((p) => `${p.line}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^4: `import`\/`export` statements are not run/),
        expect.stringMatching(/^9: JavaScript expression `\{6 \* 7\}`/),
        expect.stringMatching(/^13: <script> is not allowed/),
        expect.stringMatching(/^15: <iframe> is not allowed/),
        expect.stringMatching(/^17: attribute `onClick` removed/),
        expect.stringMatching(/^19: expression attribute `title=\{stolen\}` removed/),
        expect.stringMatching(/^21: link removed: a `javascript:` URL/),
        expect.stringMatching(/^25: unknown component <Evil>/),
        expect.stringMatching(/^27: `set:html` is not a prop of <Note> and was removed/),
      ]),
    );
    expect(messages.some((m) => m.includes('comment'))).toBe(false); // {/* comments */} go silently
  });
  it('`<script>`, `<iframe>`, `style`, `on*` handlers and `javascript:` URLs never reach the page', () => {
    const html = prose();
    expect(html.selectAll('script, iframe')).toHaveLength(0);
    expect(full.page('/en/unsafe').html).not.toContain('window.hacked');
    expect(html.select('.kept-div')?.has('onclick')).toBe(false);
    expect(html.select('span')?.has('style')).toBe(false);
    expect(full.page('/en/unsafe').html).not.toMatch(/javascript:/i);
    expect(html.text).toContain('Content of an unknown component.');
    expect(html.text).toContain('A note that keeps its own body.'); // set:html did not replace it
    expect(full.page('/en/unsafe').html).not.toContain('window.directed');
  });
  it('the Markdown output leaves removed code out', () => {
    const md = full.file('en/unsafe.md');
    expect(md).not.toContain('import Evil');
    expect(md).not.toContain('window.hacked');
  });
  it('a page that is not valid MDX is an error (file:line:col) and a notice page; the rest of the site builds', () => {
    const error = full.result.problems.find((p) => p.file === 'en/broken.mdx' && p.severity === 'error')!;
    expect([error.line, error.column]).toEqual([7, 1]);
    expect(error.message).toContain('line 7');
    expect(full.page('/en/broken').select('.prose')?.text).toContain('This page could not be rendered');
    expect(full.result.pages).toBe(14);
  });
  it('strict: any problem fails the build before anything is rendered', async () => {
    const out = join(empty.out, '..', 'strict-out');
    await expect(buildSite({ source: join(FIXTURES, 'docs-full'), out, strict: true })).rejects.toBeInstanceOf(BuildError);
    await expect(buildSite({ source: join(FIXTURES, 'docs-full'), out, strict: true })).rejects.toMatchObject({ problems: expect.arrayContaining([expect.objectContaining({ file: 'en/broken.mdx' })]) });
  });
});

describe('code blocks', () => {
  it('highlighted with light and dark themes, with a copy button', () => {
    const pre = empty.page('/').select('.prose pre.astro-code')!;
    expect(pre.attr('class')).toContain('github-light');
    expect(pre.attr('style')).toContain('--shiki-dark');
    expect(pre.select('button.copy-code')?.attr('aria-label')).toBe('Copy code');
    expect(empty.page('/').html).toContain('navigator.clipboard');
  });
  it('every built-in component renders without imports', () => {
    const prose = full.page('/en/components').select('.prose')!;
    expect(prose.selectAll('.callout')).toHaveLength(6);
    expect(prose.selectAll('[role=tab]').map((t) => t.text)).toEqual(['macOS', 'Linux', 'npm', 'pnpm']);
    expect(prose.selectAll('.step')).toHaveLength(2);
    expect(prose.selectAll('.card')).toHaveLength(2);
    expect(prose.selectAll('details')).toHaveLength(2);
    expect(prose.selectAll('.mdx-missing')).toHaveLength(0);
  });
});

describe('agent outputs', () => {
  it('llms.txt: site name, description, page list with links and descriptions (indexable pages only)', () => {
    const text = full.file('llms.txt');
    expect(text.startsWith('# Acme Docs\n\n> Everything about Acme widgets.\n')).toBe(true);
    expect(text).toContain(`- [Quickstart](${ORIGIN}${BASE}/en/quickstart.md): Install Acme in five minutes.`);
    expect(text).toContain(`- [Démarrage rapide](${ORIGIN}${BASE}/fr/demarrage.md): Installer Acme.`);
    expect(text).not.toContain('legal.md');
    expect(text).not.toContain('moved.md');
  });
  it('llms-full.txt: every listed page as Markdown', () => {
    const text = full.file('llms-full.txt');
    expect(text).toContain('# Quickstart');
    expect(text).toContain('npm install acme-widgets');
    expect(text).toContain('The product is Widget, version 2.0');
  });
  it('`<page>.md`: the body without frontmatter, variables substituted, the title as a heading', () => {
    const md = full.file('en/variables.md');
    expect(md.startsWith('# Variables for {{ product }}\n\n> Placeholders replaced at build time.\n\nThe product is Widget')).toBe(true);
    expect(md).not.toContain('---');
    expect(empty.file('guide.md').startsWith('# A guide\n')).toBe(true);
    expect(full.page('/en/variables').select('link[rel=alternate][type="text/markdown"]')?.attr('href')).toBe(`${BASE}/en/variables.md`);
  });
  it('sitemap.xml lists pages, not noindex or redirect pages', () => {
    const xml = full.file('sitemap.xml');
    expect(xml).toContain(`<loc>${ORIGIN}${BASE}/en/quickstart</loc>`);
    expect(xml).toContain(`<loc>${ORIGIN}${BASE}/</loc>`);
    expect(xml).not.toContain('/legal<');
    expect(xml).not.toContain('/en/moved<');
    expect(variant.file('sitemap.xml')).toContain('<loc>/open</loc>');
    expect(variant.file('sitemap.xml')).not.toContain('<loc>/guide</loc>');
  });
  it('robots.txt: allowed by default, with the sitemap link', () => {
    expect(full.file('robots.txt')).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN}${BASE}/sitemap.xml\n`);
  });
});

describe('accessibility', () => {
  it('skip link, landmarks and labelled navigation', () => {
    const page = full.page('/en/quickstart');
    const skip = page.select('body > a')!;
    expect([skip.attr('href'), skip.text]).toEqual(['#docs-content', 'Skip to content']);
    expect(page.select('main#docs-content')).toBeDefined();
    expect(page.selectAll('body > header, body > footer')).toHaveLength(2);
    const labels = page.selectAll('nav').map((n) => n.attr('aria-label') ?? n.attr('aria-labelledby'));
    expect(labels.every(Boolean)).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
  });
  it('every image has alternative text and every button a name', () => {
    for (const page of [full.page('/en/quickstart'), full.page('/en/components'), empty.page('/')]) {
      expect(page.selectAll('img').every((img) => img.attr('alt') !== undefined)).toBe(true);
      expect(page.selectAll('button').every((b) => (b.attr('aria-label') ?? b.text).trim() !== '')).toBe(true);
    }
  });
});

describe('lean output', () => {
  it('no framework runtime: only small inline scripts', () => {
    const page = empty.page('/');
    expect(page.selectAll('script[src]')).toHaveLength(0);
    const size = page.selectAll('script').reduce((n, s) => n + s.text.length, 0);
    expect(size).toBeLessThan(8_000);
  });
});

describe('not found', () => {
  it('404.html: the site layout with a not-found message, never indexed', () => {
    const page = parseHtml(full.file('404.html'));
    expect(page.select('title')?.text).toBe('Page not found - Acme Docs');
    expect(page.select('meta[name=robots]')?.attr('content')).toBe('noindex');
    expect(page.select('[data-pagefind-body]')).toBeUndefined();
    expect(full.file('sitemap.xml')).not.toContain('404');
  });
  it('a `404.mdx` page of the docs folder is the 404 page', async () => {
    const site = await buildFixture('docs-empty', { files: { '404.mdx': '---\ntitle: Lost?\n---\n\nThis page went **missing**.\n' } });
    const page = parseHtml(site.file('404.html'));
    expect(page.select('title')?.text).toBe('Lost? - Documentation');
    expect(page.select('.prose strong')?.text).toBe('missing');
    expect(page.select('meta[name=robots]')?.attr('content')).toBe('noindex');
    expect(site.exists('404/index.html')).toBe(false);
    expect(site.file('sitemap.xml')).not.toContain('404');
  }, 60_000);
});

describe('readSite', () => {
  it('routes: the path without `.mdx`, `index` names its folder, `/` for the root', async () => {
    const { pages } = await readSite(join(FIXTURES, 'docs-full'));
    expect(pages.map((p) => p.route)).toEqual(expect.arrayContaining(['/', '/legal', '/en/quickstart', '/en/api/overview', '/fr/demarrage']));
    expect(pages.find((p) => p.route === '/en/quickstart')?.frontmatter.title).toBe('Quickstart');
  });
});

describe('buildSite', () => {
  it('builds of one process are independent, also when they run at the same time', async () => {
    const root = join(empty.out, '..');
    const [a, b] = await Promise.all([
      buildSite({ source: join(FIXTURES, 'docs-empty'), out: join(root, 'parallel-a'), cacheDir: join(root, 'cache-a'), base: '/a' }),
      buildSite({ source: join(FIXTURES, 'docs-full'), out: join(root, 'parallel-b'), cacheDir: join(root, 'cache-b'), base: '/b' }),
    ]);
    expect([a.pages, b.pages]).toEqual([2, 14]);
    const html = (dir: string, path: string) => readFileSync(join(root, dir, path), 'utf8');
    expect(html('parallel-a', 'index.html')).toContain('<title>Home - Documentation</title>');
    expect(html('parallel-a', 'index.html')).not.toContain('/b/');
    expect(html('parallel-b', 'en/quickstart/index.html')).toContain('<title>Quickstart - Acme Docs</title>');
    expect(html('parallel-b', 'en/quickstart/index.html')).not.toContain('href="/a/');
  }, 60_000);
  it('reports progress by phase, page by page while compiling and rendering', async () => {
    const events: { phase: string; done?: number | undefined }[] = [];
    // A cache of its own: the default one (per docs folder, under the OS temp folder) may hold these pages already.
    const cacheDir = join(empty.out, '..', 'progress-cache');
    await buildSite({ source: join(FIXTURES, 'docs-empty'), out: join(empty.out, '..', 'progress'), cacheDir, onProgress: ({ phase, done }) => events.push({ phase, done }) });
    expect([...new Set(events.map((e) => e.phase))]).toEqual(['read', 'compile', 'render', 'outputs', 'search', 'social-images', 'done']);
    const counts = (phase: string) => events.filter((e) => e.phase === phase).map((e) => e.done);
    expect(counts('compile')).toEqual([0, 1, 2]);
    expect(counts('render')).toEqual([1, 2]);
  }, 60_000);
});

describe('devSite', () => {
  it('serves a docs folder and picks up edits of pages and docs.json', async () => {
    const source = join(empty.out, '..', 'dev-source');
    cpSync(join(FIXTURES, 'docs-empty'), source, { recursive: true });
    const server = await startDevSite(source);
    const { title } = server;
    try {
      expect(await title('')).toBe('Home - Documentation');
      expect((await fetch(`${server.url}picture.png`)).headers.get('content-type')).toBe('image/png');
      writeFileSync(join(source, 'docs.json'), '{ "name": "Renamed" }');
      writeFileSync(join(source, 'guide.mdx'), '# An edited guide\n');
      await expect.poll(() => title('guide'), { timeout: 10_000, interval: 200 }).toBe('An edited guide - Renamed');
      expect(await (await fetch(server.url)).text()).not.toContain('googletagmanager');
    } finally {
      await server.close();
    }
  }, 30_000);
});
