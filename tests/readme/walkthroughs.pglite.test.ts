/**
 * The README's walk-throughs, executed as a new user would run them (collected only on the embedded database: the
 * quick start is the embedded default, and the server started here never sees DATABASE_URL).
 *
 * A fresh copy of the repository (a `git clone` of this checkout: committed files only, so commit README edits
 * before running this; node_modules is linked, not installed) runs `npm start`'s command with the README's
 * defaults: no DATA_DIR (./data inside the copy), only PORT set to a free port. Then, from README.md's current
 * text: the quick start's claims (the log says where the development key is, the links answer), the curl
 * examples (each status their comments promise, created resources listed, updates visible), the documentation
 * site and hosting walk-through (`npm run docs -- ...`, the site served with its pages), `npm run example`, the
 * public curl, and `npm run org:create` with the server stopped. A command whose comment says `Ctrl+C stops` (the
 * live preview) runs until the URL it prints answers, then gets Ctrl+C's SIGINT. Not run: `npm install` (linked)
 * and `npm test` (this suite), nor the TypeScript snippets (fragments, not programs).
 *
 * What a user substitutes is substituted: the port (in URLs; DOCS_SERVER and MARKETPLACE_URL for the CLIs, which
 * default to the README's port) and `<orgId>`/`<apiKey>` placeholders, read from data/dev-organization.json as the
 * README says. Commands run with `bash -c` in the copy, with a user's PATH (no node_modules/.bin: `node` is the
 * system's, `npm run` brings the project's Node 24).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlSteps, fencedBlocks, inlineCode, localLinks, placeholders, shellCommands, type FencedBlock } from './markdown.ts';
import { freePort } from '../../scripts/lib/free-port.ts';

const root = new URL('../..', import.meta.url).pathname;
const MINUTE = 60_000;

// ---- processes --------------------------------------------------------------------------------------------------

interface Run {
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Commands running now, each in a process group of its own (npm, sh and node under it), killed whole if left over. */
const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** A user's environment: their PATH without any node_modules/.bin, nothing of the test run's own settings. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const kept = ['HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TMPDIR', 'TZ', 'CI', 'ASTRO_TELEMETRY_DISABLED', 'SCARF_ANALYTICS'];
  const env: NodeJS.ProcessEnv = {};
  for (const name of kept) if (process.env[name] !== undefined) env[name] = process.env[name];
  env.PATH = (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
    .split(':')
    .filter((dir) => dir && !dir.includes('node_modules'))
    .join(':');
  // Who commits in `git init`-ed folders (a user has this configured); npm asks no registry about updates.
  Object.assign(env, {
    GIT_AUTHOR_NAME: 'README Reader',
    GIT_AUTHOR_EMAIL: 'reader@example.com',
    GIT_COMMITTER_NAME: 'README Reader',
    GIT_COMMITTER_EMAIL: 'reader@example.com',
    npm_config_update_notifier: 'false',
  });
  return { ...env, ...extra };
}

/** `bash -c command` in the copy; resolves when it ends (its whole process group is killed after `timeoutMs`). */
function sh(command: string, { env = userEnv(), cwd = copy, timeoutMs = 5 * MINUTE }: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => {
    stderr += `\n[walk-through test: killed after ${timeoutMs / 1000} s]`;
    killGroup(child, 'SIGKILL');
  }, timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ command, code, signal, stdout, stderr });
    });
  });
}

const tail = (text: string, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** Fails with everything a reader needs: the command, its exit, its output, and the server's last lines. */
function fail(what: string, run?: Run): never {
  const parts = [what];
  if (run) parts.push(`$ ${run.command}`, `exit: ${run.signal ?? run.code}`, `stdout:\n${tail(run.stdout)}`, `stderr:\n${tail(run.stderr)}`);
  const logLines = tail(serverLog, 15)
    .split('\n')
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
  parts.push(`server log (last lines):\n${logLines.join('\n')}`);
  throw new Error(parts.join('\n'));
}

function expectSuccess(run: Run, what: string) {
  if (run.code !== 0) fail(`${what}: exited ${run.signal ?? run.code}, the README implies it succeeds`, run);
}

async function get(url: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(url, { redirect: 'follow' });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

const htmlTitle = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

// ---- the copy and its server ------------------------------------------------------------------------------------

let work: string;
let copy: string;
let readme: string;
/** The README's port (its configuration table's PORT default) and ours. */
let readmePort: string;
let port: number;
let base: string;
let server: ChildProcess | undefined;
let serverExit: Promise<number | NodeJS.Signals | null> | undefined;
let serverLog = '';
let devOrganization: { orgId: string; apiKey: string };

/** A command of the README as the user types it here: our port for the README's, placeholders filled in. */
function asTyped(command: string): string {
  const typed = command
    .replaceAll(`localhost:${readmePort}`, `localhost:${port}`)
    .replaceAll(`127.0.0.1:${readmePort}`, `127.0.0.1:${port}`)
    .replaceAll('<orgId>', devOrganization.orgId)
    .replaceAll('<apiKey>', devOrganization.apiKey)
    .replaceAll('<API key>', devOrganization.apiKey);
  const left = placeholders(typed);
  if (left.length > 0) throw new Error(`README command with ${left.join(', ')} that the README does not say how to fill in:\n${command}`);
  return typed;
}

/** The CLIs default to the README's port; a user on another port points them at it like this. */
const cliEnv = () => userEnv({ DOCS_SERVER: base, MARKETPLACE_URL: base });

async function stopServer() {
  if (!server || !serverExit) return undefined;
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
  const killer = setTimeout(() => server?.kill('SIGKILL'), 30_000);
  const how = await serverExit;
  clearTimeout(killer);
  return how;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tp-readme-'));
  copy = join(work, 'typed-platform');
  if (existsSync(join(root, '.git'))) {
    const clone = await sh(`git clone --quiet ${JSON.stringify(root)} ${JSON.stringify(copy)}`, { env: process.env, cwd: work });
    if (clone.code !== 0) throw new Error(`git clone failed:\n${clone.stderr}`);
    const changed = await sh('git --no-optional-locks status --porcelain -- README.md', { env: process.env, cwd: root });
    if (changed.stdout.trim()) console.warn('README.md has uncommitted changes: this test runs the committed README (commit to test the edits).');
  } else {
    // Not a git checkout (a copy such as Stryker's sandbox): the files as they are, without what a clone lacks.
    const skip = new Set(['node_modules', 'data', '.git', '.stryker-tmp', 'reports', '.astro', 'dist', 'my-docs']);
    cpSync(root, copy, { recursive: true, filter: (source) => !skip.has(source.slice(source.lastIndexOf('/') + 1)) || source === root });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  readme = readFileSync(join(copy, 'README.md'), 'utf8');
  readmePort = /\|\s*`PORT`\s*\|\s*`(\d+)`/.exec(readme)?.[1] ?? '3000';

  // `npm start` is `node server/main.ts`; under Node 24 (what npm run would pick from node_modules/.bin).
  const start = (JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const startArgs = /^node (.+)$/.exec(start)?.[1]?.split(/\s+/);
  if (!startArgs) throw new Error(`npm start is no longer "node <file>": ${start}`);
  port = await freePort();
  base = `http://localhost:${port}`;
  server = spawn(process.execPath, startArgs, { cwd: copy, env: userEnv({ PORT: String(port) }), stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  serverExit = new Promise((resolve) =>
    server!.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  for (let waited = 0; ; waited += 250) {
    if (server.exitCode !== null || server.signalCode !== null) fail('the server exited before answering /health');
    if (waited > 3 * MINUTE) fail('the server did not answer /health within 3 minutes');
    const health = await fetch(`${base}/health`).catch(() => undefined);
    if (health?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  devOrganization = JSON.parse(readFileSync(join(copy, 'data', 'dev-organization.json'), 'utf8')) as typeof devOrganization;
}, 5 * MINUTE);

afterAll(async () => {
  await stopServer();
  for (const child of running) killGroup(child, 'SIGKILL');
  if (work) {
    try {
      unlinkSync(join(copy, 'node_modules')); // the link, never what it points to
    } catch {
      // not linked yet
    }
    rmSync(work, { recursive: true, force: true });
  }
}, 2 * MINUTE);

interface CurlCall {
  method: string;
  url: URL;
  /** The -d body, if any. */
  data: string | undefined;
  status: number;
  text: string;
}

/**
 * Runs `script` (README text as typed) in bash with every curl call recorded on its way (arguments, status,
 * body); the calls' output still goes to stdout as the user sees it.
 */
async function runRecordingCurl(script: string): Promise<{ run: Run; calls: CurlCall[] }> {
  const dir = mkdtempSync(join(work, 'curl-'));
  const recorder = `__call=0
curl() {
  __call=$((__call + 1)); local record="$WALKTHROUGH_CALLS/$__call"
  printf '%s\\0' "$@" > "$record.args"
  command curl "$@" -o "$record.body" -w '%{http_code}' > "$record.status"; local rc=$?
  cat "$record.body" 2>/dev/null; return $rc
}
`;
  const run = await sh(recorder + script, { env: userEnv({ WALKTHROUGH_CALLS: dir }) });
  const count = readdirSync(dir).filter((f) => f.endsWith('.args')).length;
  const calls = Array.from({ length: count }, (_, i) => {
    const record = join(dir, String(i + 1));
    const args = readFileSync(`${record}.args`, 'utf8').split('\0').slice(0, -1);
    let method: string | undefined;
    let data: string | undefined;
    let target: string | undefined;
    for (let a = 0; a < args.length; a++) {
      if (args[a] === '-X' || args[a] === '--request') method = args[++a];
      else if (args[a] === '-d' || args[a] === '--data' || args[a] === '--data-raw') data = args[++a];
      else if (args[a] === '-H' || args[a] === '--header') a++;
      else if (/^(https?:\/\/)?(localhost|127\.0\.0\.1):\d+\//.test(args[a]!)) target = args[a];
    }
    if (!target) fail(`a curl call of the README without a local URL: curl ${args.join(' ')}`, run);
    const status = Number(readFileSync(`${record}.status`, 'utf8'));
    const text = existsSync(`${record}.body`) ? readFileSync(`${record}.body`, 'utf8') : '';
    return { method: method ?? (data === undefined ? 'GET' : 'POST'), url: new URL(target.startsWith('http') ? target : `http://${target}`), data, status, text };
  });
  return { run, calls };
}

// ---- the walk-throughs ------------------------------------------------------------------------------------------

function shBlocks(where: (block: FencedBlock) => boolean, what: string): FencedBlock[] {
  const blocks = fencedBlocks(readme).filter((block) => block.lang === 'sh' && where(block));
  if (blocks.length === 0) throw new Error(`README.md has no sh block ${what}`);
  return blocks;
}

describe('README walk-throughs, run in a fresh copy of the repository', () => {
  it('quick start: npm start on ./data answers /health, says where the development key is and how to print it', async () => {
    expect((await get(`${base}/health`)).status).toBe(200);
    // The embedded database and its development organization live in ./data of the copy (no DATA_DIR set).
    const keyFile = join(copy, 'data', 'dev-organization.json');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(devOrganization.orgId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(devOrganization.apiKey).toMatch(/^rk_[\w-]{43}$/);

    const said = serverLog.split('\n').find((line) => line.includes('dev-organization.json') && line.includes('node -p'));
    if (!said) fail('the log does not say where the development key is (a line naming dev-organization.json and node -p)');
    expect(serverLog).not.toContain(devOrganization.apiKey);
    // The command the log gives prints the key, run as the user runs it (the system's node, in the copy).
    const logged = (JSON.parse(said) as { msg: string }).msg;
    const fromLog = /node -p "[^"]+"/.exec(logged)?.[0];
    if (!fromLog) fail(`no node -p "..." command in the log line: ${logged}`);
    const printed = await sh(fromLog);
    expectSuccess(printed, 'the node -p command of the log');
    expect(printed.stdout.trim()).toBe(devOrganization.apiKey);
    // And the README's own.
    const fromReadme = inlineCode(readme).filter((code) => code.startsWith('node -p') && code.includes('dev-organization.json'));
    expect(fromReadme.length, 'the README says how to print the key (node -p ...)').toBeGreaterThan(0);
    for (const command of fromReadme) {
      const run = await sh(asTyped(command));
      expectSuccess(run, 'the README node -p command');
      expect(run.stdout.trim()).toBe(devOrganization.apiKey);
    }

    const openapi = await get(`${base}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect((JSON.parse(openapi.text) as { openapi: string }).openapi).toMatch(/^3\.1\./);
    const reference = await get(`${base}/reference`);
    expect(reference.status).toBe(200);
    expect(reference.type).toContain('text/html');
  }, 2 * MINUTE);

  it('the curl examples: each call answers what its comment says; created resources are listed, updates shown', async () => {
    const [block] = shBlocks((b) => /curl/i.test(b.heading) && b.text.includes('curl '), 'under a "curl" heading');
    const steps = curlSteps(block!.text);
    const { run, calls } = await runRecordingCurl(asTyped(block!.text));
    expectSuccess(run, 'the curl examples');
    expect(calls.length, 'curl calls made vs curl commands in the numbered steps').toBe(steps.reduce((n, s) => n + s.calls, 0));

    const kinds = { '/employee-resources': 'employees', '/asset-resources': 'assets' } as const;
    type Kind = keyof typeof kinds;
    const model = new Map<Kind, Map<string, Record<string, unknown>>>([
      ['/employee-resources', new Map()],
      ['/asset-resources', new Map()],
    ]);
    /** Every resource made and changed so far is in `items`, with the fields the calls set. */
    const expectListed = (kind: Kind, items: unknown, context: string) => {
      expect(Array.isArray(items), `${context}: a list`).toBe(true);
      for (const [resourceId, fields] of model.get(kind)!) {
        const item = (items as Record<string, unknown>[]).find((i) => i.resourceId === resourceId);
        if (!item) fail(`${context}: ${resourceId}, created earlier, is not listed (a user would think it lost):\n${JSON.stringify(items)}`);
        for (const [field, value] of Object.entries(fields)) {
          const shown = item[field];
          if (value === null) expect(shown ?? null, `${context}: ${resourceId}.${field} cleared`).toBeNull();
          else if (field === 'createdAt') expect(Date.parse(String(shown)), `${context}: ${resourceId}.createdAt`).toBe(Date.parse(String(value)));
          else if (field === 'timezone') expect(String(shown).toLowerCase(), `${context}: ${resourceId}.timezone`).toBe(String(value).toLowerCase());
          else expect(shown, `${context}: ${resourceId}.${field}`).toEqual(value);
        }
      }
    };
    const orgIds = (value: unknown): unknown[] =>
      Array.isArray(value) ? value.flatMap(orgIds) : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => (k === 'orgId' ? [v] : orgIds(v))) : [];

    let call = 0;
    let allListed = 0;
    for (const step of steps) {
      for (let i = 0; i < step.calls; i++) {
        const { method, url, data, status, text } = calls[call++]!;
        const context = `step "${step.description}", call ${call} (${method} ${url.pathname}${url.search})`;
        expect(status, `${context} answered ${text}`).toBe(step.status);
        const body = JSON.parse(text) as Record<string, unknown>;
        for (const orgId of orgIds(body)) expect(orgId, `${context}: orgId`).toBe(devOrganization.orgId);
        const sent = data === undefined ? {} : (JSON.parse(data) as Record<string, unknown>);
        const kind = Object.keys(kinds).find((k) => url.pathname === k || url.pathname.startsWith(`${k}/`)) as Kind | undefined;
        if (kind && method === 'POST' && status === 201) model.get(kind)!.set(String(sent.resourceId), sent);
        else if (kind && method === 'PUT' && status === 200) Object.assign(model.get(kind)!.get(decodeURIComponent(url.pathname.slice(kind.length + 1))) ?? {}, sent);
        else if (kind && method === 'GET') expectListed(kind, body, context);
        else if (url.pathname === '/all-resources' && method === 'GET') {
          for (const [k, key] of Object.entries(kinds)) expectListed(k as Kind, body[key], `${context} ${key}`);
          allListed++;
        }
      }
    }
    expect(model.get('/employee-resources')!.size + model.get('/asset-resources')!.size, 'resources the examples create').toBeGreaterThan(0);
    expect(allListed, 'the examples list all resources').toBeGreaterThan(0);
  }, 2 * MINUTE);

  it('documentation sites and hosting: init, dev, check, build, then repo add and publish serve the site with its pages', async () => {
    const commands = shBlocks((b) => b.text.includes('npm run docs --'), 'with npm run docs').flatMap((b) => shellCommands(b.text));
    let site: { dir: string; name: string; pages: { href: string; title: string }[] } | undefined;
    let published = '';
    const expectPage = (html: string, page: { title: string }, context: string) => {
      expect(htmlTitle(html), `${context}: <title>`).toContain(page.title);
      expect(htmlTitle(html), `${context}: <title>`).toContain(site!.name);
    };
    for (const { command, comment } of commands) {
      const typed = asTyped(command);
      if (/Ctrl\+C/.test(comment)) {
        // Runs until interrupted: wait for the URL it prints, read it, then Ctrl+C (SIGINT to its process group).
        const child = spawn('bash', ['-c', typed], { cwd: copy, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        running.add(child);
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const ended = new Promise<void>((resolve) => child.once('close', () => (running.delete(child), resolve())));
        let url: string | undefined;
        for (let waited = 0; !url; waited += 250) {
          url = /https?:\/\/[^\s)'"]+/.exec(output.replace(/^>.*$/gm, ''))?.[0];
          if (child.exitCode !== null) fail(`${command}: ended before printing a URL:\n${output}`);
          if (waited > 3 * MINUTE) fail(`${command}: printed no URL within 3 minutes:\n${output}`);
          if (!url) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        try {
          const preview = await get(url);
          expect(preview.status, `${command}: ${url}`).toBe(200);
          if (site) expectPage(preview.text, site.pages[0]!, `${command}: ${url}`);
        } finally {
          killGroup(child, 'SIGINT');
          const killer = setTimeout(() => killGroup(child, 'SIGKILL'), 30_000);
          await ended;
          clearTimeout(killer);
        }
        continue;
      }
      const run = await sh(typed, { env: cliEnv() });
      expectSuccess(run, command);
      let match: RegExpExecArray | null;
      if ((match = /npm run docs -- init (\S+)/.exec(typed))) {
        const dir = join(copy, match[1]!);
        const config = JSON.parse(readFileSync(join(dir, 'docs.json'), 'utf8')) as { name: string };
        const hrefs: string[] = [];
        const collect = (value: unknown): void => {
          if (Array.isArray(value)) value.forEach(collect);
          else if (value && typeof value === 'object') {
            const { href } = value as { href?: unknown };
            if (typeof href === 'string' && href.startsWith('/')) hrefs.push(href);
            Object.values(value).forEach(collect);
          }
        };
        collect(config);
        // Each page's title is its frontmatter's (what <title> shows).
        const pages = [...new Set(hrefs)].map((href) => {
          const stem = href === '/' ? 'index' : href.slice(1);
          const file = [`${stem}.mdx`, `${stem}.md`, `${stem}/index.mdx`].map((f) => join(dir, f)).find((f) => existsSync(f));
          if (!file) fail(`${command}: no page file for ${href}`);
          return { href, title: /^title:\s*(.+)$/m.exec(readFileSync(file, 'utf8'))?.[1]?.trim() ?? '' };
        });
        expect(pages.length, `${command}: pages in its docs.json`).toBeGreaterThan(0);
        site = { dir, name: config.name, pages };
      } else if ((match = /npm run docs -- build (\S+) --out (\S+)/.exec(typed))) {
        const out = join(copy, match[2]!);
        for (const page of site!.pages) {
          const stem = page.href === '/' ? '' : page.href.slice(1);
          const file = [join(out, stem, 'index.html'), join(out, `${stem}.html`)].find((f) => existsSync(f));
          if (!file) fail(`${command}: ${page.href} was not built into ${out}`, run);
          expectPage(readFileSync(file, 'utf8'), page, `${command}: ${page.href}`);
        }
      } else if ((match = /npm run docs -- repo add (\S+)/.exec(typed))) {
        expect(run.stdout, command).toContain(`registered ${match[1]}`);
      } else if ((match = /npm run docs -- publish (\S+)/.exec(typed))) {
        const said = /published (\d+) pages: (\S+)/.exec(run.stdout);
        if (!said) fail(`${command}: does not say it published`, run);
        expect(Number(said[1]), `${command}: pages published`).toBe(site!.pages.length);
        expect(said[2]).toBe(`${base}/${match[1]}`);
        for (const page of site!.pages) {
          const url = `${base}/${match[1]}${page.href === '/' ? '' : page.href}`;
          const answer = await get(url);
          expect(answer.status, url).toBe(200);
          expectPage(answer.text, page, url);
        }
        published = match[1]!;
      }
    }
    expect(site, 'the walk-through makes a site (npm run docs -- init)').toBeDefined();
    expect(published, 'the walk-through publishes it (npm run docs -- publish)').not.toBe('');
  }, 15 * MINUTE);

  it('npm run example walks an order to its end; the public curl answers', async () => {
    expect(inlineCode(readme), 'the README names npm run example').toContain('npm run example');
    const run = await sh('npm run example', { env: cliEnv() });
    expectSuccess(run, 'npm run example');
    expect(run.stdout).toMatch(/order is COMPLETED/);
    expect(run.stdout).toMatch(/Done: the order is paid, delivered and reviewed/);

    const publicCalls = inlineCode(readme).filter((code) => code.startsWith('curl '));
    expect(publicCalls.length, 'inline curl commands').toBeGreaterThan(0);
    for (const command of publicCalls) {
      const { run: answer, calls } = await runRecordingCurl(asTyped(command));
      expectSuccess(answer, command);
      expect(calls.length, command).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.status >= 200 && call.status < 300, `${command} answered ${call.status} ${call.text}`).toBe(true);
        if (/^\/api\//.test(call.url.pathname)) expect(() => JSON.parse(call.text), `${command}: JSON`).not.toThrow();
      }
    }
  }, 10 * MINUTE);

  it('every localhost link of the README answers once the walk-throughs ran', async () => {
    const links = localLinks(readme);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const answer = await get(asTyped(link));
      expect(answer.status, link).toBe(200);
    }
  }, 2 * MINUTE);

  it('npm run org:create, with the server stopped as the README says, prints a new organization and key', async () => {
    expect(await stopServer()).toBe(0);
    expect(serverLog).toMatch(/"msg":"stopped"/);
    const [block] = shBlocks((b) => b.text.includes('org:create'), 'with org:create');
    const expected = block!.text
      .split('\n')
      .filter((line) => /^#\s*\{/.test(line))
      .flatMap((line) => [...line.matchAll(/"(\w+)":/g)].map((m) => m[1]!));
    expect(expected.length, 'the README shows what org:create prints').toBeGreaterThan(0);
    for (const { command } of shellCommands(block!.text)) {
      const run = await sh(asTyped(command));
      expectSuccess(run, command);
      const line = run.stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) fail(`${command}: printed no JSON line`, run);
      const printed = JSON.parse(line) as Record<string, string>;
      expect(Object.keys(printed).sort()).toEqual([...expected].sort());
      expect(printed.orgId).toMatch(/^[0-9a-f-]{36}$/);
      expect(printed.orgId).not.toBe(devOrganization.orgId);
      expect(printed.apiKey).toMatch(/^rk_[\w-]{43}$/);
    }
  }, 5 * MINUTE);
});
