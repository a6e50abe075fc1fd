/**
 * The Markdown extensions in a real browser (Debian chromium through playwright-core, found as browser.test.ts
 * finds it; a missing browser fails under CI): tests/fixtures/markdown-extensions built once and served over HTTP.
 *
 * - The Mermaid diagram becomes an accessible SVG, drawn by the site's own bundled script under the page's
 *   Content-Security-Policy (no violation reported, nothing requested from another origin), and is drawn again
 *   in the dark theme's colours.
 * - KaTeX's stylesheet and fonts load from the site itself, under the same policy.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM, policyViolations, recordPolicyViolations, refuseOtherOrigins, seriousViolations } from '../helpers/browser.ts';
import { buildFixture, type BuiltSite } from '../helpers/docs.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

// Browser globals inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any;
declare const window: any;
declare const getComputedStyle: (element: unknown) => any;

if (!HAS_CHROMIUM) console.warn(`tests/docs-sites/markdown-browser.test.ts: ${NO_CHROMIUM}`);

let site: BuiltSite;
let server: StaticServer;
let browser: Browser;

interface Visit {
  context: BrowserContext;
  page: Page;
  /** securitypolicyviolation events, console errors and uncaught exceptions. */
  problems: string[];
  /** Requests to any other origin (aborted). */
  external: string[];
  /** Same-origin responses >= 400. */
  broken: string[];
}

async function open(route: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Visit> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
  const session: Visit = { context, page: await context.newPage(), problems: [], external: [], broken: [] };
  await recordPolicyViolations(context);
  await refuseOtherOrigins(context, server.origin, (url) => session.external.push(url));
  session.page.on('console', (message) => {
    if (message.type() === 'error') session.problems.push(`console: ${message.text()}`);
  });
  session.page.on('pageerror', (error) => session.problems.push(`exception: ${error.message}`));
  session.page.on('response', (response) => {
    if (response.status() >= 400) session.broken.push(`${response.status()} ${response.url()}`);
  });
  await session.page.goto(server.url(route));
  return session;
}

/** Policy violations the page reported, then everything else that went wrong. */
async function troubles(visit: Visit): Promise<string[]> {
  const violations = await policyViolations(visit.page);
  return [...violations.map((v) => `csp: ${v}`), ...visit.problems, ...visit.external.map((u) => `external: ${u}`), ...visit.broken];
}

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'Markdown extensions in a browser' : `Markdown extensions in a browser (${NO_CHROMIUM})`, () => {
  beforeAll(async () => {
    site = await buildFixture('markdown-extensions');
    server = await serveStatic(site.out);
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the Mermaid diagram becomes an SVG described by its source, with no policy violation', async () => {
    const visit = await open('/diagrams');
    try {
      const { page } = visit;
      await page.waitForFunction(() => [...document.querySelectorAll('figure[data-mermaid]')].every((figure: any) => figure.dataset.mermaid !== ''), undefined, { timeout: 20_000 });
      expect(await page.evaluate(() => [...document.querySelectorAll('figure[data-mermaid]')].map((figure: any) => figure.dataset.mermaid))).toEqual(['drawn', 'error']);
      const drawn = await page.evaluate(() => {
        const figure = document.querySelector('figure[data-mermaid]');
        const svg = figure.querySelector('.mermaid-svg svg');
        const described = document.getElementById(svg.getAttribute('aria-describedby'));
        return {
          label: svg.getAttribute('aria-label'),
          role: svg.getAttribute('role'),
          description: described?.textContent ?? null,
          nodes: [...svg.querySelectorAll('.nodeLabel')].map((node: any) => node.textContent.trim()).sort(),
          sourceHidden: !figure.querySelector('details').open,
          error: figure.querySelector('.mermaid-error')?.textContent ?? null,
        };
      });
      expect(drawn).toEqual({
        label: 'Diagram',
        role: expect.stringContaining('graphics-document'),
        description: expect.stringContaining('A[Write docs] --> B{Diagram?}'),
        nodes: ['Diagram?', 'Mermaid', 'Text', 'Write docs'],
        sourceHidden: true,
        error: null,
      });
      // A diagram that does not parse: its source shown, with the reason.
      const failed = await page.evaluate(() => {
        const figure = document.querySelectorAll('figure[data-mermaid]')[1];
        return { open: figure.querySelector('details').open, message: figure.querySelector('.mermaid-error')?.textContent ?? '', svg: figure.querySelectorAll('svg').length };
      });
      expect(failed).toEqual({ open: true, message: expect.stringMatching(/^This diagram could not be drawn: .+/), svg: 0 });
      // The mermaid bundle and its chunks: the site's own files.
      const scripts: string[] = await page.evaluate(() => performance.getEntriesByType('resource').map((entry: any) => entry.name).filter((name: string) => name.endsWith('.js')));
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.every((url) => url.startsWith(`${server.origin}/_astro/`))).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await troubles(visit)).toEqual([]);
    } finally {
      await visit.context.close();
    }
  });

  it('an untrusted diagram: markup in labels is sanitised and nothing it asks for runs', async () => {
    const visit = await open('/untrusted-diagram');
    try {
      const { page } = visit;
      await page.waitForSelector('figure[data-mermaid="drawn"] .mermaid-svg svg', { timeout: 20_000 });
      const handlersAndLinks = () =>
        page.evaluate(() => ({
          handlers: [...document.querySelectorAll('*')].flatMap((el: any) => [...el.attributes].map((a: any) => a.name)).filter((name: string) => /^on/i.test(name)),
          scriptLinks: [...document.querySelectorAll('a')].map((a: any) => a.getAttribute('href') ?? a.getAttribute('xlink:href') ?? '').filter((href: string) => /^\s*javascript:/i.test(href)),
        }));
      expect(await handlersAndLinks()).toEqual({ handlers: [], scriptLinks: [] });
      for (const element of await page.locator('figure[data-mermaid] svg *').all()) await element.dispatchEvent('click').catch(() => {});
      expect(await page.evaluate(() => window.__xss)).toBeUndefined();
      // Mermaid (strict) sanitises labels with DOMPurify, whose inert parse of `onerror=` Chromium reports as a
      // script-src-attr violation although nothing runs there; the sanitised <img src="x"> is then requested.
      const reported = (await troubles(visit)).filter((trouble) => !/^csp: script-src-attr inline$|Executing inline event handler violates|status of 404|^404 .*\/x$/.test(trouble));
      expect(reported).toEqual([]);
    } finally {
      await visit.context.close();
    }
  });

  it('is drawn in dark colours when the page is dark, and again when the reader switches theme', async () => {
    const visit = await open('/diagrams', 'dark');
    try {
      const { page } = visit;
      await page.waitForSelector('figure[data-mermaid="drawn"] .mermaid-svg svg', { timeout: 20_000 });
      const fill = () => page.evaluate(() => getComputedStyle(document.querySelector('.mermaid-svg svg .node rect, .mermaid-svg svg .node polygon')).fill);
      const dark = await fill();
      await page.locator('[data-theme-toggle]').click();
      await page.waitForFunction((before) => {
        const node = document.querySelector('.mermaid-svg svg .node rect, .mermaid-svg svg .node polygon');
        return node && getComputedStyle(node).fill !== before;
      }, dark);
      const light = await fill();
      expect(light).not.toBe(dark);
      expect(await troubles(visit)).toEqual([]);
    } finally {
      await visit.context.close();
    }
  });

  it('math is typeset with KaTeX\'s stylesheet and fonts from the site itself, with no policy violation', async () => {
    const visit = await open('/math');
    try {
      const { page } = visit;
      await page.evaluate(() => document.fonts.ready);
      const styled = await page.evaluate(() => ({
        font: getComputedStyle(document.querySelector('.katex')).fontFamily,
        mathmlHidden: getComputedStyle(document.querySelector('.katex-mathml')).position,
        loaded: [...document.fonts].filter((font: any) => font.status === 'loaded').map((font: any) => font.family),
      }));
      expect(styled.font).toContain('KaTeX_Main');
      expect(styled.mathmlHidden).toBe('absolute');
      expect(styled.loaded.some((family: string) => family.includes('KaTeX'))).toBe(true);
      const fonts: string[] = await page.evaluate(() => performance.getEntriesByType('resource').map((entry: any) => entry.name).filter((name: string) => /\.woff2?$/.test(name)));
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.every((url) => url.startsWith(`${server.origin}/_astro/KaTeX_`))).toBe(true);
      expect(await troubles(visit)).toEqual([]);
    } finally {
      await visit.context.close();
    }
  });

  it('a page without diagrams or math loads neither', async () => {
    const visit = await open('/');
    try {
      const loaded: string[] = await visit.page.evaluate(() => performance.getEntriesByType('resource').map((entry: any) => entry.name));
      expect(loaded.filter((url) => /mermaid|katex/i.test(url))).toEqual([]);
      expect(await troubles(visit)).toEqual([]);
    } finally {
      await visit.context.close();
    }
  });
});
