import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** `GET /`: a small page saying where everything is, nothing loaded from anywhere, under a strict policy. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.destroy());

async function home() {
  const res = await fetch(`${server.url}/`);
  return { res, html: await res.text() };
}

/** The policy's directives: name -> sources. */
const directives = (policy: string) =>
  Object.fromEntries(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );

describe('GET /', () => {
  it('answers 200 with an HTML page', async () => {
    const { res, html } = await home();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<title>Typed Platform</title>');
  });

  it('links the API reference, /openapi.json, /health and /schema.json, each of which answers 200', async () => {
    const { html } = await home();
    const links = [...html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!);
    expect(links.sort()).toEqual(['/health', '/openapi.json', '/reference', '/schema.json']);
    for (const link of links) expect((await fetch(`${server.url}${link}`)).status, link).toBe(200);
  });

  it('says how hosted documentation sites are addressed', async () => {
    const { html } = await home();
    expect(html).toContain('<code>/{owner}/{repo}</code>');
    expect(html).toContain('<code>/{owner}/{repo}~{ref}</code>');
  });

  it('loads nothing: no script, no image, no external URL, no stylesheet but its own', async () => {
    const { html } = await home();
    expect(html).not.toMatch(/<(script|img|iframe|link|object|embed|form)\b/i);
    expect(html).not.toMatch(/\bsrc=|https?:\/\/|url\(|@import/i);
  });

  it('under a strict Content-Security-Policy: nothing allowed but its own inline style, by hash', async () => {
    const { res, html } = await home();
    const policy = directives(res.headers.get('content-security-policy') ?? '');
    const style = html.match(/<style>([^<]*)<\/style>/)![1]!;
    expect(policy).toEqual({
      'default-src': ["'none'"],
      'style-src': [`'sha256-${createHash('sha256').update(style).digest('base64')}'`],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"],
    });
  });

  it('HEAD / answers the same headers without a body', async () => {
    const get = await fetch(`${server.url}/`);
    const head = await fetch(`${server.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'content-length', 'content-security-policy', 'cache-control']) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    }
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(await get.text()));
  });

  it('other methods on / are the API\'s (404), and /index.html is no home page', async () => {
    expect((await fetch(`${server.url}/`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(404);
    expect((await fetch(`${server.url}/index.html`)).status).toBe(404);
  });
});
