/**
 * Repositories written for docs.page and for Mintlify, as each documents its layout, configuration keys,
 * components and Markdown (tests/fixtures/vendor-docs-page, tests/fixtures/vendor-mintlify: one page per
 * component or extension), build unchanged: `--strict` passes with no warning (the notes that name our keys are
 * `info`), every page is at the URL the vendor would give it, and each component works in a real browser
 * (chromium via playwright-core): tabs switch, parameter names and types show, icons are drawn, callouts and alerts
 * are styled apart, diagrams become SVG, media load nothing from another site until the reader asks. Every page
 * loads with no policy violation, error, broken or third-party request, and no serious axe-core violation.
 */
import { readdirSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM, policyViolations, recordPolicyViolations, refuseOtherOrigins, seriousViolations } from '../helpers/browser.ts';
import { buildFixture, type BuiltSite } from '../helpers/docs.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

// Browser globals inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any;
declare const window: any;
declare const navigator: any;
declare const getComputedStyle: (element: unknown, pseudo?: string) => any;

if (!HAS_CHROMIUM) console.warn(`tests/docs-sites/vendor-fixtures.test.ts: ${NO_CHROMIUM}`);

const DOCS_PAGE_ROUTES = [
  '/',
  ...['accordion', 'callouts', 'cards', 'code-group', 'heading', 'icon', 'image', 'property', 'steps', 'tabs', 'tweet', 'video', 'vimeo', 'youtube'].map((p) => `/components/${p}`),
  ...['alerts', 'code-blocks', 'mermaid'].map((p) => `/markdown/${p}`),
];
const MINTLIFY_ROUTES = [
  '/',
  ...['accordions', 'badges', 'callouts', 'cards', 'code-groups', 'color', 'columns', 'examples', 'expandables', 'fields', 'frames', 'icons', 'panel', 'prompt', 'steps', 'tabs', 'tiles', 'tooltips', 'tree', 'update', 'view', 'visibility'].map(
    (p) => `/components/${p}`,
  ),
  ...['code', 'diagrams', 'embeds', 'math'].map((p) => `/writing/${p}`),
];

/** The routes of the built HTML pages (404 and redirect pages aside). */
function builtRoutes(site: BuiltSite): string[] {
  return readdirSync(site.out, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === 'index.html')
    .map((entry) => `/${relative(site.out, entry.parentPath).split(sep).join('/')}`.replace(/\/$/, '') || '/')
    .filter((route) => !/^\/(?:_|404)/.test(route) && !site.page(route).select('meta[http-equiv="refresh"]'))
    .sort();
}

describe.for([
  { fixture: 'vendor-docs-page', vendor: 'docs.page', routes: DOCS_PAGE_ROUTES },
  { fixture: 'vendor-mintlify', vendor: 'Mintlify', routes: MINTLIFY_ROUTES },
])('$vendor repository', ({ fixture, vendor, routes }) => {
  it('builds with --strict and no warning: its vendor keys are notes, every page is at the URL the vendor gives it', { timeout: 180_000 }, async () => {
    const site = await buildFixture(fixture, { strict: true });
    expect(site.result.problems.filter((problem) => problem.severity !== 'info')).toEqual([]);
    expect(site.result.problems.length).toBeGreaterThan(0);
    expect(site.result.problems.filter((problem) => !problem.message.includes(`${vendor}'s`))).toEqual([]);
    expect(builtRoutes(site)).toEqual([...routes].sort());
    if (vendor === 'docs.page') expect(site.page('/').select('.prose p')?.text).toMatch(/^Version 2\.4\.0\. /);
    expect(site.result.pages).toBe(routes.length);
  });
});

let browser: Browser;
let context: BrowserContext;
let page: Page;
let server: StaticServer;
/** Requests to other origins (refused), and errors in the page, since the last `visit`. */
let external: string[] = [];
let errors: string[] = [];

/** Opens a page and checks it loaded cleanly: nothing from another origin, no error, no policy violation. */
async function visit(route: string): Promise<void> {
  external = [];
  errors = [];
  await page.goto(server.url(route));
  await page.waitForLoadState('load');
  const violations = await policyViolations(page);
  expect({ route, external, errors, violations }).toEqual({ route, external: [], errors: [], violations: [] });
}

async function openBrowser(site: BuiltSite): Promise<void> {
  server = await serveStatic(site.out);
  browser ??= await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url('/')).origin });
  await recordPolicyViolations(context);
  await refuseOtherOrigins(context, new URL(server.url('/')).origin, (url) => external.push(url));
  context.on('weberror', (error) => errors.push(String(error.error())));
  page = await context.newPage();
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
}

async function closeBrowser(): Promise<void> {
  await context?.close();
  await server?.close();
}

/** Every icon on the page is an SVG with painted shapes and a visible size. */
async function iconsDrawn(selector = 'svg.docs-icon, svg.nav-icon'): Promise<{ count: number; blank: string[] }> {
  return page.evaluate((s: string) => {
    const icons = [...document.querySelectorAll(s)].filter((svg: any) => svg.getClientRects().length > 0);
    const blank = icons
      .filter((svg: any) => {
        const box = svg.getBoundingClientRect();
        return box.width < 8 || box.height < 8 || svg.querySelectorAll('path, circle, rect, line, polyline, polygon, ellipse').length === 0;
      })
      .map((svg: any) => svg.outerHTML.slice(0, 120));
    return { count: icons.length, blank };
  }, selector);
}

/** The text, border colour and background of each element matching the selector. */
const styles = (selector: string) =>
  page.evaluate(
    (s: string) => [...document.querySelectorAll(s)].map((el: any) => ({ text: el.textContent.trim().replace(/\s+/g, ' '), border: getComputedStyle(el).borderLeftColor, background: getComputedStyle(el).backgroundColor })),
    selector,
  );

/** A tab set: its tab labels and the selected one. */
async function tabSet(index: number, variant = 'tabs') {
  const set = page.locator(`.tabs[data-variant="${variant}"]`).nth(index);
  return { set, labels: await set.getByRole('tab').allTextContents(), selected: await set.getByRole('tab', { selected: true }).textContent() };
}

/** Clicks a media facade's button and returns the third-party requests it caused. */
async function play(button: string): Promise<string[]> {
  expect(await page.locator('iframe').count()).toBe(0);
  await page.getByRole('button', { name: button }).click();
  await expect.poll(() => external.length).toBeGreaterThan(0);
  return external;
}

/** What the copy button of the n-th code block put on the clipboard. */
async function copied(index: number): Promise<string> {
  const block = page.locator('pre').nth(index);
  await block.hover();
  await block.getByRole('button', { name: 'Copy code' }).click();
  await page.getByRole('status').filter({ hasText: 'Copied to the clipboard' }).waitFor({ state: 'attached' });
  return page.evaluate(() => navigator.clipboard.readText());
}

/** On a 320px-wide screen: does the page scroll sideways, and is every header control inside the screen? */
async function headerAt320(route: string) {
  await page.setViewportSize({ width: 320, height: 700 });
  try {
    await visit(route);
    return await page.evaluate(() => ({
      scrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
      outside: [...document.querySelectorAll('.site-header a, .site-header button')]
        .filter((el: any) => el.getClientRects().length > 0 && el.getBoundingClientRect().right > window.innerWidth)
        .map((el: any) => el.getAttribute('aria-label') ?? el.textContent.trim()),
    }));
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

async function mermaidDrawn() {
  await page.waitForSelector('figure[data-mermaid="drawn"] svg', { timeout: 20_000 });
  return page.evaluate(() => {
    const svg = document.querySelector('figure[data-mermaid="drawn"] svg');
    return { role: svg.getAttribute('role'), labelled: Boolean(svg.getAttribute('aria-label') || svg.getAttribute('aria-describedby')), nodes: svg.querySelectorAll('.node').length };
  });
}

/** What every page of a fixture must do: a header that fits a phone, and no serious axe-core violation. */
function siteWideChecks(routes: readonly string[]) {
  it('on a 320px screen the header (links, call to action, code host, theme toggle) fits without sideways scrolling', async () => {
    expect(await headerAt320('/')).toEqual({ scrollsSideways: false, outside: [] });
  });

  it('every page has no serious or critical axe-core violation, light and dark', { timeout: 240_000 }, async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const route of routes) {
        await visit(route);
        expect(await seriousViolations(page), `${scheme} ${route}`).toEqual([]);
      }
    }
  });
}

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'docs.page repository in a browser' : `docs.page repository in a browser (${NO_CHROMIUM})`, () => {
  beforeAll(async () => openBrowser(await buildFixture('vendor-docs-page', { strict: true })), 180_000);
  afterAll(closeBrowser);

  it('Tabs take their labels from `values`, switch, and tab sets with one groupId follow each other', async () => {
    await visit('/components/tabs');
    const first = await tabSet(0);
    expect([first.labels, first.selected]).toEqual([['First Tab', 'Second Tab'], 'First Tab']);
    await first.set.getByRole('tab', { name: 'Second Tab' }).click();
    expect(await first.set.getByText(/the content for the second tab/).isVisible()).toBe(true);
    expect(await first.set.getByText(/the content for the first tab/).isVisible()).toBe(false);
    const [one, two] = [await tabSet(1), await tabSet(2)];
    expect([one.labels, one.selected, two.selected]).toEqual([['JavaScript', 'Dart'], 'Dart', 'JavaScript']);
    await two.set.getByRole('tab', { name: 'Dart' }).click();
    await one.set.getByRole('tab', { name: 'JavaScript' }).click();
    expect(await two.set.getByRole('tab', { selected: true }).textContent()).toBe('JavaScript');
    expect(await one.set.getByText('npm i --save axios').isVisible()).toBe(true);
  });

  it('Property shows each name, type and its required, optional, default and deprecated marks', async () => {
    await visit('/components/property');
    const fields = await page.locator('.field').evaluateAll((els: any[]) =>
      els.map((el) => [...el.querySelectorAll('.field-head > *')].filter((child: any) => child.getClientRects().length > 0).map((child: any) => child.textContent.trim())),
    );
    expect(fields).toEqual([
      ['name', 'string', 'required'],
      ['size', 'number', 'optional', 'default: 16'],
      ['legacy', 'boolean', 'deprecated'],
    ]);
  });

  it('callouts and GitHub alerts each have their own colours and a visible label', async () => {
    await visit('/components/callouts');
    const callouts = await styles('.callout');
    expect(callouts.map((c) => c.text)).toEqual(['This is an info callout.', 'This is a warning callout.', 'This is an error callout.', 'This is a success callout.'].map((text) => expect.stringContaining(text)));
    expect(new Set(callouts.map((c) => c.border)).size).toBe(4);
    expect(new Set(callouts.map((c) => c.background)).size).toBe(4);
    await visit('/markdown/alerts');
    const alerts = await styles('.callout');
    expect(await page.locator('.callout .callout-title').allTextContents()).toEqual(['Note', 'Tip', 'Important', 'Warning', 'Caution']);
    expect(new Set(alerts.map((a) => a.border)).size).toBe(5);
  });

  it('icons are drawn: Icon names, card icons, sidebar and anchor icons (Font Awesome solid, regular, brands)', async () => {
    for (const route of ['/components/icon', '/components/cards', '/components/accordion']) {
      await visit(route);
      const icons = await iconsDrawn();
      expect(icons.blank, route).toEqual([]);
      expect(icons.count, route).toBeGreaterThanOrEqual(route === '/components/icon' ? 5 + 4 : 4);
    }
    await visit('/components/icon');
    expect(await page.locator('.prose svg[data-icon]').evaluateAll((svgs: any[]) => svgs.map((svg) => svg.dataset.icon))).toEqual([
      'fa6-solid:rocket', 'fa6-brands:github', 'fa6-regular:bell', 'fa6-solid:star', 'fa6-solid:heart',
    ]);
    expect(await page.locator('.prose svg[data-icon="fa6-solid:star"]').evaluate((svg: any) => svg.getBoundingClientRect().height)).toBe(24);
  });

  it('accordions open, steps are numbered, code groups are labelled by their titles, Heading anchors', async () => {
    await visit('/components/accordion');
    expect(await page.getByText('A collapsible section of content.').isVisible()).toBe(false);
    expect(await page.getByText('Yes, with').isVisible()).toBe(true);
    await page.getByText('What is an accordion?').click();
    expect(await page.getByText('A collapsible section of content.').isVisible()).toBe(true);
    await visit('/components/steps');
    // Numbered by the ordered list (a CSS counter draws the marker).
    expect(await page.locator('ol.steps > li.step .step-title').allTextContents()).toEqual(['Install the package', 'Configure it', 'Ship it']);
    expect(await page.locator('ol.steps > li.step').first().evaluate((step: any) => getComputedStyle(step, '::before').content)).toMatch(/counter/);
    await visit('/components/code-group');
    const group = await tabSet(0, 'code');
    expect([group.labels, group.selected]).toEqual([['npm', 'yarn', 'pnpm'], 'npm']);
    await group.set.getByRole('tab', { name: 'pnpm' }).click();
    expect(await group.set.getByText('pnpm add widgets').isVisible()).toBe(true);
    await visit('/components/heading');
    await page.getByRole('link', { name: 'this anchor' }).click();
    expect(await page.evaluate(() => [document.querySelector(':target')?.tagName, document.querySelector(':target')?.id])).toEqual(['H3', 'custom-anchor']);
  });

  it('YouTube, Vimeo, Video and Tweet load nothing from another site until the reader clicks', async () => {
    const cases: [string, string, RegExp][] = [
      ['/components/youtube', 'Play video: YouTube video', /^https:\/\/www\.youtube-nocookie\.com\/embed\/X8ipUgXH6jw/],
      ['/components/vimeo', 'Play video: Vimeo video', /^https:\/\/player\.vimeo\.com\/video\/253989945/],
      ['/components/video', 'Play video: Video', /^https:\/\/media\.widgets\.example\/demo\.mp4/],
      ['/components/tweet', 'Load post: Post 1513662173796605958 on X', /^https:\/\/platform\.twitter\.com\/embed\/Tweet\.html\?id=1513662173796605958/],
    ];
    for (const [route, button, request] of cases) {
      await visit(route);
      const requests = await play(button);
      expect(requests.every((url) => request.test(url)), `${route}: ${requests.join(', ')}`).toBe(true);
    }
  });

  it('an Image zooms in a dialog; the Mermaid diagram is an accessible SVG; a diff copies the code it results in', async () => {
    await visit('/components/image');
    await page.getByRole('button', { name: 'Enlarge image: A widget' }).click();
    expect(await page.getByRole('dialog', { name: 'Enlarged image' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await visit('/markdown/mermaid');
    expect(await mermaidDrawn()).toEqual({ role: 'graphics-document document', labelled: true, nodes: 5 });
    await visit('/markdown/code-blocks');
    expect(await copied(0)).toBe('const port = 8080;\nexport default { port };');
  });

  siteWideChecks(DOCS_PAGE_ROUTES);
});

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'Mintlify repository in a browser' : `Mintlify repository in a browser (${NO_CHROMIUM})`, () => {
  beforeAll(async () => openBrowser(await buildFixture('vendor-mintlify', { strict: true })), 180_000);
  afterAll(async () => {
    await closeBrowser();
    await browser?.close();
  });

  it('Tabs switch by click and arrow keys; code groups and request/response examples are labelled', async () => {
    await visit('/components/tabs');
    const tabs = await tabSet(0);
    expect([tabs.labels, tabs.selected]).toEqual([['First tab', 'Second tab', 'Third tab'], 'First tab']);
    await tabs.set.getByRole('tab', { name: 'Third tab' }).click();
    expect(await tabs.set.getByText('inside the third tab').isVisible()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    expect(await tabs.set.getByText('inside the second tab').isVisible()).toBe(true);
    await visit('/components/code-groups');
    expect((await tabSet(0, 'code')).labels).toEqual(['helloWorld.js', 'hello_world.py', 'HelloWorld.java']);
    expect((await tabSet(1, 'code')).labels).toEqual(['npm', 'yarn']);
    await visit('/components/examples');
    expect(await page.locator('.tabs-caption').allTextContents()).toEqual(['Request', 'Response']);
  });

  it('ParamField and ResponseField show names, types, locations and labels; Expandable opens nested fields', async () => {
    await visit('/components/fields');
    const heads = await page.locator('.field').evaluateAll((els: any[]) =>
      els.map((el) => [...el.querySelectorAll('.field-head > *')].filter((child: any) => child.getClientRects().length > 0).map((child: any) => child.textContent.trim())),
    );
    expect(heads).toEqual([
      ['widgetId', 'path', 'string', 'required'],
      ['limit', 'query', 'integer', 'default: 20'],
      ['Authorization', 'header', 'string', 'required'],
      ['beta', 'name', 'body', 'string', 'write-only'],
      ['id', 'string', 'required'],
      ['legacy_id', 'integer', 'deprecated'],
    ]);
    await visit('/components/expandables');
    expect(await page.getByText('full_name').isVisible()).toBe(false);
    await page.getByText('Show properties').click();
    expect(await page.getByText('full_name').isVisible()).toBe(true);
    expect(await page.getByText('boolean').isVisible()).toBe(true);
  });

  it('each callout kind has its own colours; icons are drawn on icons, cards, steps, badges and the sidebar', async () => {
    await visit('/components/callouts');
    const callouts = await styles('.callout');
    expect(callouts).toHaveLength(7);
    expect(new Set(callouts.slice(0, 6).map((c) => c.border)).size).toBe(6);
    expect(callouts[6]!.border).toBe('rgb(255, 193, 7)');
    for (const route of ['/components/icons', '/components/cards', '/components/steps', '/components/badges', '/components/accordions', '/components/columns']) {
      await visit(route);
      const icons = await iconsDrawn();
      expect(icons.blank, route).toEqual([]);
      expect(icons.count, route).toBeGreaterThanOrEqual(4);
    }
  });

  it('the tooltip shows on focus; a tree folder closes; the view selector switches; the update lists its tags', async () => {
    await visit('/components/tooltips');
    await page.locator('[data-docs-tooltip] .tooltip-trigger').focus();
    await expect.poll(() => page.getByRole('tooltip').isVisible()).toBe(true);
    expect(await page.getByRole('tooltip').textContent()).toContain('Application Programming Interface');
    await visit('/components/tree');
    expect(await page.getByText('layout.tsx').isVisible()).toBe(true);
    await page.locator('.tree-folder > details > summary').first().click();
    expect(await page.getByText('layout.tsx').isVisible()).toBe(false);
    await visit('/components/view');
    expect(await page.getByText('pip install acme').isVisible()).toBe(false);
    await page.getByRole('combobox').selectOption({ label: 'Python' });
    expect(await page.getByText('pip install acme').isVisible()).toBe(true);
    await visit('/components/update');
    expect(await page.locator('.update-tags li').allTextContents()).toEqual(['Feature', 'Fix']);
    await visit('/components/visibility');
    expect([await page.getByText('Shown to readers').count(), await page.getByText('Only in the Markdown').count()]).toEqual([1, 0]);
  });

  it('columns sit side by side on a wide screen; the frame, colours, panel and prompt render', async () => {
    await visit('/components/columns');
    const lefts = await page.locator('.columns .card').evaluateAll((cards: any[]) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
    expect(new Set(lefts).size).toBe(1);
    await visit('/components/frames');
    expect(await page.locator('figure.frame figcaption').textContent()).toContain('The Acme dashboard');
    await visit('/components/color');
    expect(await page.locator('.swatch').evaluateAll((s: any[]) => s.map((el) => getComputedStyle(el).backgroundColor))).toEqual(
      expect.arrayContaining(['rgb(59, 130, 246)', 'rgb(34, 197, 94)', 'rgb(37, 99, 235)']),
    );
    await visit('/components/panel');
    expect(await page.getByText('Pinned information beside the page.').isVisible()).toBe(true);
    await visit('/components/prompt');
    expect(await page.getByRole('button', { name: /copy/i }).first().isVisible()).toBe(true);
  });

  it('Mintlify\'s iframe and video embeds are facades; the diagram is SVG; math is typeset; a diff copies its result', async () => {
    await visit('/writing/embeds');
    const requests = await play('Play video: YouTube video player');
    expect(requests).toEqual([expect.stringMatching(/^https:\/\/www\.youtube-nocookie\.com\/embed\/4KzFe50RQkQ/)]);
    external = [];
    await page.getByRole('button', { name: 'Play video: Video' }).click();
    await expect.poll(() => external).toEqual([expect.stringMatching(/^https:\/\/media\.acme\.example\/intro\.mp4/)]);
    await visit('/writing/diagrams');
    expect(await mermaidDrawn()).toMatchObject({ labelled: true, nodes: 4 });
    await visit('/writing/math');
    expect(await page.locator('.katex').count()).toBe(2);
    expect(await page.locator('.katex-error').count()).toBe(0);
    await visit('/writing/code');
    expect(await copied(1)).toBe('const port = 8080;');
  });

  siteWideChecks(MINTLIFY_ROUTES);
});
