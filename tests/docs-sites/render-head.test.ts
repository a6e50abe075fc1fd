/**
 * How a built page presents the site: its name, description, social preview image, logo, favicon, banner,
 * theme, header, SEO tags, analytics scripts, social links and generated Open Graph images.
 * Each site is built once (into a temp folder, tests/docs-sites/render-sites.ts) and the built files are read as a
 * browser or a crawler would; docs/docs-site-config.md is the contract.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareSite } from '../../sites/builder/index.ts';
import { socialCards, writeSocialImages } from '../../sites/builder/social-images.ts';
import { checkSite } from '../../sites/check/index.ts';
import { FIXTURES, type BuiltSite, type Page } from '../helpers/docs.ts';
import { BASE, ORIGIN, css, texts, loadSites } from './render-sites.ts';

let full: BuiltSite, local: BuiltSite, empty: BuiltSite, branch: BuiltSite, variant: BuiltSite, overrides: BuiltSite, analytics: BuiltSite;

beforeAll(async () => {
  ({ full, local, empty, branch, variant, overrides, analytics } = await loadSites('full', 'local', 'empty', 'branch', 'variant', 'overrides', 'analytics'));
}, 120_000);

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

describe('scripts', () => {
  const scripts = (page: Page) => page.selectAll('script[data-analytics]').map((s) => s.attr('data-analytics'));
  it('`vendorTagManager`: when set, direct analytics injection is skipped even if `vendorAnalytics` is set', () => {
    const page = full.page('/en/quickstart');
    expect(scripts(page)).toEqual(['tag-manager', 'alt']);
    expect(page.select('script[data-analytics=tag-manager]')?.text).toContain('"GTM-ABC123"');
    expect(page.html).not.toContain('G-XYZ987');
  });
  it('`vendorAnalytics`: used only when `vendorTagManager` is unset', () => {
    const page = analytics.page('/');
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
    expect(analytics.page('/').select('script[data-analytics=alt]')?.attr('src')).toBe('https://stats.example.com/js/script.js');
    expect(variant.page('/').select('script[data-analytics=alt]')).toBeUndefined(); // default {owner}/{repo} path
  });
  it('third-party script runs only on a domain of its own, from the default branch: none on the shared default path or a preview', () => {
    // variant: the default branch on the service's {owner}/{repo} path; branch: a preview on a domain of its own.
    for (const page of [variant.page('/'), branch.page('/')]) {
      expect(scripts(page)).toEqual([]);
      expect(page.html).not.toMatch(/googletagmanager|stats\.example|plausible\.io/);
    }
  });
  it('Injection applies to published pages only, not local preview', () => {
    const page = local.page('/en/quickstart');
    expect(scripts(page)).toEqual([]);
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
        cards: await socialCards({ ...data, config: { ...data.config, og } }, prepared.state.sourceDir),
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
    const cards = await socialCards({ ...data, pages }, prepared.state.sourceDir);
    const result = await writeSocialImages({ cards, out, cacheDir: join(out, 'cache'), onProgress: (done) => events.push(done) });
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
      await writeSocialImages({ cards: await socialCards({ ...data, config: { ...data.config, og } }, prepared.state.sourceDir), out, cacheDir: join(out, 'cache') });
      return readFileSync(join(out, '_social/index.png'));
    };
    const remote = await draw({ logo: 'https://cdn.example.com/logo.png', codeHost: true }, 'og-remote');
    expect(remote.equals(await draw({ codeHost: true }, 'og-remote-none'))).toBe(true);
    const config = { ...data.config, og: { logo: 'https://cdn.example.com/logo.png', codeHost: true } };
    const problems = checkSite(prepared.state.sourceDir, { config, pages: prepared.pages });
    expect(problems.map((p) => [p.path, p.message])).toEqual([['og.logo', expect.stringMatching(/^`og.logo` is a URL/)]]);
  });
});
