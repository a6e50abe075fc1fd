import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../routers/index.ts';
import { buildOpenApiDocument } from '../../server/platform/http/openapi.ts';
import { get } from '../helpers/hosting.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The API reference's Try it out calls the server the document names: relative (`/`), the host the document was
 * read from, so it works at http://127.0.0.1:3000 as well as at localhost or behind any name; PUBLIC_BASE_URL when
 * one is configured.
 */

const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));

describe('servers of openapi.json', () => {
  let server: TestServer;
  let proxied: TestServer;
  beforeAll(async () => {
    [server, proxied] = await Promise.all([startTestServer(), startTestServer({ publicBaseUrl: 'https://platform.example.org/' })]);
  });
  afterAll(() => Promise.all([server?.destroy(), proxied?.destroy()]));

  /** The URLs of a document's servers: the first is the one Try it out calls. */
  const urls = (servers: { url: string }[]) => servers.map((server) => server.url);

  it('the committed document: relative, `/`, first; then the local default', () => {
    expect(urls(committed.servers)).toEqual(['/', 'http://127.0.0.1:3000']);
  });

  it('served: `/`, whatever host the server is reached at (127.0.0.1, localhost, a name)', async () => {
    for (const host of [new URL(server.url).host, 'localhost:3000', 'api.example.org']) {
      const res = await get(server.url, '/openapi.json', { host });
      expect(res.status, host).toBe(200);
      expect(urls(JSON.parse(res.text).servers)[0], host).toBe('/');
    }
  });

  it('with PUBLIC_BASE_URL: that URL, without a trailing slash', async () => {
    const res = await fetch(`${proxied.url}/openapi.json`);
    expect(urls(((await res.json()) as { servers: { url: string }[] }).servers)[0]).toBe('https://platform.example.org');
    expect(urls(buildOpenApiDocument(appRouter, 'https://example.org/platform/').servers!)[0]).toBe('https://example.org/platform');
  });
});
