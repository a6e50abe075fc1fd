/**
 * Sources against git itself (docs/docs-hosting.md "Registering a repository", "Security model"): with local sources
 * off, as on a PostgreSQL deployment, no source that points at the service's own network makes git connect there,
 * however it is written (curl's URL parser is not WHATWG's), at registration or at a later fetch; the addresses git is
 * pinned to are the ones it connects to. A TCP listener on 127.0.0.1 and ::1 counts every connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitError, GitRepository } from '../../server/docs-hosting/git.ts';
import { Mirrors } from '../../server/docs-hosting/mirrors.ts';
import { pinnedResolve } from '../../server/docs-hosting/sources.ts';
import { hostingConfig } from '../helpers/hosting.ts';
import { restClient } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

const root = mkdtempSync(join(tmpdir(), 'source-network-'));
/** Where a connection arrived, one entry per connection. */
const arrived: string[] = [];
const listeners: Server[] = [];
let port = 0;

/** Listens on `host` (on `port` when given): every connection is counted and closed at once. */
async function listen(host: string, at = 0): Promise<number> {
  const listener = createServer((socket) => {
    arrived.push(host);
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => listener.once('error', reject).listen(at, host, resolve));
  listeners.push(listener);
  return (listener.address() as { port: number }).port;
}

beforeAll(async () => {
  port = await listen('127.0.0.1');
  await listen('::1', port);
});
beforeEach(() => void arrived.splice(0));
afterAll(async () => {
  await Promise.all(listeners.map((listener) => new Promise((resolve) => listener.close(resolve))));
  rmSync(root, { recursive: true, force: true });
});

/** A host name's addresses as a DNS stand-in answers them: public names, and names pointed inward. */
const DNS: Record<string, string[]> = {
  'public.test': ['140.82.112.3'],
  'public6.test': ['2606:4700::1111'],
  'both.test': ['140.82.112.3', '2606:4700::1111'],
  'mixed.test': ['140.82.112.3', '127.0.0.1'],
  'localhost.test': ['127.0.0.1', '::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'nat64.test': ['64:ff9b::7f00:1'],
  'any.test': ['0.0.0.0'],
};
const resolveHost = async (host: string) => DNS[host] ?? [];

/** Sources a caller could send that lead to the listener, by every parser mismatch and spelling we know. */
const inward = (p: number) => [
  // WHATWG reads a public host, curl reads the text after `@` as the host.
  `https://public.test\\@127.0.0.1:${p}/x.git`,
  `https://140.82.112.3\\@127.0.0.1:${p}/x.git`,
  `https://[2606:4700::1111]\\@127.0.0.1:${p}/x.git`,
  `https://public.test\\\\@127.0.0.1:${p}/x.git`,
  `https://public.test%5C@127.0.0.1:${p}/x.git`,
  `https://public.test%5c%40127.0.0.1:${p}/x.git`,
  `https://public.test%40127.0.0.1:${p}/x.git`,
  `https://public.test%2540127.0.0.1:${p}/x.git`,
  `https://public.test\t@127.0.0.1:${p}/x.git`,
  `https://public.test\n@127.0.0.1:${p}/x.git`,
  `https://public.test\r\n@127.0.0.1:${p}/x.git`,
  `https://public.test @127.0.0.1:${p}/x.git`,
  `https://public.test#@127.0.0.1:${p}/x.git`,
  `https://public.test?@127.0.0.1:${p}/x.git`,
  `https://public.test/@127.0.0.1:${p}/x.git`,
  `https://public.test:443@127.0.0.1:${p}/x.git`,
  `https://user@127.0.0.1:${p}/x.git`,
  `https://127.0.0.1:${p}@public.test/x.git`,
  `https://@127.0.0.1:${p}/x.git`,
  `\thttps://127.0.0.1:${p}/x.git`,
  `https://127.0.0.1:${p}/x.git\n`,
  // Loopback however it is written: numeric forms, encodings, IPv6 literals carrying it.
  `https://127.0.0.1:${p}/x.git`,
  `https://2130706433:${p}/x.git`,
  `https://0x7f.1:${p}/x.git`,
  `https://0x7f000001:${p}/x.git`,
  `https://0177.0.0.1:${p}/x.git`,
  `https://127.1:${p}/x.git`,
  `https://127.0.0.%31:${p}/x.git`,
  `https://%31%32%37.0.0.1:${p}/x.git`,
  `https://0.0.0.0:${p}/x.git`,
  `https://0:${p}/x.git`,
  `https://[::1]:${p}/x.git`,
  `https://[0:0:0:0:0:0:0:1]:${p}/x.git`,
  `https://[::]:${p}/x.git`,
  `https://[::ffff:127.0.0.1]:${p}/x.git`,
  `https://[::ffff:7f00:1]:${p}/x.git`,
  `https://[::127.0.0.1]:${p}/x.git`,
  `https://[64:ff9b::127.0.0.1]:${p}/x.git`,
  `https://[::1%25lo]:${p}/x.git`,
  // Names that resolve inward, all or partly.
  `https://localhost.test:${p}/x.git`,
  `https://mixed.test:${p}/x.git`,
  `https://mapped.test:${p}/x.git`,
  `https://nat64.test:${p}/x.git`,
  `https://any.test:${p}/x.git`,
  `https://nowhere.test:${p}/x.git`,
];

describe('with local sources off (a PostgreSQL deployment)', () => {
  it('git does reach the listener when handed its address (the control for what follows)', async () => {
    const git = new GitRepository(join(root, 'control.git'));
    await expect(git.sync(`https://127.0.0.1:${port}/x.git`)).rejects.toBeInstanceOf(GitError);
    await expect(new GitRepository(join(root, 'control6.git')).sync(`https://[::1]:${port}/x.git`)).rejects.toBeInstanceOf(GitError);
    expect(arrived).toEqual(['127.0.0.1', '::1']);
  });

  it('no source pointing inward is accepted or fetched: the listener receives nothing', async () => {
    const mirrors = new Mirrors(join(root, 'mirrors'), { allowLocal: false, resolveHost });
    const outcomes = [];
    for (const source of inward(port)) {
      // A source registered before these rules is checked again at each fetch.
      const fetched = await mirrors.sync('rebound', source).catch((error: unknown) => error);
      outcomes.push({ source, problem: await mirrors.sourceProblem(source), fetched });
    }
    expect(arrived).toEqual([]);
    for (const { source, problem, fetched } of outcomes) {
      expect(problem, JSON.stringify(source)).toEqual(expect.any(String));
      expect(fetched, JSON.stringify(source)).toMatchObject({ message: 'git fetch refused', stderr: problem });
    }
  });

  it('hosts that resolve to public addresses only, IPv4 or IPv6, are accepted (every IPv4 address was refused before)', async () => {
    const mirrors = new Mirrors(join(root, 'mirrors'), { allowLocal: false, resolveHost });
    for (const source of ['https://public.test/acme/widgets.git', 'https://public6.test/acme/widgets.git', 'https://both.test:8443/acme/widgets', 'https://140.82.112.3/acme/widgets.git', 'https://[2606:4700::1111]/acme/widgets.git', 'https://[::ffff:140.82.112.3]/acme/widgets.git']) {
      expect(await mirrors.sourceProblem(source), source).toBeUndefined();
    }
    expect(await mirrors.sourceProblem('https://mixed.test/x.git')).toBe('The host mixed.test is not a public address');
    expect(await mirrors.sourceProblem('https://[::1]/x.git')).toBe('The host [::1] is not a public address');
    expect(await mirrors.sourceProblem('https://nowhere.test/x.git')).toBe('The host nowhere.test cannot be resolved');
  });

  it('registering over the API: each such source is 422 with details.source, nothing is stored, the listener receives nothing', { timeout: 60_000 }, async () => {
    let server: TestServer | undefined;
    try {
      server = await startTestServer({ rateLimits: 'off', docs: hostingConfig({ allowLocalSources: false }) });
      const rest = restClient(server.url, (await createOrganization(server)).apiKey);
      const answers = [];
      for (const [n, source] of inward(port).entries()) {
        const refused = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: `inward-${n}`, source });
        answers.push({ source, answer: [refused.status, refused.body.error, refused.body.details?.source], stored: (await rest('GET', `/api/docs/repositories/acme/inward-${n}`)).status });
      }
      expect(arrived).toEqual([]);
      for (const { source, answer, stored } of answers) {
        expect(answer, JSON.stringify(source)).toEqual([422, 'VALIDATION_ERROR', expect.not.stringMatching(/^Not a git repository/)]);
        expect(stored).toBe(404);
      }
      const backslash = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'x', source: `https://140.82.112.3\\@127.0.0.1:${port}/x.git` });
      expect(backslash.body.details).toEqual({ source: 'Must not contain whitespace or backslashes' });
      const at = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'x', source: `https://140.82.112.3@127.0.0.1:${port}/x.git` });
      expect(at.body.details).toEqual({ source: 'Must not contain @ (no user names or credentials: only public repositories can be registered)' });
      const hex = await rest('POST', '/api/docs/repositories', { owner: 'acme', repo: 'x', source: `https://0x7f.1:${port}/x.git` });
      expect(hex.body.details).toEqual({ source: 'The host 127.0.0.1 is not a public address' });
    } finally {
      await server?.destroy();
    }
    expect(arrived).toEqual([]);
  });
});

describe('the addresses git is pinned to (http.curloptResolve)', () => {
  const sync = (name: string, url: string, addresses: string[]) => new GitRepository(join(root, `${name}.git`)).sync(url, { resolve: pinnedResolve(new URL(url), addresses) }).catch(() => {});

  it('a host name goes to the addresses checked, IPv4 or IPv6 (in brackets), never to what DNS says then', async () => {
    await sync('pinned4', `https://repo.test:${port}/x.git`, ['127.0.0.1']);
    await sync('pinned6', `https://repo.test:${port}/x.git`, ['::1']);
    expect(arrived).toEqual(['127.0.0.1', '::1']);
  });

  it('an IPv6 literal is reached directly (a resolve entry with an IPv6 host is malformed: curl refused to run)', async () => {
    await sync('literal6', `https://[::1]:${port}/x.git`, ['::1']);
    await sync('literal4', `https://127.0.0.1:${port}/x.git`, ['127.0.0.1']);
    expect(arrived).toEqual(['::1', '127.0.0.1']);
  });
});
