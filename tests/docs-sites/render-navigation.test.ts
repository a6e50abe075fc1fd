/**
 * How a built site is navigated and how its pages read: tabs, sidebar, anchors, the `content` settings, variables,
 * redirects, search and links under the base path.
 * Each site is built once (into a temp folder, tests/docs-sites/render-sites.ts) and the built files are read as a
 * browser or a crawler would; docs/docs-site-config.md is the contract.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltSite, type Page } from '../helpers/docs.ts';
import { BASE, ORIGIN, hrefs, texts, loadSites } from './render-sites.ts';

let full: BuiltSite, local: BuiltSite, empty: BuiltSite, branch: BuiltSite, variant: BuiltSite, overrides: BuiltSite;

beforeAll(async () => {
  ({ full, local, empty, branch, variant, overrides } = await loadSites('full', 'local', 'empty', 'branch', 'variant', 'overrides'));
}, 120_000);

describe('tabs', () => {
  it('Label in the tab bar, root-relative `href` opened when the tab is selected', () => {
    const tabs = full.page('/en/quickstart').selectAll('nav.site-tabs a');
    expect(tabs.map((a) => [a.text, a.attr('href')])).toEqual([
      ['Guides', `${BASE}/en/quickstart`],
      ['API', `${BASE}/en/api/overview`],
    ]);
  });
  it('the active tab follows the current page', () => {
    expect(full.page('/en/quickstart').select('nav.site-tabs a[aria-current]')?.text).toBe('Guides');
    expect(full.page('/en/api/endpoints').select('nav.site-tabs a[aria-current]')?.text).toBe('API');
  });
  it('`tabs[].locale`: show the tab only for the matching locale sidebar', () => {
    expect(texts(full.page('/fr/demarrage'), 'nav.site-tabs a')).toEqual(['Guides', 'API', 'Guides FR']);
    expect(texts(full.page('/en/quickstart'), 'nav.site-tabs a')).not.toContain('Guides FR');
    expect(full.page('/fr/demarrage').select('nav.site-tabs a[aria-current]')?.text).toBe('Guides FR');
  });
  it('A sidebar group is scoped to a tab through its `tab` field (string or array)', () => {
    const groups = (route: string) => texts(full.page(route), '.sidebar-nav .sidebar-list[data-depth="0"] > li > .sidebar-group-label');
    expect(groups('/en/quickstart')).toEqual(['Getting started', 'Resources']);
    expect(groups('/en/api/overview')).toEqual(['API reference', 'Resources']);
  });
  it('no tab bar without tabs', () => {
    expect(empty.page('/').select('nav.site-tabs')).toBeUndefined();
  });
});

describe('sidebar', () => {
  it('Locale-keyed: the locale is the first path segment matching a key', () => {
    const fr = full.page('/fr/demarrage');
    expect(texts(fr, '.sidebar-item a')).toEqual(['Démarrage rapide', 'Configuration']);
    expect(fr.select('html')?.attr('lang')).toBe('fr');
    expect(full.page('/en/quickstart').select('html')?.attr('lang')).toBe('en');
  });
  it('Locale-keyed: `default` for every other page', () => {
    expect(texts(full.page('/'), '.sidebar-item a')).toEqual(['Welcome', 'Legal']);
    expect(texts(full.page('/legal'), '.sidebar-item a')).toEqual(['Welcome', 'Legal']);
  });
  it('Flat: an array of group objects, on every page', () => {
    for (const route of ['/', '/guide', '/open']) {
      expect(texts(variant.page(route), '.sidebar-group-label')).toEqual(['First', 'Second']);
      expect(texts(variant.page(route), '.sidebar-item a')).toEqual(['Home', 'Guide', 'Open']);
    }
  });
  it('nested group objects', () => {
    const nested = full.page('/en/variables').select('.sidebar-list[data-depth="1"] > li.sidebar-group')!;
    expect(nested.select('.sidebar-group-label')?.text.trim()).toBe('Advanced');
    expect(texts(nested, '.sidebar-list[data-depth="2"] a')).toEqual(['Variables', 'Unsafe page']);
  });
  it('`href` makes the group label link to this internal path', () => {
    const label = full.page('/en/quickstart').select('li.sidebar-group > a.sidebar-group-label')!;
    expect([label.text.trim(), label.attr('href')]).toEqual(['Getting started', `${BASE}/en/introduction`]);
  });
  it('`icon`: icon-library slug on groups and pages, drawn as Lucide outlines, else from Font Awesome (brands)', () => {
    const page = full.page('/en/quickstart');
    const drawn = (selector: string) => {
      const svg = page.select(selector);
      return svg && { class: svg.attr('class'), icon: svg.attr('data-icon'), paths: svg.selectAll('path, circle, rect, polyline, line').length > 0 };
    };
    expect(drawn('li.sidebar-group[data-icon=rocket] > .sidebar-group-label svg')).toEqual({ class: 'nav-icon', icon: undefined, paths: true });
    expect(drawn('li.sidebar-item[data-icon=bolt] svg')).toEqual({ class: 'nav-icon', icon: undefined, paths: true });
    expect(drawn('li.sidebar-item[data-icon=docker] svg')).toEqual({ class: 'docs-icon nav-icon', icon: 'fa6-brands:docker', paths: true });
  });
  it('the current page is marked; external page items leave the site', () => {
    const page = full.page('/en/quickstart');
    expect(page.select('.sidebar a[aria-current=page]')?.text.trim()).toBe('Quickstart');
    expect(page.select('.sidebar-item a[href="https://status.example.com"]')?.attr('rel')).toBe('noopener noreferrer');
  });
  it('`{}` by default: no sidebar navigation', () => {
    expect(empty.page('/').select('.sidebar-nav')).toBeUndefined();
  });
});

describe('anchors', () => {
  it('Shortcut links rendered below the sidebar search box', () => {
    const sidebar = full.page('/en/quickstart').select('#docs-sidebar')!;
    const children = (sidebar.node.children as { tagName?: string; properties?: Record<string, unknown> }[]).filter((c) => c.tagName && c.tagName !== 'script');
    expect(children.map((c) => String(c.properties?.className ?? c.tagName))).toEqual(['search', 'anchors', 'sidebar-nav']);
    expect(sidebar.select('.anchors li[data-icon=book] a')?.attr('href')).toBe('https://blog.example.com');
  });
  it('`tab`: show only when the active tab matches', () => {
    expect(texts(full.page('/en/api/overview'), '.anchors a')).toEqual(['Blog', 'API status']);
    expect(texts(full.page('/en/quickstart'), '.anchors a')).toEqual(['Blog']);
  });
  it('`locale`: show only for the matching locale', () => {
    expect(texts(full.page('/fr/demarrage'), '.anchors a')).toEqual(['Blog', 'Communauté']);
    expect(texts(full.page('/'), '.anchors a')).toEqual(['Blog']);
  });
});

describe('content.headerDepth', () => {
  it('Deepest Markdown heading level in the on-page table of contents (4 here)', () => {
    const toc = full.page('/en/quickstart').select('aside.toc nav')!;
    expect(toc.selectAll('li').map((li) => [li.attr('data-depth'), li.text])).toEqual([
      ['2', 'Install'],
      ['3', 'From source'],
      ['4', 'Verify the install'],
      ['2', 'Configure'],
    ]);
  });
  it('default 3: `##` through `###`', () => {
    expect(texts(empty.page('/'), 'aside.toc li')).toEqual(['Section two', 'Section three']);
  });
  it('heading ids are GitHub slugs and the contents link to them', () => {
    const page = empty.page('/');
    expect(page.select('h2#section-two')).toBeDefined();
    expect(hrefs(page, 'aside.toc a')).toEqual(['#section-two', '#section-three']);
  });
});

describe('content.zoomImages', () => {
  it('`true`: click-to-zoom on images site-wide', () => {
    const page = full.page('/en/quickstart');
    const image = page.select('.prose img[alt="Architecture diagram"]')!;
    expect(image.attr('data-zoom')).toBe('true');
    expect(page.select('dialog#docs-zoom')).toBeDefined();
    expect(page.html).toContain("img.dataset.zoom==='false'");
  });
  it('per-image override: `data-zoom="false"` on an `<img>`', () => {
    expect(full.page('/en/quickstart').select('.prose img[alt="Hero, not zoomable"]')?.attr('data-zoom')).toBe('false');
  });
  it('per-image override: `data-zoom` on an `<img>` opts in when the site default is off', () => {
    const page = overrides.page('/shown');
    expect(page.select('.prose img[alt="Zoom me"]')?.attr('data-zoom')).not.toBe('false');
    expect(page.select('.prose img[alt="Zoom me"]')?.has('data-zoom')).toBe(true);
    expect(page.select('dialog#docs-zoom')).toBeDefined();
  });
  it('default `false`: no zoom', () => {
    const page = empty.page('/');
    expect(page.select('.prose img')?.has('data-zoom')).toBe(false);
    expect(page.select('dialog#docs-zoom')).toBeUndefined();
  });
});

describe('content.automaticallyInferNextPrevious', () => {
  const nav = (page: Page) => ({
    previous: page.select('.page-nav a[rel=prev]') && [page.select('.page-nav a[rel=prev] .page-nav-title')!.text, page.select('.page-nav a[rel=prev]')!.attr('href')],
    next: page.select('.page-nav a[rel=next]') && [page.select('.page-nav a[rel=next] .page-nav-title')!.text, page.select('.page-nav a[rel=next]')!.attr('href')],
  });
  it('Infer previous/next footer links from sidebar order (of the page\'s locale and tab)', () => {
    expect(nav(full.page('/en/quickstart'))).toEqual({ previous: ['Getting started', `${BASE}/en/introduction`], next: ['Components', `${BASE}/en/components`] });
    expect(nav(full.page('/en/api/overview'))).toEqual({ previous: undefined, next: ['Endpoints', `${BASE}/en/api/endpoints`] });
    expect(nav(full.page('/fr/demarrage'))).toEqual({ previous: undefined, next: ['Configuration', `${BASE}/fr/configuration`] });
  });
  it('Frontmatter `previous` and `next` still apply when inference is off', () => {
    expect(nav(overrides.page('/shown'))).toEqual({ previous: ['A guide', '/guide'], next: ['Home page', '/'] });
    expect(overrides.page('/guide').select('.page-nav')).toBeUndefined();
  });
  it('Frontmatter `previous` and `next` override: `false` and `{ title, href }`', () => {
    expect(nav(full.page('/en/api/endpoints'))).toEqual({ previous: undefined, next: ['Back to the start', `${BASE}/en/quickstart`] });
  });
  it('Frontmatter override with a path: titled by that page', () => {
    expect(nav(full.page('/en/changelog')).previous).toEqual(['Quickstart', `${BASE}/en/quickstart`]);
  });
  it('`false`: no inferred links', () => {
    expect(variant.page('/guide').select('.page-nav')).toBeUndefined();
  });
});

describe('content.showPageTitle', () => {
  it('`false` site-wide: no page hero', () => {
    expect(full.page('/en/introduction').select('.page-hero')).toBeUndefined();
  });
  it('Frontmatter `showPageTitle` overrides', () => {
    const hero = full.page('/en/quickstart').select('.page-hero')!;
    expect(hero.select('h1')?.text).toBe('Quickstart');
    expect(hero.select('.page-description')?.text).toBe('Install Acme in five minutes.');
  });
  it('default `true`: frontmatter `title` and `description` as a page hero', () => {
    const hero = empty.page('/').select('.page-hero')!;
    expect([hero.select('h1')?.text, hero.select('p')?.text]).toEqual(['Home', 'The home page.']);
    expect(empty.page('/guide').select('.page-hero')).toBeUndefined(); // no frontmatter title
  });
});

describe('content.showPageImage', () => {
  it('Render frontmatter `image` below the title block', () => {
    const page = full.page('/en/quickstart');
    expect(page.select('.page-hero + img.page-image')?.attr('src')).toBe(`${BASE}/images/hero.png`);
  });
  it('Frontmatter `showPageImage: true` overrides a site-wide `false`', () => {
    expect(overrides.page('/shown').select('img.page-image')?.attr('src')).toBe('/picture.png');
    expect(overrides.page('/').select('img.page-image')).toBeUndefined();
  });
  it('Frontmatter `showPageImage: false` overrides', () => {
    expect(full.page('/en/components').select('img.page-image')).toBeUndefined();
    expect(full.page('/en/components').select('meta[property="og:image"]')?.attr('content')).toBe(`${ORIGIN}${BASE}/images/hero.png`);
  });
});

describe('variables', () => {
  const prose = () => full.page('/en/variables').select('.prose')!;
  it('String leaf values are substituted into MDX bodies; intermediate objects are traversed by dotted path', () => {
    expect(prose().select('p')?.text).toBe('The product is Widget, version 2.0, made by Acme in Paris.');
  });
  it('Non-string leaves (and missing paths) leave the placeholder unchanged', () => {
    expect(prose().selectAll('p')[1]?.text).toBe('The next version is {{ version.next }} and {{ missing.key }} is unknown; {{ company }} is an object.');
  });
  it('substituted in code too, where unresolved placeholders stay literal', () => {
    expect(prose().select('pre code')?.text).toBe('install Widget@2.0 # and {{ missing.key }}');
    expect(prose().select('p code')?.text).toBe('Widget');
  });
  it('Variables do not apply inside frontmatter', () => {
    expect(full.page('/en/variables').select('title')?.text).toBe('Variables for {{ product }} - Acme Docs');
  });
  it('each unresolved placeholder is a warning with its line', () => {
    const problems = full.result.problems.filter((p) => p.file === 'en/variables.mdx');
    expect(problems.map((p) => [p.line, p.severity])).toEqual([
      [8, 'warning'],
      [8, 'warning'],
      [8, 'warning'],
      [11, 'warning'],
    ]);
  });
});

describe('redirects and frontmatter redirect', () => {
  it('`_redirects.json`: the resolved map for the hosting layer (a page file governs its own path)', () => {
    expect(JSON.parse(full.file('_redirects.json'))).toEqual({
      '/old-start': `${BASE}/en/quickstart`,
      '/en/gone': 'https://example.com/gone',
      '/legacy': `${BASE}/en/components`,
      '/en/moved': `${BASE}/en/quickstart`,
    });
  });
  it('keys and internal values tolerate slashes; external values (`https://`, `//`) are kept as written', () => {
    expect(JSON.parse(overrides.file('_redirects.json'))).toEqual({ '/cdn': '//cdn.example.com/file', '/docs-old': '/guide' });
  });
  it('frontmatter `redirect`: the page is a redirect page (meta refresh, link, canonical)', () => {
    const page = full.page('/en/moved');
    expect(page.select('meta[http-equiv=refresh]')?.attr('content')).toBe(`0; url=${BASE}/en/quickstart`);
    expect(page.select('link[rel=canonical]')?.attr('href')).toBe(`${BASE}/en/quickstart`);
    expect(page.select('main a')?.attr('href')).toBe(`${BASE}/en/quickstart`);
    expect(full.exists('en/moved.md')).toBe(false);
  });
});

describe('search', () => {
  it('default: a Pagefind search box in the sidebar, served from the site itself', () => {
    const input = empty.page('/').select('#docs-sidebar [role=search] input#docs-search-input')!;
    expect([input.attr('data-pagefind'), input.attr('data-search-parts')]).toEqual(['/pagefind/en/', '1']);
    expect(empty.page('/').select('label[for=docs-search-input]')?.text).toBe('Search the documentation');
    expect(empty.exists('pagefind/en/0/pagefind.js')).toBe(true);
    expect(branch.page('/').select('#docs-search-input')?.attr('data-base')).toBe('/');
  });
  /** Pages in the search index: in each of its parts (`pagefind/<language>/<n>/`). */
  const indexed = (site: BuiltSite) =>
    readdirSync(join(site.out, 'pagefind'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('pagefind-entry.json'))
      .map((name) => JSON.parse(site.file(`pagefind/${name}`)) as { languages: Record<string, { page_count: number }> })
      .reduce((pages, entry) => pages + Object.values(entry.languages).reduce((n, language) => n + language.page_count, 0), 0);
  it('only the main content is indexed, titled', () => {
    expect(empty.page('/').selectAll('[data-pagefind-body]').map((e) => e.node.tagName)).toEqual(['article']);
    expect(empty.page('/guide').select('article [data-pagefind-meta=title]')?.text).toBe('A guide');
    expect(indexed(empty)).toBe(2);
  });
  it('pages with frontmatter `noindex` and redirect pages stay out of the index; site-wide `seo.noindex` does not empty it', () => {
    expect(full.page('/legal').select('[data-pagefind-body]')).toBeUndefined();
    expect(indexed(full)).toBe(12); // 14 pages, minus /legal and the redirect page /en/moved
    expect(indexed(variant)).toBe(3);
  });
  it('`docsearch`: a DocSearch container with the configured ids instead', () => {
    const page = full.page('/');
    const container = page.select('#docsearch')!;
    expect([container.attr('data-app-id'), container.attr('data-index-name'), container.attr('data-api-key')]).toEqual(['APP123', 'acme-docs', 'search-key-456']);
    expect(page.select('#docs-search-input')).toBeUndefined();
    // Its script is a bundle of the site itself, not a CDN's.
    const scripts = page.selectAll('script[src]:not([data-analytics])').map((s) => s.attr('src')!);
    expect(scripts.some((src) => src.startsWith('/acme/widgets/_astro/'))).toBe(true);
    expect(scripts.filter((src) => /^(https?:)?\/\//.test(src))).toEqual([]);
    // Its stylesheet too, and only on pages that show it (Pagefind sites do not carry it).
    const styles = page.selectAll('link[rel=stylesheet]').map((l) => l.attr('href')!);
    expect(styles.length).toBe(2);
    expect(styles.every((href) => href.startsWith('/acme/widgets/_astro/'))).toBe(true);
    expect(variant.page('/').selectAll('link[rel=stylesheet]').length).toBe(1);
    // Only a DocSearch site's build bundles DocSearch's script (~0.5 MB, ~0.8 s of a build).
    const docSearchBundles = (site: BuiltSite) => readdirSync(join(site.out, '_astro')).filter((name) => name.startsWith('DocSearch'));
    expect(docSearchBundles(full)).toHaveLength(1);
    expect(docSearchBundles(variant)).toEqual([]);
    expect(docSearchBundles(empty)).toEqual([]);
  });
});

describe('links and the base path', () => {
  it('internal links, relative links and images get the base path', () => {
    const page = full.page('/');
    expect(hrefs(page, '.prose a')).toEqual([`${BASE}/en/quickstart`, `${BASE}/en/components`]);
    expect(page.select('.prose img')?.attr('src')).toBe(`${BASE}/images/diagram.png`);
    expect(full.page('/en/quickstart').select('.prose img')?.attr('src')).toBe(`${BASE}/images/diagram.png`);
  });

  it('image sources, Markdown and JSX, relative and root-relative, point at the copied file under the base path', () => {
    const sources = full.page('/en/quickstart').selectAll('.prose img').map((img) => img.attr('src'));
    expect(sources).toEqual([`${BASE}/images/diagram.png`, `${BASE}/images/hero.png`]);
    expect(full.exists('images/diagram.png') && full.exists('images/hero.png')).toBe(true);
    // Built without a base path, the same sources are root-relative.
    expect(local.page('/en/quickstart').selectAll('.prose img').map((img) => img.attr('src'))).toEqual(['/images/diagram.png', '/images/hero.png']);
  });
});
