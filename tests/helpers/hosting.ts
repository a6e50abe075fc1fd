import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createGitRepo, type GitFixture } from '../../scripts/lib/git-fixture.ts';
import { defaultDocsConfig, type DocsConfig } from '../../server/platform/config.ts';
import type { Rest } from './rest.ts';

/** Docs hosting's settings for a test server: a work dir of its own, local git sources allowed, `overrides` on top. */
export const hostingConfig = (overrides: Partial<DocsConfig> = {}): DocsConfig => ({
  // The database only decides allowLocalSources, which every test server allows.
  ...defaultDocsConfig({ kind: 'pglite', dataDir: '' }),
  workDir: mkdtempSync(join(tmpdir(), 'docs-hosting-')),
  allowLocalSources: true,
  ...overrides,
});

/** A committed git repository of `pages` small pages (a home page and page-1, page-2, …); the caller cleans it up. */
export function smallDocsRepo(pages = 3): GitFixture {
  const repo = createGitRepo();
  const files: Record<string, string> = { 'docs.json': JSON.stringify({ name: 'Procs' }), 'index.mdx': '# Home\n\nThe home page.\n' };
  for (let i = 1; i < pages; i++) files[`page-${i}.mdx`] = `# Page ${i}\n\nText of page ${i}.\n\n\`\`\`js\nconst x = ${i};\n\`\`\`\n`;
  repo.write(files);
  repo.commit('docs');
  return repo;
}

/**
 * Commits one blob of `size` zero bytes at each of `paths`, beside the files already committed: a tree bomb (a
 * repository of a few hundred kB that checks out to `size` times the paths). Answers the commit.
 */
export function commitZeroBlob(repo: GitFixture, size: number, paths: string[]): string {
  const git = (args: string[], input: string | Buffer) => execFileSync('git', ['-C', repo.dir, ...args], { input, encoding: 'utf8' }).trim();
  const blob = git(['hash-object', '-w', '--stdin'], Buffer.alloc(size));
  git(['update-index', '--index-info'], paths.map((path) => `100644 ${blob}\t${path}\n`).join(''));
  repo.git('commit', '-q', '-m', `${paths.length} zero blobs`);
  return repo.git('rev-parse', 'HEAD');
}

/** What a build answers (GET /api/docs/builds/:id). */
export interface Build {
  id: string;
  commit: string;
  status: string;
  refs: string[];
  pages: number | null;
  problems: { severity: string; file: string; line: number; column: number; path: string; message: string }[];
  error: string | null;
  startedAt: string | null;
}

/** Polls a build until it succeeded or failed. */
export async function settled(rest: Rest, build: Pick<Build, 'id'>, timeoutMs = 90_000): Promise<Build> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await rest<Build>('GET', `/api/docs/builds/${build.id}`);
    if (body.status === 'SUCCEEDED' || body.status === 'FAILED') return body;
    if (Date.now() > deadline) throw new Error(`build ${build.id} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Settles every build of `site` (those a test queued), so that they finish before the server stops. */
export async function settleBuilds(rest: Rest, site: string): Promise<void> {
  for (const build of (await rest<{ builds?: Build[] }>('GET', `/api/docs/repositories/${site}/builds`)).body?.builds ?? []) await settled(rest, build).catch(() => {});
}

/** Publishes a ref and waits for its build; fails the test unless it succeeded. */
export async function published(rest: Rest, site: string, ref?: string): Promise<Build> {
  const res = await rest<Build>('POST', `/api/docs/repositories/${site}/publish`, ref ? { ref } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const build = await settled(rest, res.body);
  expect(build.status, JSON.stringify(build)).toBe('SUCCEEDED');
  return build;
}

export interface Page {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A GET (or any method) as a browser on `host` sends it: node:http, so the Host header can name any domain. */
export function get(baseUrl: string, path: string, options: { host?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Page> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: { ...(options.host ? { host: options.host } : {}), ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The `X-Hub-Signature-256` of a webhook body under the repository's secret. */
export const webhookSignature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A push webhook as GitHub sends it: the JSON body signed with the repository's webhook secret. */
export async function pushWebhook(baseUrl: string, site: string, secret: string, payload: object, event = 'push', signature?: string) {
  const body = JSON.stringify(payload);
  const res = await fetch(`${baseUrl}/api/docs/repositories/${site}/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-hub-signature-256': signature ?? webhookSignature(secret, body),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as { event?: string; builds?: Build[]; error?: string } };
}
