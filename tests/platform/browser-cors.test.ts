/**
 * The API from a real browser (Debian chromium through playwright-core): the API reference's Try it out at the
 * address the server logs (http://127.0.0.1:<port>, not localhost:3000), and a page of another origin calling the
 * REST API and tRPC with an API key and wallet headers (preflighted), reading the headers it is meant to read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, NO_CHROMIUM } from '../helpers/browser.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

if (!HAS_CHROMIUM) console.warn(`tests/platform/browser-cors.test.ts: ${NO_CHROMIUM}`);

describe.skipIf(!HAS_CHROMIUM)('the API in a browser', () => {
  let server: TestServer;
  let apiKey: string;
  /** Another origin: a blank page of a browser app. */
  let app: Server;
  let appUrl: string;
  let browser: Browser;
  /** The reference's context: anything outside the server is refused. */
  let context: BrowserContext;
  /**
   * The app's context routes nothing: with routing on, playwright answers CORS preflights itself, and the server's
   * own answers must be the ones the browser obeys.
   */
  let appContext: BrowserContext;
  const requested: string[] = [];
  const appRequested: string[] = [];
  const outside: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    ({ apiKey } = await createOrganization(server));
    app = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>App</title>'));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext();
    context.on('request', (request) => requested.push(`${request.method()} ${request.url()}`));
    await context.route(
      (url) => url.origin !== server.url && url.origin !== appUrl,
      (route) => (outside.push(route.request().url()), route.abort('blockedbyclient')),
    );
    appContext = await browser.newContext();
    appContext.on('request', (request) => appRequested.push(`${request.method()} ${request.url()}`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => app?.close(resolve));
    await server?.destroy();
  });

  it("Swagger UI's Try it out at http://127.0.0.1:<port>/reference calls that address and shows the answer", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await context.newPage();
    // The page's Content-Security-Policy lets Swagger UI do all of this: the browser reports nothing it refused.
    const refused: string[] = [];
    page.on('console', (message) => /Content.Security.Policy|Refused to/i.test(message.text()) && refused.push(message.text()));
    await page.goto(`${server.url}/reference`);
    const operation = page.locator('#operations-Agents-agents-search');
    await operation.locator('.opblock-summary').click();
    // The reference opens with Try it out on (tryItOutEnabled): Execute is there at once.
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^\s*200/);
    expect(await operation.locator('.request-url').textContent()).toContain(`${server.url}/api/agents/search`);
    expect(await operation.locator('.live-responses-table').innerText()).toContain('"agents"');
    expect(requested.filter((line) => line.includes('/api/agents/search'))).toEqual([`GET ${server.url}/api/agents/search?limit=20&offset=0`]);
    expect(await page.evaluate(() => (globalThis as { document?: { title: string } }).document?.title)).toBe('API reference');
    expect(refused).toEqual([]);
    await page.close();
  });

  it('a page of another origin calls REST and tRPC with an API key (preflighted) and reads answers, errors and exposed headers', async () => {
    const page = await appContext.newPage();
    await page.goto(`${appUrl}/`);
    const results = await page.evaluate(
      async ({ api, key }) => {
        const call = async (path: string, init: RequestInit = {}) => {
          const res = await fetch(`${api}${path}`, init);
          return { status: res.status, body: await res.text(), limit: res.headers.get('x-ratelimit-limit'), retryAfter: res.headers.get('retry-after') };
        };
        const json = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        return {
          created: await call('/employee-resources', {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ resourceId: 'emp-browser', resourceName: 'Ada', timezone: 'UTC', createdAt: '2026-01-15T09:30:00Z', isActive: true, userId: 'u-1', email: 'ada@example.com' }),
          }),
          updated: await call('/employee-resources/emp-browser', { method: 'PUT', headers: json, body: JSON.stringify({ isActive: false }) }),
          listed: await call('/employee-resources', { headers: { authorization: `Bearer ${key}` } }),
          refused: await call('/employee-resources', { headers: { authorization: 'Bearer rk_wrong' } }),
          trpc: await call('/trpc/resources.employees.list', { headers: { authorization: `Bearer ${key}` } }),
          search: await call('/api/agents/search?limit=1'),
          unsigned: await call('/api/orders', { headers: { 'x-wallet-address': '11111111111111111111111111111111', 'x-signature': '1', 'x-timestamp': '1' } }),
          // A header the preflight does not allow: the browser refuses to send the call at all.
          unlisted: await call('/employee-resources', { headers: { authorization: `Bearer ${key}`, 'x-unlisted': '1' } }).catch((error: Error) => error.name),
        };
      },
      { api: server.url, key: apiKey },
    );
    expect(results.created.status).toBe(201);
    expect(results.updated.status).toBe(200);
    expect(results.listed.status).toBe(200);
    expect(JSON.parse(results.listed.body)).toEqual([expect.objectContaining({ resourceId: 'emp-browser', isActive: false })]);
    expect([results.refused.status, JSON.parse(results.refused.body)]).toEqual([401, { message: expect.any(String), error: expect.any(String) }]);
    expect(results.trpc.status).toBe(200);
    expect(results.search.status).toBe(200);
    expect(results.search.limit).toMatch(/^\d+$/); // X-RateLimit-Limit is exposed to the page
    expect(results.unsigned.status).toBe(401);
    expect(JSON.parse(results.unsigned.body)).toMatchObject({ error: 'INVALID_SIGNATURE' });
    // Every call above needed a preflight (Authorization, JSON, the wallet headers): the browser asked first, and
    // sent only what the answer allowed.
    expect(results.unlisted).toBe('TypeError');
    await page.close();
  });

  it('requested nothing outside the server and the app', () => {
    expect(outside).toEqual([]);
    expect(appRequested.filter((line) => !line.includes(` ${server.url}/`) && !line.includes(` ${appUrl}/`))).toEqual([]);
  });
});
