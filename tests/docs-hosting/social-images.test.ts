/**
 * Hosted sites' generated social images (server/docs-hosting/serving/social.ts): a hosted build only describes them
 * (no `_social/` files are stored), and the URL a page's og:image names is drawn when first asked for, stored once
 * under its card's key for every build and process, and never stale: a page whose title changed names another card.
 * Also what a hosted build leaves behind: nothing (its caches go with its scratch dir).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { defaultCacheDir } from '../../sites/builder/index.ts';
import { cardKey } from '../../sites/index.ts';
import { renderCard } from '../../sites/builder/social-card.ts';
import { SocialImages } from '../../server/docs-hosting/serving/social.ts';
import { DocsSites } from '../../server/docs-hosting/serving/sites.ts';
import { hostingConfig, published } from '../helpers/hosting.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';
import type { BuildManifest } from '../../server/docs-hosting/entities.ts';

let server: TestServer;
let rest: Rest;
let repo: GitFixture;
let docs: ReturnType<typeof hostingConfig>;

const image = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
  const res = await fetch(`${server.url}${path}`, { method, headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
};

/** The og:image a served page names, as a path on the test server. */
async function ogImage(pagePath: string): Promise<string> {
  const html = await (await fetch(`${server.url}${pagePath}`)).text();
  const content = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  expect(content, html.slice(0, 400)).toBeDefined();
  return new URL(content!).pathname;
}

/** What the database holds for a build: its stored social files and its manifest. */
async function stored(buildId: string) {
  const connection = server.db.em().getConnection();
  const [files] = await connection.execute<{ n: string | number }[]>("select count(*) as n from docs_file where build_id = ? and path like '\\_social/%'", [buildId]);
  const [build] = await connection.execute<{ manifest: BuildManifest | string }[]>('select manifest from docs_build where id = ?', [buildId]);
  const manifest = typeof build!.manifest === 'string' ? (JSON.parse(build!.manifest) as BuildManifest) : build!.manifest;
  return { socialFiles: Number(files!.n), manifest };
}

const blobCount = async (hash: string) =>
  Number((await server.db.em().getConnection().execute<{ n: string | number }[]>('select count(*) as n from docs_blob where hash = ?', [hash]))[0]!.n);

/** Width and height from a PNG's IHDR. */
const size = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

beforeAll(async () => {
  repo = createGitRepo('main');
  repo.write({ 'docs.json': JSON.stringify({ name: 'Social' }), 'index.mdx': '# Social\n\nHome.\n', 'guide.mdx': '# Guide\n\nText.\n' });
  repo.commit('docs');
  server = await startTestServer({ rateLimits: 'off', docs: (docs = hostingConfig()) });
  rest = restClient(server.url, (await createOrganization(server)).apiKey);
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'social', source: repo.dir })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await server?.destroy();
  repo?.cleanup();
});

describe('generated social images of a hosted site', () => {
  let first: { etag: string; body: Buffer };
  let homeEtag: string;

  it('the build stores none; the og:image URL draws the card its manifest describes, once, into the database', async () => {
    const build = await published(rest, 'acme/social');
    const { socialFiles, manifest } = await stored(build.id);
    expect(socialFiles).toBe(0);
    expect(manifest.social?.titles).toEqual({ '_social/index.png': 'Social', '_social/guide.png': 'Guide' });
    const path = await ogImage('/acme/social/guide');
    expect(path).toBe('/acme/social/_social/guide.png');
    const key = cardKey({ ...manifest.social!.shared, title: 'Guide' });
    expect(await blobCount(key)).toBe(0);

    const res = await image(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.body.subarray(1, 4).toString()).toBe('PNG');
    expect(size(res.body)).toEqual([1200, 630]);
    expect(Number(res.headers.get('content-length'))).toBe(res.body.length);
    expect(await blobCount(key)).toBe(1);
    first = { etag: res.headers.get('etag')!, body: res.body };

    const again = await image(path);
    expect([again.status, again.headers.get('etag')]).toEqual([200, first.etag]);
    expect(again.body.equals(first.body)).toBe(true);
    expect((await image(path, { 'If-None-Match': first.etag })).status).toBe(304);
    const head = await image(path, {}, 'HEAD');
    expect([head.status, head.body.length, Number(head.headers.get('content-length'))]).toEqual([200, 0, first.body.length]);
    // Each page its own card.
    const home = await image('/acme/social/_social/index.png');
    expect(home.status).toBe(200);
    expect(home.body.equals(first.body)).toBe(false);
    homeEtag = home.headers.get('etag')!;
  });

  it('a build leaves nothing behind: its Astro and Vite caches went with its scratch dir, not to the OS temp folder', async () => {
    const [build] = await server.db.em().getConnection().execute<{ id: string; attempts: number; repository_id: string }[]>(
      "select b.id, b.attempts, b.repository_id from docs_build b join docs_repository r on r.id = b.repository_id where r.slug = 'acme/social' and b.status = 'SUCCEEDED'",
    );
    const scratch = join(docs.workDir, 'builds', `${build!.id}-${build!.attempts}`);
    expect(existsSync(scratch)).toBe(false);
    // The source was the repository's work tree (kept: the next commit updates it in place).
    const source = join(docs.workDir, 'mirrors', `${build!.repository_id}.trees`, '0');
    expect(existsSync(join(source, 'docs.json'))).toBe(true);
    expect(existsSync(defaultCacheDir(source))).toBe(false);
  });

  it('only the images the build describes: another path under _social is the site 404', async () => {
    for (const path of ['/acme/social/_social/nope.png', '/acme/social/_social/guide.png.png', '/acme/social/_social/%E0%A4%A']) {
      expect((await image(path)).status, path).toBe(404);
    }
    expect((await image('/acme/social/_social/guide.png', {}, 'POST')).status).toBe(405);
  });

  it('never stale: after the page title changes and is published, the same URL serves the new card', async () => {
    repo.write({ 'guide.mdx': '# Guide, second edition\n\nText.\n' });
    repo.commit('retitle');
    const build = await published(rest, 'acme/social');
    expect((await stored(build.id)).manifest.social?.titles['_social/guide.png']).toBe('Guide, second edition');
    const res = await image('/acme/social/_social/guide.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(first.etag);
    expect(res.body.equals(first.body)).toBe(false);
    // An unchanged page keeps its card, drawn once whichever build names it: a reader's cached copy stays valid.
    expect((await image('/acme/social/_social/index.png', { 'If-None-Match': homeEtag })).status).toBe(304);
  });

  it('a logo file that is not an image is left out of the card, as a remote one is: the image is still served', async () => {
    const broken = createGitRepo('main');
    try {
      broken.write({ 'docs.json': JSON.stringify({ name: 'Broken logo', og: { logo: 'logo.png' } }), 'index.mdx': '# Home\n', 'logo.png': 'not a png at all' });
      broken.commit('docs');
      expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'broken-logo', source: broken.dir })).status).toBe(201);
      const build = await published(rest, 'acme/broken-logo');
      const { shared, titles } = (await stored(build.id)).manifest.social!;
      expect(shared.logo).toMatch(/^data:image\/png;base64,/);
      const res = await image('/acme/broken-logo/_social/index.png');
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/png']);
      expect(res.body.equals(await renderCard({ ...shared, logo: undefined, title: titles['_social/index.png']! }))).toBe(true);
    } finally {
      broken.cleanup();
    }
  });

  it('a card the renderer refuses: no image (serve.ts then answers the site 404), a logged error, and the next card is drawn on a fresh thread', async () => {
    const logged: unknown[] = [];
    const images = new SocialImages(server.db, new DocsSites(server.db), { log: (error) => logged.push(error) });
    try {
      expect(await images.image({ title: 'Refused', siteName: 'Social', accent: 'not-a-colour' })).toBeUndefined();
      expect(String(logged[0])).toMatch(/Invalid value/);
      const drawn = await images.image({ title: `Drawn ${Date.now()}`, siteName: 'Social', accent: '#60a5fa' });
      expect(drawn?.png.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await images.close();
    }
  });
});
