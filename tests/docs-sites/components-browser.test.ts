/**
 * The built-in components in a real browser (chromium via playwright-core, found as in browser.test.ts): tabs switch
 * and synchronise, media facades request nothing from YouTube, Vimeo or X until the reader clicks, the tooltip shows
 * on keyboard focus. tests/fixtures/components is built once and served over HTTP on 127.0.0.1; every request to
 * another origin is recorded and refused. A missing browser fails under CI (tests/helpers/browser.ts).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM, refuseOtherOrigins, seriousViolations } from '../helpers/browser.ts';
import { buildFixture } from '../helpers/docs.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

// Browser globals inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any;
declare const getComputedStyle: (element: unknown) => any;

if (!HAS_CHROMIUM) console.warn(`tests/docs-sites/components-browser.test.ts: ${NO_CHROMIUM}`);

let browser: Browser;
let server: StaticServer;
let context: BrowserContext;
let page: Page;
/** Requests to other origins (refused), and errors in the page, since the last check. */
let external: string[] = [];
let errors: string[] = [];

const visible = (selector: string) =>
  page.evaluate((s: string) => {
    const el = document.querySelector(s);
    return !!el && !el.closest('[hidden]') && getComputedStyle(el).visibility !== 'hidden' && getComputedStyle(el).display !== 'none';
  }, selector);

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'built-in components in a browser' : `built-in components in a browser (${NO_CHROMIUM})`, () => {
  beforeAll(async () => {
    const site = await buildFixture('components');
    server = await serveStatic(site.out);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await refuseOtherOrigins(context, new URL(server.url('/')).origin, (url) => external.push(url));
    context.on('weberror', (error) => errors.push(String(error.error())));
    page = await context.newPage();
  }, 180_000);

  afterEach(() => {
    const seen = errors;
    errors = [];
    expect(seen).toEqual([]);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  it('component styles reach the pages that show the component: callouts get their coloured edge; other pages load no callout rule', async () => {
    await page.goto(server.url('/callouts'));
    const edge = (type: string) =>
      page.evaluate((t: string) => {
        const style = getComputedStyle(document.querySelector(`.callout[data-type="${t}"]`));
        return [style.borderInlineStartWidth, style.borderInlineStartColor] as string[];
      }, type);
    const [warning, note] = [await edge('warning'), await edge('note')];
    expect(warning[0]).toBe('4px');
    expect(warning[1]).not.toBe(note[1]);
    await page.goto(server.url('/fields'));
    const rules: string[] = await page.evaluate(() => [...document.styleSheets].flatMap((sheet: any) => [...sheet.cssRules].map((rule: any) => rule.cssText)));
    expect(rules.some((rule) => rule.includes('.field['))).toBe(true);
    expect(rules.some((rule) => rule.includes('.callout'))).toBe(false);
  });

  it('tabs switch on click and with the arrow keys; docs.page tab sets with one groupId follow each other', async () => {
    await page.goto(server.url('/tabs'));
    const sets = page.locator('.tabs[data-variant="tabs"]');
    const first = sets.nth(0);
    await first.getByRole('tab', { name: 'Second tab' }).click();
    expect(await first.getByRole('tab', { name: 'Second tab' }).getAttribute('aria-selected')).toBe('true');
    expect(await first.getByRole('tabpanel').filter({ hasText: 'Content of the second tab.' }).isVisible()).toBe(true);
    expect(await first.getByText('Content of the first tab.').isVisible()).toBe(false);
    await page.keyboard.press('ArrowLeft');
    expect(await first.getByText('Content of the first tab.').isVisible()).toBe(true);

    const [one, two] = [sets.nth(1), sets.nth(2)];
    expect(await one.getByRole('tab', { selected: true }).textContent()).toBe('Dart');
    expect(await two.getByRole('tab', { selected: true }).textContent()).toBe('JavaScript');
    await one.getByRole('tab', { name: 'JavaScript' }).click();
    await two.getByRole('tab', { name: 'Dart' }).click();
    expect(await one.getByRole('tab', { selected: true }).textContent()).toBe('Dart');
    expect(await one.getByText('Add the dio package.').isVisible()).toBe(true);
    // The choice is remembered: a reload starts both sets on Dart.
    await page.reload();
    expect(await sets.nth(2).getByRole('tab', { selected: true }).textContent()).toBe('Dart');
  });

  it('media facades make no request to YouTube, Vimeo or X until the reader clicks, then load only what was clicked', async () => {
    external = [];
    await page.goto(server.url('/media'));
    await page.waitForLoadState('load');
    expect(external).toEqual([]);
    expect(await page.locator('iframe').count()).toBe(0);

    await page.getByRole('button', { name: 'Play video: Introducing docs' }).click();
    await expect.poll(() => external).toEqual(['https://www.youtube-nocookie.com/embed/X8ipUgXH6jw?autoplay=1']);
    const frame = page.locator('[data-docs-facade="youtube"] iframe');
    expect(await frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/X8ipUgXH6jw?autoplay=1');
    expect(await frame.getAttribute('title')).toBe('Introducing docs');
    expect(external.some((url) => /vimeo|twitter|x\.com|media\.example/.test(url))).toBe(false);

    await page.getByRole('button', { name: 'Load post: Post 1513662173796605958 on X' }).click();
    await expect.poll(() => external.length).toBe(2);
    expect(external[1]).toMatch(/^https:\/\/platform\.twitter\.com\/embed\/Tweet\.html\?id=1513662173796605958/);
  });

  it('the tooltip shows on keyboard focus and hover, and Escape hides it', async () => {
    await page.goto(server.url('/layout'));
    const tip = '[data-docs-tooltip] [role="tooltip"]';
    expect(await visible(tip)).toBe(false);
    await page.locator('[data-docs-tooltip] .tooltip-trigger').focus();
    await expect.poll(() => visible(tip)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => visible(tip)).toBe(false);
    await page.locator('h1').first().click();
    await page.locator('[data-docs-tooltip] .tooltip-trigger').hover();
    await expect.poll(() => visible(tip)).toBe(true);
  });

  it('an Image with zoom opens enlarged in a dialog and Escape closes it', async () => {
    await page.goto(server.url('/media'));
    await page.getByRole('button', { name: 'Enlarge image: A picture' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enlarged image' });
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);
  });

  it('every page of the fixture has no serious or critical axe-core violation, in light and dark mode', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const route of ['/', '/fields', '/tabs', '/icons', '/media', '/callouts', '/layout']) {
        await page.goto(server.url(route));
        expect(await seriousViolations(page), `${scheme} ${route}`).toEqual([]);
      }
    }
  }, 120_000);
});
