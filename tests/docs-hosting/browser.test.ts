/**
 * A published site in a real browser (Debian chromium through playwright-core), served by the real server from a
 * git repository: reading and navigating it, its search under the hosted base path, and the chat panel answering
 * through the server and a model provider's stand-in on 127.0.0.1. No request leaves the server's origin.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM, seriousViolations } from '../helpers/browser.ts';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { hostingConfig, published } from '../helpers/hosting.ts';
import { startModelStandIn, type ModelStandIn } from '../helpers/model-stand-in.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

if (!HAS_CHROMIUM) console.warn(`tests/docs-hosting/browser.test.ts: ${NO_CHROMIUM}`);

describe.skipIf(!HAS_CHROMIUM)('a published site in a browser', () => {
  let server: TestServer;
  let models: ModelStandIn;
  let repo: GitFixture;
  let browser: Browser;
  let page: Page;
  const outside: string[] = [];

  beforeAll(async () => {
    models = await startModelStandIn({ keys: { openai: 'sk-handbook' } });
    server = await startTestServer({
      rateLimits: 'off',
      docs: hostingConfig({ providerUrls: { openai: models.baseUrl('openai') } }),
    });
    const rest = restClient(server.url, (await createOrganization(server)).apiKey);
    repo = createGitRepo();
    repo.write({
      'index.mdx': '---\ntitle: Handbook\n---\n\nEverything about the handbook.\n',
      'install.mdx': '---\ntitle: Install\n---\n\nRun `npm install handbook` to install the handbook tool.\n',
      'usage.mdx': '---\ntitle: Usage\n---\n\nCall `handbook serve` to start it.\n',
    });
    repo.commit('pages');
    expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'handbook', source: repo.dir })).status).toBe(201);
    const agent = await rest('POST', '/api/docs/repositories/acme/handbook/agents', { owner: 'acme', repo: 'handbook', provider: 'openai', apiKey: 'sk-handbook' });
    repo.write({
      'docs.json': JSON.stringify({
        name: 'Handbook',
        sidebar: [{ group: 'Guide', pages: [{ title: 'Home', href: '/' }, { title: 'Install', href: '/install' }, { title: 'Usage', href: '/usage' }] }],
        agent: { key: agent.body.key, placeholder: 'Ask the handbook', questions: ['How do I install it?'] },
      }),
    });
    repo.commit('docs.json');
    await published(rest, 'acme/handbook');

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(
      (url) => url.origin !== server.url,
      (route) => (outside.push(route.request().url()), route.abort('blockedbyclient')),
    );
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.destroy();
    await models?.close();
    repo?.cleanup();
  });

  it('reads the site and navigates it through the sidebar', async () => {
    await page.goto(`${server.url}/acme/handbook`);
    await expect.poll(() => page.title()).toBe('Handbook - Handbook');
    await page.getByRole('navigation', { name: 'Sidebar', exact: true }).getByRole('link', { name: 'Install' }).click();
    await page.waitForURL(`${server.url}/acme/handbook/install`);
    expect(await page.locator('article').textContent()).toContain('npm install handbook');
  });

  it('searches the site under its hosted path (Pagefind)', async () => {
    const box = page.getByRole('searchbox', { name: 'Search the documentation' });
    await box.fill('serve');
    const hit = page.locator('#docs-search-results').getByRole('link', { name: /Usage/ });
    await hit.waitFor();
    expect(await hit.getAttribute('href')).toMatch(/^\/acme\/handbook\/usage\/?$/);
  });

  it('asks the chat panel a suggested question: the answer comes from the provider, with the page it used', async () => {
    await page.goto(`${server.url}/acme/handbook/usage`);
    await page.locator('#docs-chat-open').click();
    const panel = page.locator('#docs-chat');
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await page.locator('#docs-chat-input').getAttribute('placeholder')).toBe('Ask the handbook');
    await panel.getByRole('button', { name: 'How do I install it?' }).click();
    const answer = panel.locator('.chat-message[data-role=assistant]').first();
    await answer.waitFor();
    expect(await answer.locator('.chat-text').textContent()).toContain('Answer (openai/');
    expect(await answer.locator('.chat-text').textContent()).toContain('How do I install it?');
    const source = answer.locator('.chat-sources a', { hasText: 'Install' });
    expect(await source.getAttribute('href')).toBe('/acme/handbook/install');
    expect(models.requests.at(-1)!.headers.authorization).toBe('Bearer sk-handbook');

    // A typed follow-up carries the conversation so far.
    await page.locator('#docs-chat-input').fill('And how do I start it?');
    await page.locator('#docs-chat-input').press('Enter');
    await panel.locator('.chat-message[data-role=assistant]').nth(1).waitFor();
    const sent = models.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(await seriousViolations(page)).toEqual([]);

    await source.click();
    await page.waitForURL(`${server.url}/acme/handbook/install`);
  });

  it('requested nothing outside the server', () => {
    expect(outside).toEqual([]);
  });
});
