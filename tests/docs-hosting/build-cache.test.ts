/**
 * A hosted repository's build cache (`<workDir>/page-cache/<repository id>`, sites/builder/build-cache.ts): a commit
 * that changes one page's body renders that page (and 404.html); the rest comes from the repository's earlier
 * builds, on any ref, and the site served is the new commit's.
 */
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import type { BuildManifest } from '../../server/docs-hosting/entities.ts';
import { hostingConfig, published } from '../helpers/hosting.ts';
import { restClient, type Rest } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let rest: Rest;
let repo: GitFixture;
let docs: ReturnType<typeof hostingConfig>;

const PAGES = { 'index.mdx': '# Home\n\nWelcome.\n', 'guide.mdx': '# Guide\n\nRun the installer.\n', 'faq.mdx': '# FAQ\n\nQuestions.\n' };

/** HTML files a build rendered and took from the cache (its manifest). */
async function htmlFiles(buildId: string) {
  const [row] = await server.db.em().getConnection().execute<{ manifest: BuildManifest | string }[]>('select manifest from docs_build where id = ?', [buildId]);
  const manifest = typeof row!.manifest === 'string' ? (JSON.parse(row!.manifest) as BuildManifest) : row!.manifest;
  return manifest.htmlFiles;
}

const page = async (path: string) => (await fetch(`${server.url}${path}`)).text();

beforeAll(async () => {
  repo = createGitRepo('main');
  repo.write({ 'docs.json': JSON.stringify({ name: 'Cached' }), ...PAGES });
  repo.commit('docs');
  server = await startTestServer({ rateLimits: 'off', docs: (docs = hostingConfig()) });
  rest = restClient(server.url, (await createOrganization(server)).apiKey);
  expect((await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'cached', source: repo.dir })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await server?.destroy();
  repo?.cleanup();
});

describe('a hosted repository\'s build cache', () => {
  it('the first build renders every page and keeps them in the repository\'s cache', async () => {
    const build = await published(rest, 'acme/cached');
    expect(await htmlFiles(build.id)).toEqual({ rendered: 4, cached: 0 });
    const folders = readdirSync(join(docs.workDir, 'page-cache'));
    expect(folders).toHaveLength(1);
    expect(readdirSync(join(docs.workDir, 'page-cache', folders[0]!)).filter((name) => name.endsWith('.html'))).toHaveLength(4);
    // The build process kept the code it compiled (Astro, Vite, the builder) for the next one: Node's code cache.
    expect(readdirSync(join(docs.workDir, 'module-cache'), { recursive: true }).length).toBeGreaterThan(100);
    // ...and pruned it of what builds more than a day old left (sites/builder/cache-folders.ts).
    expect(readdirSync(join(docs.workDir, 'module-cache'), { recursive: true, encoding: 'utf8' }).some((name) => name.endsWith('/.pruned'))).toBe(true);
  }, 120_000);

  it('a commit that edits one page renders that page and 404.html; the site serves the edit and the unchanged pages', async () => {
    repo.write({ 'guide.mdx': '# Guide\n\nRun the new installer.\n' });
    repo.commit('edit the guide');
    const build = await published(rest, 'acme/cached');
    expect(await htmlFiles(build.id)).toEqual({ rendered: 2, cached: 2 });
    expect(await page('/acme/cached/guide')).toContain('Run the new installer.');
    expect(await page('/acme/cached/faq')).toContain('Questions.');
  }, 120_000);

  it('a branch reuses the pages its default branch built', async () => {
    repo.git('checkout', '-q', '-b', 'preview');
    repo.write({ 'faq.mdx': '# FAQ\n\nMore questions.\n' });
    repo.commit('preview the faq');
    const build = await published(rest, 'acme/cached', 'preview');
    expect(await htmlFiles(build.id)).toEqual({ rendered: 2, cached: 2 });
    expect(await page('/acme/cached~preview/faq')).toContain('More questions.');
    // The scratch folders went; the cache stays.
    expect(existsSync(join(docs.workDir, 'page-cache'))).toBe(true);
  }, 120_000);

  it('a cache file changed in place since it was stored is read again: the site serves its bytes as they are now', async () => {
    // The server knows the hash of a cache file it stored by the file's stamp (built-files.ts); a change keeps the
    // size and the modification time here, and only the change time tells.
    const [folder] = readdirSync(join(docs.workDir, 'page-cache'));
    const dir = join(docs.workDir, 'page-cache', folder!);
    const home = readdirSync(dir).map((name) => join(dir, name)).find((file) => file.endsWith('.html') && readFileSync(file, 'utf8').includes('Welcome.'))!;
    // A time a file's times can be set back to exactly (whole seconds), stored with it by a build.
    const time = Math.floor(Date.now() / 1000) - 10;
    utimesSync(home, time, time);
    const push = async (text: string) => {
      repo.write({ 'guide.mdx': `# Guide\n\n${text}\n` });
      repo.commit(text);
      const build = await published(rest, 'acme/cached', 'preview');
      expect(await htmlFiles(build.id)).toEqual({ rendered: 2, cached: 2 });
      expect(await page('/acme/cached~preview/guide')).toContain(text);
    };
    await push('Run the newer installer.');
    writeFileSync(home, readFileSync(home, 'utf8').replace('Welcome.', 'Welkome.'));
    utimesSync(home, time, time);
    expect(statSync(home).mtimeMs).toBe(time * 1000);
    await push('Run the newest installer.');
    expect(await page('/acme/cached~preview')).toContain('Welkome.');
  }, 120_000);
});
