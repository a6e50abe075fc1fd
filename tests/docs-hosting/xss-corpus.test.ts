/**
 * Known cross-site scripting payloads, published from a repository and read in chromium: in MDX (raw HTML, JSX,
 * Markdown links and images), in built-in components' props, in frontmatter, in docs.json values and in an SVG file.
 * Every payload, if it ran, would call `alert`, set `window.__xss` or fetch `/__xss`: the test listens for all three
 * while each page loads and while the events that trigger handlers are dispatched on every element. The site's own
 * scripts keep working under its Content-Security-Policy (the theme toggle and search are tried at the end).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM } from '../helpers/browser.ts';
import { hostingConfig, published } from '../helpers/hosting.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

// Functions passed to page.evaluate run in the browser.
declare const document: any;

if (!HAS_CHROMIUM) console.warn(`tests/docs-hosting/xss-corpus.test.ts: ${NO_CHROMIUM}`);

/** What a payload runs. */
const RUN = ['alert(1)', 'window.__xss=1', "fetch('/__xss')"];
const js = (i: number) => RUN[i % RUN.length]!;

/** URL schemes that run script, written the ways filters miss. */
const SCRIPT_URLS = (i: number) => [
  `javascript:${js(i)}`,
  `JaVaScRiPt:${js(i)}`,
  `java\tscript:${js(i)}`,
  ` javascript:${js(i)}`,
  `javascript&colon;${js(i)}`,
  `&#106;avascript:${js(i)}`,
  `data:text/html,<script>${js(i)}</script>`,
  `data:text/html;base64,${Buffer.from(`<script>${js(i)}</script>`).toString('base64')}`,
  `vbscript:${js(i)}`,
];

/** Raw HTML and JSX in a page body. */
const htmlPayloads = (i: number): string[] => [
  `<script>${js(i)}</script>`,
  `<img src="x" onerror="${js(i)}" />`,
  `<img src="x" onError={() => ${js(i)}} />`,
  `<svg onload="${js(i)}"></svg>`,
  `<svg><script>${js(i)}</script></svg>`,
  `<iframe src="javascript:${js(i)}"></iframe>`,
  `<iframe srcdoc="<script>${js(i)}</script>"></iframe>`,
  `<object data="javascript:${js(i)}"></object>`,
  `<embed src="javascript:${js(i)}" />`,
  `<details open ontoggle="${js(i)}">x</details>`,
  `<div onmouseover="${js(i)}">hover</div>`,
  `<a href="javascript:${js(i)}">link</a>`,
  `<a href="x" onclick="${js(i)}">click</a>`,
  `<form action="javascript:${js(i)}"><button>go</button></form>`,
  `<button formaction="javascript:${js(i)}">go</button>`,
  `<input autofocus onfocus="${js(i)}" />`,
  `<video src="x" onerror="${js(i)}"></video>`,
  `<audio src="x" onerror="${js(i)}"></audio>`,
  `<body onload="${js(i)}"></body>`,
  `<math><mtext><script>${js(i)}</script></mtext></math>`,
  `<meta httpEquiv="refresh" content="0;url=javascript:${js(i)}" />`,
  `<base href="javascript:${js(i)}//" />`,
  `<link rel="stylesheet" href="javascript:${js(i)}" />`,
  `<style>{"@import 'javascript:${js(i)}';"}</style>`,
  `<div style="background:url(javascript:${js(i)})">styled</div>`,
  `<span dangerouslySetInnerHTML={{ __html: '<img src=x onerror=${js(i)}>' }} />`,
  `<div {...{ onClick: () => ${js(i)} }}>spread</div>`,
  `<p>{${js(i)}}</p>`,
  `<template><script>${js(i)}</script></template>`,
  `<noscript><img src="x" onerror="${js(i)}" /></noscript>`,
  `<portal src="javascript:${js(i)}"></portal>`,
  `<Fragment set:html="<img src=x onerror=${js(i)}>" />`,
  `<p is:raw>{'<img src=x onerror=${js(i)}>'}</p>`,
];

/** Built-in components' props. */
const componentPayloads = (i: number): string[] => [
  `<Note set:html="<img src=x onerror=${js(i)}>">note</Note>`,
  `<Tip title="<img src=x onerror=${js(i)}>">tip</Tip>`,
  `<Card title="card" href="javascript:${js(i)}">card</Card>`,
  `<Card title="card" icon="javascript:${js(i)}">card</Card>`,
  `<Card title="card" icon="<svg onload=${js(i)}>">card</Card>`,
  `<Card title="card" color="red;background:url(javascript:${js(i)})">card</Card>`,
  `<Card title="card" onclick="${js(i)}">card</Card>`,
  `<Accordion title="</summary><img src=x onerror=${js(i)}>">acc</Accordion>`,
  `<Tabs><Tab title="<img src=x onerror=${js(i)}>">tab</Tab></Tabs>`,
  `<Callout type="<script>${js(i)}</script>">call</Callout>`,
  `<CardGroup cols="2;background:url(javascript:${js(i)})"><Card title="x">x</Card></CardGroup>`,
  `<Steps><Step title={'<img src=x onerror=${js(i)}>'}>step</Step></Steps>`,
  `<CodeGroup label="<script>${js(i)}</script>">\n\n\`\`\`js title="<img src=x onerror=${js(i)}>"\nx\n\`\`\`\n\n</CodeGroup>`,
  `<Warning client:load set:text="x" define:vars={{ a: 1 }}>warn</Warning>`,
];

/** Markdown links, images and definitions. */
const markdownPayloads = (i: number): string[] =>
  SCRIPT_URLS(i).flatMap((url) => [`[link](${url.replace(/[ ()]/g, encodeURIComponent)})`, `![image](${url.replace(/[ ()]/g, encodeURIComponent)})`]);

/** Frontmatter values (the page's head, hero, links to neighbours). */
const frontmatter = (i: number) =>
  [
    '---',
    `title: "</title><script>${js(i)}</script>"`,
    `description: "\\"><img src=x onerror=${js(i)}>"`,
    `image: "javascript:${js(i)}"`,
    `next: { title: "<img src=x onerror=${js(i)}>", href: "javascript:${js(i)}" }`,
    '---',
  ].join('\n');

const docsJson = {
  name: `Corpus</title><script>${js(0)}</script>`,
  description: `"><img src=x onerror=${js(1)}>`,
  banner: { message: `<img src=x onerror=${js(2)}>`, href: `javascript:${js(0)}` },
  header: { links: [{ title: `<svg onload=${js(1)}>`, href: `javascript:${js(1)}` }] },
  social: { website: `javascript:${js(2)}`, codeHost: 'https://github.com/acme' },
  logo: { light: `javascript:${js(0)}`, dark: 'images/evil.svg' },
  scripts: { vendorTagManager: `');${js(1)};('`, vendorAnalytics: `"></script><script>${js(2)}</script>` },
  theme: { primaryColor: `red;}</style><script>${js(0)}</script><style>` },
  sidebar: [
    { group: `<img src=x onerror=${js(1)}>`, pages: [{ title: 'Home', href: '/' }, { title: `<script>${js(2)}</script>`, href: `javascript:${js(2)}` }] },
  ],
  redirects: { '/go': `javascript:${js(0)}` },
};

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="${js(0)}"><script>${js(1)}</script><circle r="4"/></svg>`;

describe.skipIf(!HAS_CHROMIUM)('known XSS payloads in a published repository', () => {
  let server: TestServer;
  let repo: GitFixture;
  let browser: Browser;
  let page: Page;
  const pages: string[] = [];
  let payloads = 0;
  const dialogs: string[] = [];
  const beacons: string[] = [];

  beforeAll(async () => {
    const files: Record<string, string> = { 'docs.json': JSON.stringify(docsJson), 'images/evil.svg': SVG, 'index.mdx': '# Corpus\n\nThe home page.\n' };
    const groups = { html: htmlPayloads, components: componentPayloads, markdown: markdownPayloads };
    for (const [name, make] of Object.entries(groups)) {
      for (let variant = 0; variant < 2; variant++) {
        const list = make(variant);
        payloads += list.length;
        files[`${name}-${variant}.mdx`] = `${frontmatter(variant)}\n\n${list.map((payload) => `${payload}\n`).join('\n')}`;
        pages.push(`/${name}-${variant}`);
      }
    }
    payloads += 5 * pages.length + Object.keys(docsJson).length + 1; // frontmatter values, docs.json values, the SVG
    server = await startTestServer({ rateLimits: 'off', docs: hostingConfig() });
    const rest = restClient(server.url, (await createOrganization(server)).apiKey);
    repo = createGitRepo();
    repo.write(files);
    repo.commit('corpus');
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'corpus', source: repo.dir })).status).toBe(201);
    expect((await published(rest, 'acme/corpus')).status).toBe('SUCCEEDED');

    browser = await launchChromium();
    const context = await browser.newContext();
    await context.route(
      (url) => url.origin !== server.url || url.pathname.startsWith('/__xss'),
      (route) => {
        if (new URL(route.request().url()).pathname.startsWith('/__xss')) beacons.push(route.request().url());
        return route.abort('blockedbyclient');
      },
    );
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(`${page.url()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.destroy();
    repo?.cleanup();
  });

  it(`holds at least 100 payloads`, () => {
    expect(payloads).toBeGreaterThanOrEqual(100);
  });

  it('no payload runs while pages load or while their elements get the events handlers wait for', async () => {
    for (const path of ['/', ...pages]) {
      const response = await page.goto(`${server.url}/acme/corpus${path}`);
      expect(response?.status(), path).toBe(200);
      await page.evaluate(() => {
        for (const element of document.querySelectorAll('*') as Iterable<{ dispatchEvent(event: Event): void }>) {
          for (const type of ['mouseover', 'focus', 'toggle', 'load', 'error', 'animationstart', 'pointerenter']) element.dispatchEvent(new Event(type));
        }
      });
      await page.waitForTimeout(100);
      expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss), path).toBeUndefined();
      // Nothing left that a click would run.
      const hrefs = await page.evaluate(() => ([...document.querySelectorAll('[href], [src], [action], [formaction]')] as { getAttribute(name: string): string | null }[]).map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('action') ?? el.getAttribute('formaction') ?? ''));
      expect(hrefs.filter((href) => /^\s*(javascript|vbscript|data:text)/i.test(href.replace(/\s+/g, ''))), path).toEqual([]);
    }
    expect(dialogs).toEqual([]);
    expect(beacons).toEqual([]);
  });

  it('a redirect to a javascript: URL and an SVG opened directly run nothing', async () => {
    const go = await fetch(`${server.url}/acme/corpus/go`, { redirect: 'manual' });
    expect(go.headers.get('location') ?? '').not.toMatch(/javascript:/i);
    await page.goto(`${server.url}/acme/corpus/images/evil.svg`);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(beacons).toEqual([]);
  });

  it("the site's own scripts still work under its policy: theme toggle and search", async () => {
    await page.goto(`${server.url}/acme/corpus/`);
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.locator('[data-theme-toggle]').first().click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    await page.locator('#docs-search-input').fill('home');
    await page.locator('#docs-search-results a').first().waitFor();
    expect(dialogs).toEqual([]);
  });
});
