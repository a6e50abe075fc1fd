/**
 * Built documentation sites in a real browser (Debian chromium through playwright-core), doing what readers do:
 * sidebar and tab navigation, locales, dark mode, zoomed images, previous/next, Pagefind search, copy buttons,
 * the built-in components, axe-core in light and dark mode, and no request leaving the site's own origin.
 *
 * The fixtures are built once (tests/helpers/docs.ts) and served over HTTP on 127.0.0.1 by a small static server
 * (tests/helpers/static-server.ts): docs-full under the base path `/acme/widgets`, as a published build of the
 * repository's default branch (so the configured tag manager is injected), with DocSearch left out so the
 * built-in Pagefind search box renders; docs-empty (`{}`) at the root. One browser per file; tests share one
 * page per colour scheme unless they need a fresh context (stored theme, viewport). After every test: no
 * uncaught exception or dialog in the page, no same-origin request failing, no request to another origin except
 * ALLOWED_EXTERNAL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM as SKIPPED, seriousViolations } from '../helpers/browser.ts';
import { buildFixture, type BuiltSite } from '../helpers/docs.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

// Browser globals inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any;
declare const localStorage: any;
declare const navigator: any;
declare const getComputedStyle: (element: unknown) => any;

if (!HAS_CHROMIUM) console.warn(`tests/docs-sites/browser.test.ts: ${SKIPPED}`);

const BASE = '/acme/widgets';

/**
 * The only URLs outside the test server a page of the fixtures may request: none. docs-full configures a tag manager
 * (GTM-ABC123) and `altAnalytics`, but the published default branch is served here at the default
 * `/{owner}/{repo}` path, where no third party's script runs (only on a domain of its own: src/lib/analytics.ts).
 * Logos, favicons and images of the fixture are all local files.
 */
const ALLOWED_EXTERNAL: string[] = [];

/** Colours of docs-full's `theme` (backgroundLight / backgroundDark) as the browser computes them. */
const BACKGROUND = { light: 'rgb(252, 253, 255)', dark: 'rgb(10, 15, 26)' };

let browser: Browser;
let full: BuiltSite;
let empty: BuiltSite;
let fullServer: StaticServer;
let emptyServer: StaticServer;

/** Every request a page made outside the test servers, over the whole file. */
const external: string[] = [];

interface Session {
  context: BrowserContext;
  page: Page;
  /** Requests outside the test servers that are not in ALLOWED_EXTERNAL (aborted). */
  unexpected: string[];
  /** Same-origin requests answered >= 400 or failed. */
  broken: string[];
  /** Uncaught exceptions in the page, and any alert/confirm/prompt it opened. */
  errors: string[];
}
/** Sessions opened by the current test (closed after it) and the shared ones (one per colour scheme, kept). */
let opened: Session[] = [];
const shared = new Map<'light' | 'dark', Session>();

async function open(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Session> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? 'light', viewport: { width: 1280, height: 900 } });
  const origins = new Set([fullServer.origin, emptyServer.origin]);
  const session: Session = { context, page: undefined as unknown as Page, unexpected: [], broken: [], errors: [] };
  await context.route(
    (url) => !origins.has(url.origin),
    (route) => {
      const url = route.request().url();
      external.push(url);
      if (ALLOWED_EXTERNAL.includes(url)) return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
      session.unexpected.push(url);
      return route.abort('blockedbyclient');
    },
  );
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fullServer.origin });
  context.on('response', (response) => {
    if (origins.has(new URL(response.url()).origin) && response.status() >= 400) session.broken.push(`${response.status()} ${response.url()}`);
  });
  context.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    // A navigation cancels what the previous page was still loading; that is not a broken link.
    if (origins.has(new URL(request.url()).origin) && failure !== 'net::ERR_ABORTED') session.broken.push(`${failure} ${request.url()}`);
  });
  context.on('weberror', (error) => session.errors.push(String(error.error())));
  context.on('dialog', (dialog) => {
    session.errors.push(`${dialog.type()}(${JSON.stringify(dialog.message())})`);
    void dialog.dismiss();
  });
  session.page = await context.newPage();
  return session;
}

/**
 * A browser page for one test. By default the page shared by the whole file for that colour scheme (opening a
 * tab costs more than a navigation); `fresh` gives a new context (empty localStorage) closed after the test.
 */
async function session(options: { colorScheme?: 'light' | 'dark'; fresh?: boolean } = {}): Promise<Session> {
  const scheme = options.colorScheme ?? 'light';
  if (options.fresh) {
    const created = await open({ colorScheme: scheme });
    opened.push(created);
    return created;
  }
  let reused = shared.get(scheme);
  if (!reused) {
    reused = await open({ colorScheme: scheme });
    shared.set(scheme, reused);
  }
  return reused;
}

/** Opens a page of docs-full (`/en/quickstart`). */
async function visit(route: string, options: Parameters<typeof session>[0] = {}): Promise<Page> {
  const { page } = await session(options);
  await page.goto(fullServer.url(route));
  return page;
}

/** A URL's path inside the site, without base or trailing slash (`/en/quickstart`, `/`). */
function routeOf(url: URL): string {
  const inside = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) : url.pathname;
  return inside.replace(/\/+$/, '') || '/';
}

/** Waits until the page shows `expected` (`/en/components`), however the link spelled it (trailing slash). */
async function waitForRoute(page: Page, expected: string): Promise<void> {
  await page.waitForURL((url) => routeOf(url) === expected);
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar', exact: true });
const sectionTabs = (page: Page) => page.getByRole('navigation', { name: 'Sections', exact: true });
const shortcuts = (page: Page) => page.getByRole('navigation', { name: 'Shortcuts', exact: true });
const pageNav = (page: Page) => page.getByRole('navigation', { name: 'Previous and next pages' });
const texts = async (locator: ReturnType<Page['locator']>) => (await locator.allTextContents()).map((text) => text.trim());

/** Group labels and link texts of the sidebar, in order. */
async function sidebarContent(page: Page): Promise<{ groups: string[]; links: string[]; current: string[] }> {
  const nav = sidebar(page);
  return {
    groups: await texts(nav.locator('.sidebar-group-label')),
    links: await texts(nav.locator('.sidebar-item > a')),
    current: await texts(nav.locator('a[aria-current="page"]')),
  };
}

async function theme(page: Page): Promise<{ mode: string; background: string; pressed: string | null }> {
  return {
    mode: await page.evaluate(() => document.documentElement.dataset.theme),
    background: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
    pressed: await page.locator('[data-theme-toggle]').getAttribute('aria-pressed'),
  };
}

const activeElement = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? { tag: el.tagName.toLowerCase(), label: el.getAttribute('aria-label') ?? '', text: (el.textContent ?? '').trim(), alt: el.getAttribute('alt') } : undefined;
  });

/** Built HTML pages of a site as routes, without the redirect stubs (meta refresh). */
function htmlRoutes(site: BuiltSite): string[] {
  const routes: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'pagefind' && entry.name !== '_astro') walk(path);
      else if (entry.name === 'index.html' && !/http-equiv="refresh"/i.test(readFileSync(path, 'utf8'))) {
        const folder = relative(site.out, dir).split(sep).join('/');
        routes.push(folder ? `/${folder}` : '/');
      }
    }
  };
  walk(site.out);
  return routes.sort();
}

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'documentation sites in a browser' : `documentation sites in a browser (${SKIPPED})`, () => {
  beforeAll(async () => {
    full = await buildFixture('docs-full', {
      base: BASE,
      context: { published: true, defaultBranch: true, customDomain: false },
      config: { search: {} },
      // The search index in parts, as a large site's is: the box merges them (every search test crosses parts).
      searchParts: 3,
    });
    empty = await buildFixture('docs-empty');
    [fullServer, emptyServer] = await Promise.all([serveStatic(full.out, { base: BASE }), serveStatic(empty.out)]);
    browser = await launchChromium();
  }, 180_000);

  afterEach(async () => {
    const done = opened;
    opened = [];
    await Promise.all(done.map((s) => s.context.close()));
    const all = [...done, ...shared.values()];
    const take = (pick: (s: Session) => string[]) => all.flatMap((s) => pick(s).splice(0));
    const errors = take((s) => s.errors);
    const broken = take((s) => s.broken);
    const unexpected = take((s) => s.unexpected);
    expect(errors, 'uncaught exceptions in the page').toEqual([]);
    expect(broken, 'same-origin requests that failed').toEqual([]);
    expect(unexpected, `requests to other origins (allowed: ${ALLOWED_EXTERNAL.join(', ')})`).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([fullServer?.close(), emptyServer?.close()]);
  });

  describe('sidebar', () => {
    it('clicking a sidebar link opens that page, and the current item is marked aria-current="page"', async () => {
      const page = await visit('/en/quickstart');
      expect((await sidebarContent(page)).current).toEqual(['Quickstart']);

      await sidebar(page).getByRole('link', { name: 'Components', exact: true }).click();
      await waitForRoute(page, '/en/components');
      await expect(page.title()).resolves.toBe('Components - Acme Docs');
      await page.getByRole('heading', { name: 'Callouts' }).waitFor();
      expect((await sidebarContent(page)).current).toEqual(['Components']);
      await expect(sidebar(page).getByRole('link', { name: 'Quickstart', exact: true }).getAttribute('aria-current')).resolves.toBeNull();
    });

    it('nested groups: a group inside a group lists its own pages, which navigate like any other; a group with href is a link', async () => {
      const page = await visit('/en/quickstart');
      const advanced = sidebar(page).locator('.sidebar-group', { has: page.locator(':scope > .sidebar-group-label', { hasText: 'Advanced' }) });
      // "Advanced" sits inside "Getting started" and holds Variables and Unsafe page.
      await expect(advanced.locator('xpath=ancestor::li[contains(@class,"sidebar-group")]').locator(':scope > .sidebar-group-label').textContent()).resolves.toContain('Getting started');
      expect(await texts(advanced.locator('.sidebar-item > a'))).toEqual(['Variables', 'Unsafe page']);

      await advanced.getByRole('link', { name: 'Variables' }).click();
      await waitForRoute(page, '/en/variables');
      await page.getByText('The product is Widget, version 2.0, made by Acme in Paris.').waitFor();
      expect((await sidebarContent(page)).current).toEqual(['Variables']);

      // The group label "Getting started" links to its href and is the current item there.
      await sidebar(page).getByRole('link', { name: 'Getting started' }).click();
      await waitForRoute(page, '/en/introduction');
      await page.getByText('Acme is a widget platform.').waitFor();
      expect((await sidebarContent(page)).current).toEqual(['Getting started']);
    });
  });

  describe('sidebar on a narrow screen', () => {
    it('the menu button shows and hides the sidebar (Escape closes it and returns focus)', async () => {
      const { page } = await session({ fresh: true });
      await page.setViewportSize({ width: 600, height: 900 });
      await page.goto(fullServer.url('/en/quickstart'));
      const menu = page.getByRole('button', { name: 'Menu' });
      const nav = sidebar(page);
      await expect(nav.isVisible()).resolves.toBe(false);
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');

      await menu.click();
      await nav.waitFor({ state: 'visible' });
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
      await page.keyboard.press('Escape');
      await nav.waitFor({ state: 'hidden' });
      await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
      expect(await activeElement(page)).toMatchObject({ tag: 'button', text: 'Menu' });

      await menu.click();
      await nav.getByRole('link', { name: 'Changelog' }).click();
      await waitForRoute(page, '/en/changelog');
      await expect(sidebar(page).isVisible()).resolves.toBe(false);
    });
  });

  describe('tabs', () => {
    it('selecting a tab opens its href and the sidebar switches to that tab\'s groups (groups without a tab stay)', async () => {
      const page = await visit('/en/quickstart');
      expect(await texts(sectionTabs(page).getByRole('link'))).toEqual(['Guides', 'API']);
      expect(await texts(sectionTabs(page).locator('a[aria-current="true"]'))).toEqual(['Guides']);
      expect((await sidebarContent(page)).groups).toEqual(['Getting started', 'Advanced', 'Resources']);
      expect(await texts(shortcuts(page).getByRole('link'))).toEqual(['Blog']);

      await sectionTabs(page).getByRole('link', { name: 'API', exact: true }).click();
      await waitForRoute(page, '/en/api/overview');
      expect(await texts(sectionTabs(page).locator('a[aria-current="true"]'))).toEqual(['API']);
      const api = await sidebarContent(page);
      expect(api.groups).toEqual(['API reference', 'Resources']);
      expect(api.links).toEqual(['Overview', 'Endpoints', 'Changelog', 'Status']);
      expect(api.current).toEqual(['Overview']);
      // The anchor scoped to the api tab shows only with it.
      expect(await texts(shortcuts(page).getByRole('link'))).toEqual(['Blog', 'API status']);

      await sectionTabs(page).getByRole('link', { name: 'Guides', exact: true }).click();
      await waitForRoute(page, '/en/quickstart');
      expect((await sidebarContent(page)).groups).toEqual(['Getting started', 'Advanced', 'Resources']);
    });
  });

  describe('locales', () => {
    it('fr pages show the fr sidebar, the fr tab and the fr anchor; en pages do not', async () => {
      const page = await visit('/fr/demarrage');
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
      expect(await sidebarContent(page)).toEqual({ groups: ['Démarrage'], links: ['Démarrage rapide', 'Configuration'], current: ['Démarrage rapide'] });
      expect(await texts(sectionTabs(page).getByRole('link'))).toEqual(['Guides', 'API', 'Guides FR']);
      expect(await texts(sectionTabs(page).locator('a[aria-current="true"]'))).toEqual(['Guides FR']);
      expect(await texts(shortcuts(page).getByRole('link'))).toEqual(['Blog', 'Communauté']);

      await sidebar(page).getByRole('link', { name: 'Configuration' }).click();
      await waitForRoute(page, '/fr/configuration');
      await page.getByText('Configurez Acme.').waitFor();
      expect((await sidebarContent(page)).current).toEqual(['Configuration']);
      expect((await sidebarContent(page)).groups).toEqual(['Démarrage']);

      // Back in English: no fr tab, no fr anchor, the en sidebar.
      await sectionTabs(page).getByRole('link', { name: 'Guides', exact: true }).click();
      await waitForRoute(page, '/en/quickstart');
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
      expect(await texts(sectionTabs(page).getByRole('link'))).toEqual(['Guides', 'API']);
      expect(await texts(shortcuts(page).getByRole('link'))).toEqual(['Blog']);
      expect((await sidebarContent(page)).groups).not.toContain('Démarrage');
    });

    it('paths outside every locale get the `default` sidebar', async () => {
      const page = await visit('/legal');
      expect(await sidebarContent(page)).toEqual({ groups: ['Home'], links: ['Welcome', 'Legal'], current: ['Legal'] });
      expect(await texts(sectionTabs(page).getByRole('link'))).toEqual(['Guides', 'API']);
      expect(await texts(shortcuts(page).getByRole('link'))).toEqual(['Blog']);

      await sidebar(page).getByRole('link', { name: 'Welcome' }).click();
      await waitForRoute(page, '/');
      await page.getByText('Because widgets matter.').waitFor();
      expect((await sidebarContent(page)).current).toEqual(['Welcome']);
    });
  });

  describe('theme (dark mode)', () => {
    it('the toggle flips data-theme and the colours, and the choice persists across reloads and pages', async () => {
      // theme.defaultTheme is "dark" in the fixture but schema-only: the reader's system mode (light) starts.
      const page = await visit('/en/quickstart', { colorScheme: 'light', fresh: true });
      expect(await theme(page)).toEqual({ mode: 'light', background: BACKGROUND.light, pressed: 'false' });
      await expect(page.locator('img.logo-light').isVisible()).resolves.toBe(true);
      await expect(page.locator('img.logo-dark').isVisible()).resolves.toBe(false);

      await page.getByRole('button', { name: 'Dark theme' }).click();
      expect(await theme(page)).toEqual({ mode: 'dark', background: BACKGROUND.dark, pressed: 'true' });
      await expect(page.locator('img.logo-dark').isVisible()).resolves.toBe(true);
      await expect(page.locator('img.logo-light').isVisible()).resolves.toBe(false);
      const text = await page.evaluate(() => getComputedStyle(document.body).color);

      await page.reload();
      expect(await theme(page)).toEqual({ mode: 'dark', background: BACKGROUND.dark, pressed: 'true' });
      expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe(text);

      await sidebar(page).getByRole('link', { name: 'Components', exact: true }).click();
      await waitForRoute(page, '/en/components');
      expect(await theme(page)).toEqual({ mode: 'dark', background: BACKGROUND.dark, pressed: 'true' });

      await page.getByRole('button', { name: 'Dark theme' }).click();
      expect(await theme(page)).toEqual({ mode: 'light', background: BACKGROUND.light, pressed: 'false' });
      await page.reload();
      expect((await theme(page)).mode).toBe('light');
    });

    it('without a stored choice the starting mode follows the system; a stored choice wins over it', async () => {
      const page = await visit('/', { colorScheme: 'dark', fresh: true });
      expect(await theme(page)).toEqual({ mode: 'dark', background: BACKGROUND.dark, pressed: 'true' });
      await page.getByRole('button', { name: 'Dark theme' }).click();
      await page.reload();
      expect(await theme(page)).toEqual({ mode: 'light', background: BACKGROUND.light, pressed: 'false' });
      await expect(page.evaluate(() => localStorage.getItem('docs-theme'))).resolves.toBe('light');
    });
  });

  describe('content.zoomImages', () => {
    it('clicking an image opens it enlarged; Escape closes it and focus returns to the image', async () => {
      const page = await visit('/en/quickstart');
      const dialog = page.getByRole('dialog', { name: 'Enlarged image' });
      const image = page.getByRole('button', { name: 'Enlarge image: Architecture diagram' });
      await expect(dialog.isVisible()).resolves.toBe(false);

      await image.click();
      await dialog.waitFor({ state: 'visible' });
      await expect(dialog.locator('img').evaluate((img) => img.src)).resolves.toBe(fullServer.url('/images/diagram.png'));
      await expect(dialog.locator('img').getAttribute('alt')).resolves.toBe('Architecture diagram');
      expect(await activeElement(page)).toMatchObject({ tag: 'button', label: 'Close' });

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await activeElement(page)).toMatchObject({ tag: 'img', alt: 'Architecture diagram' });

      // From the keyboard: Enter on the focused image opens it, the close button closes it.
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await activeElement(page)).toMatchObject({ tag: 'img', alt: 'Architecture diagram' });

      // data-zoom="false" opts an image out.
      const optedOut = page.getByRole('img', { name: 'Hero, not zoomable' });
      await expect(optedOut.getAttribute('role')).resolves.toBeNull();
      await optedOut.click();
      await expect(dialog.isVisible()).resolves.toBe(false);
    });
  });

  describe('previous / next', () => {
    it('inferred from the sidebar order: next and previous links lead through the pages', async () => {
      const page = await visit('/en/quickstart');
      expect(await texts(pageNav(page).locator('.page-nav-title'))).toEqual(['Getting started', 'Components']);

      await pageNav(page).getByRole('link', { name: /Next/ }).click();
      await waitForRoute(page, '/en/components');
      expect(await texts(pageNav(page).locator('.page-nav-title'))).toEqual(['Quickstart', 'Variables']);

      await pageNav(page).getByRole('link', { name: /Next/ }).click();
      await waitForRoute(page, '/en/variables');
      await pageNav(page).getByRole('link', { name: /Previous/ }).click();
      await waitForRoute(page, '/en/components');
      await pageNav(page).getByRole('link', { name: /Previous/ }).click();
      await waitForRoute(page, '/en/quickstart');
      await pageNav(page).getByRole('link', { name: /Previous/ }).click();
      await waitForRoute(page, '/en/introduction');
    });

    it('frontmatter previous/next override the inferred links', async () => {
      // en/api/endpoints: `previous: false`, `next: { title: Back to the start, href: /en/quickstart }`.
      const page = await visit('/en/api/endpoints');
      await expect(pageNav(page).locator('a[rel="prev"]').count()).resolves.toBe(0);
      await pageNav(page).getByRole('link', { name: /Back to the start/ }).click();
      await waitForRoute(page, '/en/quickstart');

      // en/changelog: `previous: /en/quickstart` (inferred would be "Unsafe page"), titled from the sidebar.
      await page.goto(fullServer.url('/en/changelog'));
      expect(await texts(pageNav(page).locator('a[rel="prev"] .page-nav-title'))).toEqual(['Quickstart']);
      await expect(pageNav(page).locator('a[rel="next"]').count()).resolves.toBe(0);
      await pageNav(page).getByRole('link', { name: /Previous/ }).click();
      await waitForRoute(page, '/en/quickstart');
    });
  });

  describe('search (Pagefind)', () => {
    it('typing a word found on one page lists that page, and choosing it opens it', async () => {
      const page = await visit('/en/quickstart');
      const box = page.getByRole('searchbox', { name: 'Search the documentation' });
      const results = page.locator('#docs-search-results');
      await box.click();
      await box.fill('Homebrew'); // only on en/components (its macOS tab)
      const hit = results.getByRole('link', { name: /Components/ });
      await hit.waitFor();
      expect(await results.getByRole('link').count()).toBe(1);
      await expect(hit.locator('mark').first().textContent()).resolves.toMatch(/Homebrew/);

      await hit.click();
      await waitForRoute(page, '/en/components');
      await page.getByRole('heading', { name: 'Tabs', exact: true }).waitFor();
    });

    it('a search merges every part of the index of the page\'s language, with one WebAssembly module', async () => {
      const from = fullServer.requests.length;
      const page = await visit('/en/quickstart', { fresh: true });
      await page.getByRole('searchbox', { name: 'Search the documentation' }).fill('Homebrew');
      await page.locator('#docs-search-results').getByRole('link', { name: /Components/ }).waitFor();
      const pagefind = fullServer.requests.slice(from).filter((path) => path.startsWith(`${BASE}/pagefind/`)).map((path) => path.slice(`${BASE}/pagefind/`.length).split('?')[0]!);
      // docs-full is built in 3 parts per language: its en pages fill all three (its 2 fr pages leave one fr part empty).
      expect(new Set(pagefind.filter((path) => path.endsWith('pagefind-entry.json')))).toEqual(new Set(['en/0/pagefind-entry.json', 'en/1/pagefind-entry.json', 'en/2/pagefind-entry.json']));
      expect(pagefind.filter((path) => path.includes('/wasm.'))).toHaveLength(1);
    });

    it('on an fr page, French words find the fr page (keyboard: arrow down to the result, Enter)', async () => {
      const page = await visit('/fr/demarrage');
      const box = page.getByRole('searchbox', { name: 'Search the documentation' });
      await box.fill('Configurez'); // only on fr/configuration
      const hit = page.locator('#docs-search-results').getByRole('link', { name: /Configuration/ });
      await hit.waitFor();
      await box.press('ArrowDown');
      await expect(hit.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await page.keyboard.press('Enter');
      await waitForRoute(page, '/fr/configuration');
    });
  });

  describe('code blocks', () => {
    it('the copy button copies the code to the clipboard and announces it', async () => {
      const page = await visit('/en/quickstart');
      const block = page.locator('pre[data-title="build.js"]');
      await block.hover();
      const button = block.getByRole('button', { name: 'Copy code' });
      await expect(button.textContent()).resolves.toBe('Copy');
      await button.click();
      await button.filter({ hasText: 'Copied' }).waitFor(); // for 1.6 s
      await page.getByRole('status').filter({ hasText: 'Copied to the clipboard' }).waitFor({ state: 'attached' });
      const copied: string = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.trimEnd()).toBe("const acme = require('acme-widgets');\nacme.build({ fast: true });");
    });

    it('in a CodeGroup, the copy button copies the block of the selected tab', async () => {
      const page = await visit('/en/components');
      const group = page.getByRole('tablist', { name: 'Code examples' });
      await group.getByRole('tab', { name: 'pnpm' }).click();
      const panel = page.getByRole('tabpanel', { name: 'pnpm' });
      await panel.waitFor({ state: 'visible' });
      await panel.hover();
      await panel.getByRole('button', { name: 'Copy code' }).click();
      await page.getByRole('status').filter({ hasText: 'Copied to the clipboard' }).waitFor({ state: 'attached' });
      expect(((await page.evaluate(() => navigator.clipboard.readText())) as string).trimEnd()).toBe('pnpm add acme-widgets');
    });
  });

  describe('built-in components', () => {
    it('Tabs: arrow keys, Home and End move between tabs and show their panel', async () => {
      const page = await visit('/en/components');
      const mac = page.getByRole('tab', { name: 'macOS' });
      const linux = page.getByRole('tab', { name: 'Linux' });
      const macPanel = page.getByRole('tabpanel', { name: 'macOS' });
      const linuxPanel = page.getByRole('tabpanel', { name: 'Linux' });
      const state = async () => ({
        selected: [await mac.getAttribute('aria-selected'), await linux.getAttribute('aria-selected')],
        visible: [await macPanel.isVisible(), await linuxPanel.isVisible()],
        focused: await page.evaluate(() => document.activeElement?.textContent?.trim()),
      });

      expect((await state()).selected).toEqual(['true', 'false']);
      expect((await state()).visible).toEqual([true, false]);
      await mac.focus();
      await page.keyboard.press('ArrowRight');
      expect(await state()).toEqual({ selected: ['false', 'true'], visible: [false, true], focused: 'Linux' });
      await expect(linuxPanel.textContent()).resolves.toContain('Use apt.');
      await page.keyboard.press('ArrowRight'); // wraps around
      expect(await state()).toEqual({ selected: ['true', 'false'], visible: [true, false], focused: 'macOS' });
      await page.keyboard.press('ArrowLeft');
      expect(await state()).toEqual({ selected: ['false', 'true'], visible: [false, true], focused: 'Linux' });
      await page.keyboard.press('Home');
      expect(await state()).toEqual({ selected: ['true', 'false'], visible: [true, false], focused: 'macOS' });
      await page.keyboard.press('End');
      expect(await state()).toEqual({ selected: ['false', 'true'], visible: [false, true], focused: 'Linux' });
      // Only the selected tab is in the Tab order.
      await expect(mac.getAttribute('tabindex')).resolves.toBe('-1');
      await expect(linux.getAttribute('tabindex')).resolves.toBe('0');
    });

    it('Accordion: a closed one opens on click (and from the keyboard); defaultOpen starts open', async () => {
      const page = await visit('/en/components');
      const first = page.locator('details.accordion', { hasText: 'First question' });
      const second = page.locator('details.accordion', { hasText: 'Second question' });
      await expect(first.evaluate((el) => el.open)).resolves.toBe(true);
      await expect(page.getByText('First answer.').isVisible()).resolves.toBe(true);
      await expect(second.evaluate((el) => el.open)).resolves.toBe(false);
      await expect(page.getByText('Second answer.').isVisible()).resolves.toBe(false);

      await second.locator('summary').click();
      await page.getByText('Second answer.').waitFor({ state: 'visible' });
      await expect(second.evaluate((el) => el.open)).resolves.toBe(true);

      await second.locator('summary').press('Enter');
      await page.getByText('Second answer.').waitFor({ state: 'hidden' });
      await second.locator('summary').press('Space');
      await page.getByText('Second answer.').waitFor({ state: 'visible' });
    });
  });

  describe('accessibility (axe-core): no serious or critical violations', () => {
    const pages: [label: string, server: () => StaticServer, route: string][] = [
      ['docs-full home', () => fullServer, '/'],
      ['docs-full page with every component', () => fullServer, '/en/components'],
      ['docs-full fr page', () => fullServer, '/fr/demarrage'],
      ['docs-empty home (default theme)', () => emptyServer, '/'],
    ];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [label, server, path] of pages) {
        it(`${label} (${path}) in ${colorScheme} mode`, async () => {
          const { page } = await session({ colorScheme });
          await page.goto(server().url(path));
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
          expect(await seriousViolations(page)).toEqual([]);
        });
      }
    }
  });

  describe('requests', () => {
    it('every page loads everything from the site\'s own origin; not even the configured tag manager is external on the default path', async () => {
      const before = external.length;
      const { page } = await session({ fresh: true });
      const routes = htmlRoutes(full);
      expect(routes).toContain('/en/components');
      for (const path of routes) await page.goto(fullServer.url(path));
      // Search loads Pagefind (script, WebAssembly, index) on demand: from the site too.
      const box = page.getByRole('searchbox', { name: 'Search the documentation' });
      await box.fill('widgets');
      await page.locator('#docs-search-results a').first().waitFor();
      for (const path of htmlRoutes(empty)) await page.goto(emptyServer.url(path));

      const seen = [...new Set(external.slice(before))];
      expect(seen).toEqual(ALLOWED_EXTERNAL); // unexpected ones fail in afterEach, with their URLs
      expect(fullServer.requests.some((path) => path.startsWith(`${BASE}/pagefind/`))).toBe(true);
    });

    it("an MDX page's scripts, handlers and iframes never run in the reader's browser", async () => {
      const page = await visit('/en/unsafe');
      await page.getByText('A div with a handler.').click(); // onClick="alert(...)" would open a dialog (afterEach)
      await page.getByText('Bad anchor').click(); // href="javascript:alert(2)"
      await page.getByText('Bad link').click(); // [Bad link](javascript:alert(1))
      expect(await page.evaluate(() => (globalThis as any).hacked)).toBeUndefined();
      expect(await page.locator('iframe, .prose script').count()).toBe(0);
      await expect(page.getByRole('link', { name: 'good link' }).getAttribute('href')).resolves.toBe('https://example.com');
    });

    it('the Content-Security-Policy runs only the layout\'s own scripts: markup added to a page later cannot run script', async () => {
      const page = await visit('/en/unsafe');
      const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' ('sha256-[A-Za-z0-9+/=]+' )+/);
      expect(policy).toContain("object-src 'none'; base-uri 'none'");
      expect(await page.locator('script[data-docs-own]').count()).toBe(0); // the build's mark is not left in pages
      // As a DOM-based injection would: a handler, an inline script, a javascript: URL, an SVG script.
      await page.evaluate(() => {
        const box = document.createElement('div');
        box.innerHTML = '<img src="data:," onerror="window.injected=1"><svg><script>window.injected=2</script></svg><a id="js" href="javascript:window.injected=3">x</a>';
        document.body.append(box);
        const script = document.createElement('script');
        script.textContent = 'window.injected = 4';
        document.body.append(script);
      });
      await page.locator('#js').click();
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => (globalThis as any).injected)).toBeUndefined();
      // The layout's own scripts did run: the theme toggle works.
      const before = await page.evaluate(() => document.documentElement.dataset.theme);
      await page.locator('[data-theme-toggle]').first().click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    });

    it('a page whose frontmatter has `redirect` sends the reader to its target', async () => {
      const page = await visit('/en/moved');
      await waitForRoute(page, '/en/quickstart');
      await page.getByText('Welcome to the quickstart.').waitFor();
    });
  });
});
