/**
 * The documentation-site renderer against ../shared/spec/docs-site-config.md: each fixture is built once (into a
 * temp folder) and the built files are read like a browser or a crawler would. One `describe` per config key,
 * the spec's words in the test names.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { devSite } from '../../sites/builder/dev.ts';
import { BuildError, buildSite, prepareSite } from '../../sites/builder/index.ts';
import { writeSocialImages } from '../../sites/builder/social-images.ts';
import { checkSite } from '../../sites/check/index.ts';
import { HOSTED_BASE, HOSTED_ORIGIN, resolveHosted } from '../../sites/builder/hosted.ts';
import { readSite } from '../../sites/content/read.ts';
import { buildFixture, FIXTURES, parseHtml, type BuiltSite, type El, type Page } from '../helpers/docs.ts';

const BASE = '/acme/widgets';
const ORIGIN = 'https://docs.example.com';
const PUBLISHED = { published: true, defaultBranch: true, customDomain: true, codeHost: { name: 'acme/widgets', url: 'https://github.com/acme/widgets' } };

let full: BuiltSite; // every key, published on the default branch of a custom domain, under a base path
let local: BuiltSite; // the same repository built locally: no base, no origin, nothing injected
let empty: BuiltSite; // `{}`
let branch: BuiltSite; // published on a branch preview of the default path
let variant: BuiltSite; // flat sidebar, site-wide noindex, socialPreview false, DocSearch off...
let overrides: BuiltSite; // frontmatter and per-image overrides of site-wide `false`s, a banner without a link

beforeAll(async () => {
  full = await buildFixture('docs-full', { base: BASE, site: ORIGIN, context: PUBLISHED });
  local = await buildFixture('docs-full');
  empty = await buildFixture('docs-empty');
  branch = await buildFixture('docs-empty', {
    config: {
      theme: { primary: '#7c3aed' },
      scripts: { vendorAnalytics: 'G-ONLY1', vendorSiteVerification: 'branch-token', altAnalytics: 'https://stats.example.com' },
    },
    context: { published: true, defaultBranch: false, customDomain: true },
    site: 'https://acme.example.org',
  });
  variant = await buildFixture('docs-empty', {
    config: {
      name: 'Variant',
      socialPreview: false,
      seo: { noindex: true },
      logo: { light: 'picture.png' },
      favicon: 'picture.png',
      header: { showName: false },
      theme: { preset: 'forest' },
      content: { automaticallyInferNextPrevious: false },
      scripts: { altAnalytics: true, vendorSiteVerification: 'variant-token' },
      sidebar: [
        { group: 'First', pages: [{ title: 'Home', href: '/' }, { title: 'Guide', href: '/guide' }] },
        { group: 'Second', pages: [{ title: 'Open', href: '/open' }] },
      ],
    },
    files: { 'open.mdx': '---\ntitle: Open page\nnoindex: false\n---\n\nIndexable despite the site-wide setting.\n' },
    context: { published: true, defaultBranch: true, customDomain: false },
  });
  overrides = await buildFixture('docs-empty', {
    config: {
      banner: { message: 'Plain notice' },
      content: { showPageImage: false, automaticallyInferNextPrevious: false },
      redirects: { '/cdn': '//cdn.example.com/file', '/docs-old': '/guide/' },
    },
    files: {
      'shown.mdx': '---\ntitle: Shown\nimage: picture.png\nshowPageImage: true\nprevious: /guide\nnext: { title: Home page, href: / }\n---\n\n<img src="picture.png" alt="Zoom me" data-zoom />\n',
    },
  });
}, 120_000);

const css = (page: Page) => page.selectAll('style').map((s) => s.text).join('\n');
const hrefs = (page: Page, selector: string) => page.selectAll(selector).map((a) => a.attr('href'));
const texts = (page: El, selector: string) => page.selectAll(selector).map((e) => e.text.trim());

describe('name', () => {
  it('Site title used in header and browser tab (page title + site name)', () => {
    const page = full.page('/en/quickstart');
    expect(page.select('title')?.text).toBe('Quickstart - Acme Docs');
    expect(page.select('.brand .brand-name')?.text).toBe('Acme Docs');
  });
  it('`Documentation` when omitted', () => {
    expect(empty.page('/').select('title')?.text).toBe('Home - Documentation');
    expect(empty.page('/').select('.brand-name')?.text).toBe('Documentation');
  });
  it('a page without a frontmatter title is named by its sidebar title, else its first heading', () => {
    expect(variant.page('/guide').select('title')?.text).toBe('Guide - Variant');
    expect(empty.page('/guide').select('title')?.text).toBe('A guide - Documentation');
  });
});

describe('description', () => {
  it('Default description for metadata and social previews when a page has no frontmatter description', () => {
    const page = full.page('/fr/configuration');
    expect(page.select('meta[name=description]')?.attr('content')).toBe('Everything about Acme widgets.');
    expect(page.select('meta[property="og:description"]')?.attr('content')).toBe('Everything about Acme widgets.');
    expect(page.select('meta[name="twitter:description"]')?.attr('content')).toBe('Everything about Acme widgets.');
  });
  it('frontmatter `description` wins', () => {
    expect(full.page('/en/quickstart').select('meta[name=description]')?.attr('content')).toBe('Install Acme in five minutes.');
  });
  it('none: no description meta tag', () => {
    expect(empty.page('/guide').select('meta[name=description]')).toBeUndefined();
  });
});

describe('socialPreview', () => {
  it('Static social-preview image URL for the whole site', () => {
    expect(full.page('/fr/configuration').select('meta[property="og:image"]')?.attr('content')).toBe(`${ORIGIN}${BASE}/images/social.png`);
    expect(full.exists('_social')).toBe(false);
  });
  it('Frontmatter `image` overrides it', () => {
    expect(full.page('/en/quickstart').select('meta[property="og:image"]')?.attr('content')).toBe(`${ORIGIN}${BASE}/images/hero.png`);
  });
  it('default: a generated PNG per page (title, site name)', () => {
    const page = empty.page('/guide');
    expect(page.select('meta[property="og:image"]')?.attr('content')).toBe('/_social/guide.png');
    expect(page.select('meta[name="twitter:card"]')?.attr('content')).toBe('summary_large_image');
    const png = readFileSync(join(empty.out, '_social/guide.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(empty.exists('_social/index.png')).toBe(true);
  });
  it('`false` disables the default generated image without setting a URL', () => {
    expect(variant.page('/').select('meta[property="og:image"]')).toBeUndefined();
    expect(variant.page('/').select('meta[name="twitter:card"]')?.attr('content')).toBe('summary');
    expect(variant.exists('_social')).toBe(false);
  });
});

describe('logo', () => {
  it('`logo.light` and `logo.dark`: one image per mode, repository paths served from the site', () => {
    const brand = full.page('/').select('.brand')!;
    expect(brand.select('img.logo-light')?.attr('src')).toBe(`${BASE}/images/logo-light.svg`);
    expect(brand.select('img.logo-dark')?.attr('src')).toBe(`${BASE}/images/logo-dark.svg`);
    expect(full.exists('images/logo-light.svg') && full.exists('images/logo-dark.svg')).toBe(true);
  });
  it('Light logo is reused when `dark` is omitted', () => {
    const images = variant.page('/').selectAll('.brand img');
    expect(images.map((img) => img.attr('src'))).toEqual(['/picture.png']);
    expect(variant.exists('picture.png')).toBe(true);
  });
  it('no logo by default', () => {
    expect(empty.page('/').selectAll('.brand img')).toHaveLength(0);
  });
});

describe('favicon', () => {
  it('An object has `light` and `dark`: one icon per colour scheme', () => {
    const icons = full.page('/').selectAll('link[rel=icon]');
    expect(icons.map((i) => [i.attr('href'), i.attr('media')])).toEqual([
      [`${BASE}/images/favicon-light.png`, '(prefers-color-scheme: light)'],
      [`${BASE}/images/favicon-dark.png`, '(prefers-color-scheme: dark)'],
    ]);
  });
  it('A string applies to both modes', () => {
    const icons = variant.page('/').selectAll('link[rel=icon]');
    expect(icons.map((i) => [i.attr('href'), i.attr('media')])).toEqual([['/picture.png', undefined]]);
  });
  it('none by default', () => {
    expect(empty.page('/').selectAll('link[rel=icon]')).toHaveLength(0);
  });
});

describe('banner', () => {
  it('Announcement text in the site-wide banner strip, linked, with its colours', () => {
    for (const route of ['/', '/en/quickstart', '/fr/demarrage']) {
      const banner = full.page(route).select('.banner')!;
      expect(banner.text).toBe('Acme 2.0 is out');
      expect(banner.select('a')?.attr('href')).toBe(`${BASE}/en/changelog`);
      expect(banner.attr('style')).toBe('background-color:#1e3a8a;color:#ffffff');
    }
  });
  it('a message without `href` is plain text', () => {
    const banner = overrides.page('/').select('.banner')!;
    expect([banner.text, banner.select('a')]).toEqual(['Plain notice', undefined]);
  });
  it('no banner without a message', () => {
    expect(empty.page('/').select('.banner')).toBeUndefined();
  });
});

describe('theme', () => {
  it('`preset` maps to theme CSS variables', () => {
    const style = css(variant.page('/'));
    expect(style).toContain('--docs-bg:#fbfdfb'); // forest, light
    expect(style).toContain('--docs-primary:#15803d');
    expect(style).toContain('--docs-bg:#07130b'); // forest, dark
  });
  it('`primaryLight` and `primaryDark`: accent colour per mode', () => {
    const style = css(full.page('/'));
    expect(style).toMatch(/:root\{[^}]*--docs-primary:#0369a1/);
    expect(style).toMatch(/:root\[data-theme=dark\]\{[^}]*--docs-primary:#38bdf8/);
  });
  it('`primary`: accent colour in both modes when mode-specific colours are omitted', () => {
    const style = css(branch.page('/'));
    expect(style).toMatch(/:root\{[^}]*--docs-primary:#7c3aed/);
    expect(style).toMatch(/:root\[data-theme=dark\]\{[^}]*--docs-primary:#7c3aed/);
  });
  it('`backgroundLight` and `backgroundDark`: page background per mode', () => {
    const style = css(full.page('/'));
    expect(style).toMatch(/:root\{[^}]*--docs-bg:#fcfdff/);
    expect(style).toMatch(/:root\[data-theme=dark\]\{[^}]*--docs-bg:#0a0f1a/);
  });
  it('link colours keep a readable contrast whatever the accent', () => {
    const style = css(branch.page('/'));
    expect(style).toMatch(/--docs-accent:#[0-9a-f]{6}/);
  });
  it('`defaultTheme` is schema-only: readers get the platform default (their colour scheme, or what they chose)', () => {
    const script = (page: Page) => page.selectAll('head script').map((s) => s.text)[0];
    expect(full.page('/').select('html')?.attr('data-theme')).toBeUndefined();
    expect(script(full.page('/'))).toBe(script(empty.page('/')));
    expect(script(full.page('/'))).toContain("matchMedia('(prefers-color-scheme: dark)')");
    expect(script(full.page('/'))).toContain("localStorage.getItem('docs-theme')");
  });
  it('light/dark toggle: always rendered, the choice persists in localStorage', () => {
    for (const site of [full, empty, variant]) {
      const toggle = site.page('/').select('button[data-theme-toggle]')!;
      expect(toggle.attr('aria-pressed')).toBe('false');
      expect(toggle.text.trim()).toBe('Dark theme');
    }
    expect(full.page('/').html).toContain("localStorage.setItem('docs-theme',t)");
  });
});

describe('header', () => {
  it('`showName` (default true): the site name beside the logo', () => {
    expect(full.page('/').select('.brand-name')?.text).toBe('Acme Docs');
    expect(full.page('/').select('.brand img')?.attr('alt')).toBe('');
  });
  it('`showName: false`: no name, the logo carries it', () => {
    expect(variant.page('/').select('.brand-name')).toBeUndefined();
    expect(variant.page('/').select('.brand img')?.attr('alt')).toBe('Variant');
  });
  it('`links`: custom header buttons; `cta` styles one as the primary call-to-action', () => {
    const links = full.page('/en/quickstart').selectAll('.header-nav a.header-link:not(.code-host)');
    expect(links.map((a) => [a.text, a.attr('href'), a.has('data-cta')])).toEqual([
      ['Blog', 'https://blog.example.com', false],
      ['Get started', `${BASE}/en/quickstart`, true],
    ]);
    expect(links[1]!.attr('class')).toContain('cta');
  });
  it('`links[].locale` is schema-only: all configured links render on every locale', () => {
    for (const route of ['/', '/en/quickstart', '/fr/demarrage']) expect(texts(full.page(route), '.header-nav a')).toContain('Get started');
  });
  it('`showThemeToggle: false` is schema-only: the theme toggle always renders', () => {
    expect(full.page('/').select('[data-theme-toggle]')).toBeDefined();
  });
  it('`showCodeHostCard: false` is schema-only: the code-host link always renders', () => {
    const link = full.page('/').select('a[data-code-host]')!;
    expect([link.text.trim(), link.attr('href')]).toEqual(['acme/widgets', 'https://github.com/acme/widgets']);
  });
  it('the code-host link comes from `social.codeHost` when the build knows no repository', () => {
    const link = local.page('/').select('a[data-code-host]')!;
    expect([link.text.trim(), link.attr('href')]).toEqual(['acme', 'https://github.com/acme']);
  });
});

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
  it('`icon`: icon-library slug on groups and pages', () => {
    const page = full.page('/en/quickstart');
    expect(page.select('li.sidebar-group[data-icon=rocket] > .sidebar-group-label svg')).toBeDefined();
    expect(page.select('li.sidebar-item[data-icon=bolt] svg')).toBeDefined();
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

describe('seo', () => {
  it('default: pages are indexable; frontmatter `noindex` overrides per page', () => {
    expect(full.page('/en/quickstart').select('meta[name=robots]')).toBeUndefined();
    expect(full.page('/legal').select('meta[name=robots]')?.attr('content')).toBe('noindex');
  });
  it('`noindex: true` adds noindex to every page; frontmatter `noindex: false` overrides', () => {
    expect(variant.page('/').select('meta[name=robots]')?.attr('content')).toBe('noindex');
    expect(variant.page('/guide').select('meta[name=robots]')?.attr('content')).toBe('noindex');
    expect(variant.page('/open').select('meta[name=robots]')).toBeUndefined();
    // robots.txt keeps crawlers out, except from the page that overrides it (else they could never read its meta tag).
    expect(variant.file('robots.txt')).toBe('User-agent: *\nDisallow: /\nAllow: /open$\nAllow: /open/$\n');
  });
  it('canonical and og:url when the origin is known, none in a local build', () => {
    expect(full.page('/en/quickstart').select('link[rel=canonical]')?.attr('href')).toBe(`${ORIGIN}${BASE}/en/quickstart`);
    expect(full.page('/').select('meta[property="og:url"]')?.attr('content')).toBe(`${ORIGIN}${BASE}/`);
    expect(local.page('/en/quickstart').select('link[rel=canonical]')).toBeUndefined();
  });
  it('Open Graph and Twitter metadata', () => {
    const page = full.page('/en/quickstart');
    expect(page.select('meta[property="og:title"]')?.attr('content')).toBe('Quickstart');
    expect(page.select('meta[property="og:site_name"]')?.attr('content')).toBe('Acme Docs');
    expect(page.select('meta[name="twitter:title"]')?.attr('content')).toBe('Quickstart');
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
    expect(input.attr('data-pagefind')).toBe('/pagefind/pagefind.js');
    expect(empty.page('/').select('label[for=docs-search-input]')?.text).toBe('Search the documentation');
    expect(empty.exists('pagefind/pagefind.js')).toBe(true);
    expect(branch.page('/').select('#docs-search-input')?.attr('data-base')).toBe('/');
  });
  const indexed = (site: BuiltSite) => {
    const entry = JSON.parse(site.file('pagefind/pagefind-entry.json'));
    return Object.values(entry.languages as Record<string, { page_count: number }>).reduce((n, language) => n + language.page_count, 0);
  };
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
  });
});

describe('scripts', () => {
  const analytics = (page: Page) => page.selectAll('script[data-analytics]').map((s) => s.attr('data-analytics'));
  it('`vendorTagManager`: when set, direct analytics injection is skipped even if `vendorAnalytics` is set', () => {
    const page = full.page('/en/quickstart');
    expect(analytics(page)).toEqual(['tag-manager', 'alt']);
    expect(page.select('script[data-analytics=tag-manager]')?.text).toContain('"GTM-ABC123"');
    expect(page.html).not.toContain('G-XYZ987');
  });
  it('`vendorAnalytics`: used only when `vendorTagManager` is unset', () => {
    const page = branch.page('/');
    expect(page.select('script[data-analytics=analytics]')?.attr('src')).toBe('https://www.googletagmanager.com/gtag/js?id=G-ONLY1');
    expect(page.html).toContain("gtag('config',\"G-ONLY1\")");
  });
  it('`vendorSiteVerification`: a `google-site-verification` meta tag, only on the default branch', () => {
    expect(full.page('/').select('meta[name=google-site-verification]')?.attr('content')).toBe('verification-token-123');
    expect(variant.page('/').select('meta[name=google-site-verification]')?.attr('content')).toBe('variant-token');
    expect(branch.page('/').select('meta[name=google-site-verification]')).toBeUndefined();
  });
  it('`altAnalytics`: `true` enables the hosted script, a URL a self-hosted instance; custom domains only', () => {
    expect(full.page('/').select('script[data-analytics=alt]')?.attr('src')).toBe('https://plausible.io/js/script.js');
    expect(full.page('/').select('script[data-analytics=alt]')?.attr('data-domain')).toBe('docs.example.com');
    expect(branch.page('/').select('script[data-analytics=alt]')?.attr('src')).toBe('https://stats.example.com/js/script.js');
    expect(variant.page('/').select('script[data-analytics=alt]')).toBeUndefined(); // default {owner}/{repo} path
  });
  it('Injection applies to published pages only, not local preview', () => {
    const page = local.page('/en/quickstart');
    expect(analytics(page)).toEqual([]);
    expect(page.select('meta[name=google-site-verification]')).toBeUndefined();
    expect(page.html).not.toContain('googletagmanager');
  });
});

describe('social', () => {
  it('Footer social-profile URLs: every key, labelled', () => {
    const links = full.page('/').selectAll('footer nav[aria-label="Social links"] a');
    expect(links.map((a) => [a.attr('data-social'), a.text.trim(), a.attr('href')])).toEqual([
      ['website', 'Website', 'https://acme.example.com'],
      ['microblog', 'Microblog', 'https://microblog.example.com/acme'],
      ['video', 'Video channel', 'https://video.example.com/acme'],
      ['socialNetwork', 'Social network', 'https://social.example.com/acme'],
      ['photoSharing', 'Photos', 'https://photos.example.com/acme'],
      ['professionalNetwork', 'Professional network', 'https://pro.example.com/company/acme'],
      ['codeHost', 'Code', 'https://github.com/acme'],
      ['workspaceChat', 'Workspace chat', 'https://workspace.example.com/acme'],
      ['communityChat', 'Community chat', 'https://chat.example.com/invite/acme'],
    ]);
  });
  it('no social links by default', () => {
    expect(empty.page('/').select('footer nav')).toBeUndefined();
  });
});

describe('og', () => {
  it('`og.logo` and `og.codeHost` shape the generated social preview images', async () => {
    const prepared = await prepareSite({ source: join(FIXTURES, 'docs-empty'), context: { codeHost: { name: 'acme/widgets' } } });
    const data = prepared.state.data;
    const image = async (og: { logo?: string; codeHost: boolean }) => {
      const out = join(empty.out, '..', `og-${og.logo ? 'logo' : 'none'}-${og.codeHost}`);
      const result = await writeSocialImages({
        site: { ...data, config: { ...data.config, og } },
        sourceDir: prepared.state.sourceDir,
        out,
        cacheDir: join(out, 'cache'),
      });
      expect(result.written).toBe(data.pages.length);
      return readFileSync(join(out, '_social/index.png'));
    };
    const plain = await image({ codeHost: false });
    const withHost = await image({ codeHost: true });
    const withLogo = await image({ logo: 'picture.png', codeHost: false });
    expect(withHost.equals(plain)).toBe(false);
    expect(withLogo.equals(plain)).toBe(false);
  });
  it('many images render on worker threads, each page its own title', async () => {
    const prepared = await prepareSite({ source: join(FIXTURES, 'docs-empty') });
    const data = prepared.state.data;
    const template = data.pages[0]!;
    const pages = Array.from({ length: 14 }, (_, i) => ({ ...template, route: `/p${i}`, title: `Page ${i} ${Date.now()}` }));
    const out = join(empty.out, '..', 'og-many');
    const events: number[] = [];
    const result = await writeSocialImages({ site: { ...data, pages }, sourceDir: prepared.state.sourceDir, out, cacheDir: join(out, 'cache'), onProgress: (done) => events.push(done) });
    expect(result.written).toBe(14);
    expect(events.at(-1)).toBe(14);
    const images = pages.map((page) => readFileSync(join(out, `_social${page.route}.png`)));
    expect(new Set(images.map((png) => png.toString('base64'))).size).toBe(14);
    expect(images.every((png) => png.subarray(1, 4).toString() === 'PNG')).toBe(true);
  }, 60_000);
  it('a remote `og.logo` is never fetched while building: the image is drawn without it, and the check warns', async () => {
    const prepared = await prepareSite({ source: join(FIXTURES, 'docs-empty') });
    const data = prepared.state.data;
    const draw = async (og: { logo?: string; codeHost: boolean }, name: string) => {
      const out = join(empty.out, '..', name);
      await writeSocialImages({ site: { ...data, config: { ...data.config, og } }, sourceDir: prepared.state.sourceDir, out, cacheDir: join(out, 'cache') });
      return readFileSync(join(out, '_social/index.png'));
    };
    const remote = await draw({ logo: 'https://cdn.example.com/logo.png', codeHost: true }, 'og-remote');
    expect(remote.equals(await draw({ codeHost: true }, 'og-remote-none'))).toBe(true);
    const config = { ...data.config, og: { logo: 'https://cdn.example.com/logo.png', codeHost: true } };
    const problems = checkSite(prepared.state.sourceDir, { config, pages: prepared.pages });
    expect(problems.map((p) => [p.path, p.message])).toEqual([['og.logo', expect.stringMatching(/^`og.logo` is a URL/)]]);
  });
});

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

  it('the default path of the default branch: base path and origin in every URL, the verification meta, no alt analytics', () => {
    const page = served('/guide', { base: '/acme/widgets', origin: 'https://docs.example.com', defaultBranch: true, customDomain: false });
    expect(page.select('link[rel=canonical]')?.attr('href')).toBe('https://docs.example.com/acme/widgets/guide');
    expect(hrefs(page, '.sidebar a, nav a').every((h) => !h?.startsWith('/') || h.startsWith('/acme/widgets/'))).toBe(true);
    expect(page.select('meta[name=google-site-verification]')?.attr('content')).toBe('hosted-token');
    expect(page.select('script[data-analytics=alt]')).toBeUndefined();
    expect(page.select('script[data-analytics=tag-manager]')).toBeDefined();
    expect(page.html).not.toMatch(/__DOCS_BASE__|docs-origin\.invalid|docs:if|docs:end/);
  });
  it('a branch preview: no verification meta', () => {
    const page = served('/guide', { base: '/acme/widgets~beta', origin: 'https://docs.example.com', defaultBranch: false, customDomain: false });
    expect(page.select('meta[name=google-site-verification]')).toBeUndefined();
    expect(page.select('link[rel=canonical]')?.attr('href')).toBe('https://docs.example.com/acme/widgets~beta/guide');
  });
  it('a custom domain at its root: root paths, alt analytics for that domain', () => {
    const page = served('/guide', { base: '', origin: 'https://docs.acme.com', defaultBranch: true, customDomain: true });
    expect(page.select('link[rel=canonical]')?.attr('href')).toBe('https://docs.acme.com/guide');
    expect(page.select('script[data-analytics=alt]')?.attr('data-domain')).toBe('docs.acme.com');
    expect([page.select('#docs-search-input')?.attr('data-base'), page.select('#docs-search-input')?.attr('data-pagefind')]).toEqual(['/', '/pagefind/pagefind.js']);
    expect(resolveHosted(hosted.file('sitemap.xml'), { base: '', origin: 'https://docs.acme.com', defaultBranch: true, customDomain: true })).toContain('<loc>https://docs.acme.com/guide</loc>');
  });
});

describe('agent and mcp', () => {
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

describe('links and the base path', () => {
  it('internal links, relative links and images get the base path', () => {
    const page = full.page('/');
    expect(hrefs(page, '.prose a')).toEqual([`${BASE}/en/quickstart`, `${BASE}/en/components`]);
    expect(page.select('.prose img')?.attr('src')).toBe(`${BASE}/images/diagram.png`);
    expect(full.page('/en/quickstart').select('.prose img')?.attr('src')).toBe(`${BASE}/images/diagram.png`);
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
      buildSite({ source: join(FIXTURES, 'docs-empty'), out: join(root, 'parallel-a'), base: '/a' }),
      buildSite({ source: join(FIXTURES, 'docs-full'), out: join(root, 'parallel-b'), base: '/b' }),
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
    await buildSite({ source: join(FIXTURES, 'docs-empty'), out: join(empty.out, '..', 'progress'), onProgress: ({ phase, done }) => events.push({ phase, done }) });
    expect([...new Set(events.map((e) => e.phase))]).toEqual(['read', 'compile', 'render', 'search', 'outputs', 'social-images', 'done']);
    const counts = (phase: string) => events.filter((e) => e.phase === phase).map((e) => e.done);
    expect(counts('compile')).toEqual([0, 1, 2]);
    expect(counts('render')).toEqual([1, 2]);
  }, 60_000);
});

describe('devSite', () => {
  it('serves a docs folder and picks up edits of pages and docs.json', async () => {
    const source = join(empty.out, '..', 'dev-source');
    cpSync(join(FIXTURES, 'docs-empty'), source, { recursive: true });
    // Astro leaves its request handler out of dev servers started under Vitest (process.env.VITEST).
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    const server = await devSite({ source, port: 0 }).finally(() => {
      process.env.VITEST = vitest;
    });
    try {
      const title = async (path: string) => /<title>(.*?)<\/title>/.exec(await (await fetch(server.url + path)).text())?.[1];
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
