/**
 * The `docs` CLI as a package, used the way an author outside this repository would: `npm pack` in sites/, the
 * tarball installed into a fresh project in the OS temp folder, and `npx docs` run there: init, check, build and
 * dev on the Node the project pins (Astro's floor and above), and a clear refusal on an older Node.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, systemNode } from './consumer-project.ts';
import { freePort } from '../../scripts/lib/free-port.ts';

const SITES = join(import.meta.dirname, '..', '..', 'sites');
let work: string;
let project: string;
/**
 * A user's environment: PATH with the Node running these tests first (a current Node), and none of vitest's own
 * variables (Astro's dev server behaves differently under VITEST).
 */
const currentNode = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
};

// The temp folder is the test's own: the CLI's default build caches go there, and go with it.
const docs = (args: string[]) => run('npx', ['--no-install', 'docs', ...args], project, { ...currentNode, ASTRO_TELEMETRY_DISABLED: '1', TMPDIR: work });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'docs-cli-package-'));
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-docs', private: true }));
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', work], SITES, currentNode);
  expect(packed.status, packed.stderr).toBe(0);
  const tarball = join(work, packed.stdout.trim().split('\n').pop()!);
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], project, currentNode);
  expect(installed.status, installed.stderr).toBe(0);
}, 360_000);
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

describe('the packed docs CLI', () => {
  it('holds the bundled CLI, the Astro project and no tests', () => {
    const installed = join(project, 'node_modules', '@typed-platform', 'docs');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { bin: Record<string, string>; engines: { node: string } };
    expect(manifest.bin).toEqual({ docs: 'bin/docs.js' });
    expect(manifest.engines.node).toBe('>=22.12');
    for (const file of ['bin/docs.js', 'dist/docs.js', 'dist/social-worker.js', 'dist/astro-worker.js', 'src/pages/[...slug].astro', 'README.md']) expect(existsSync(join(installed, file)), file).toBe(true);
    expect(readdirSync(installed)).not.toContain('tests');
  });

  it('depends on every package its bundle imports, at the versions this repository runs', () => {
    const installed = join(project, 'node_modules', '@typed-platform', 'docs');
    const { dependencies } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const root = JSON.parse(readFileSync(join(SITES, '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    for (const [name, version] of Object.entries(dependencies)) expect(version, name).toBe(root.dependencies[name]);
    const imported = new Set<string>();
    for (const file of readdirSync(join(installed, 'dist'))) {
      const code = readFileSync(join(installed, 'dist', file), 'utf8');
      for (const [, specifier = ''] of code.matchAll(/(?<![.\w$])(?:from|import)\s*\(?\s*"([^".][^"]*)"/g)) {
        if (!specifier.startsWith('node:')) imported.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    for (const name of imported) expect(dependencies, name).toHaveProperty([name]);
  });

  it('init, check --strict and build in a folder that is not this repository', async () => {
    const init = await docs(['init', 'site']);
    expect([init.status, init.stdout]).toEqual([0, expect.stringContaining('created site/docs.json')]);
    const check = await docs(['check', 'site', '--strict']);
    expect([check.status, check.stdout.trim()]).toEqual([0, 'No problems found.']);
    const build = await docs(['build', 'site', '--out', 'out']);
    expect(build.status, build.stderr).toBe(0);
    expect(build.stdout).toMatch(/Built \d+ pages into .*out in [\d.]+ s/);
    const home = readFileSync(join(project, 'out', 'index.html'), 'utf8');
    expect(home).toMatch(/<title>[^<]+<\/title>/);
    expect(existsSync(join(project, 'out', 'pagefind'))).toBe(true);
    expect(readdirSync(join(project, 'out', '_social')).length).toBeGreaterThan(0); // drawn by the bundled worker
  });

  it('dev serves a live preview of the site', { timeout: 120_000 }, async () => {
    expect((await docs(['init', 'preview'])).status).toBe(0);
    const port = await freePort();
    const dev = spawn('npx', ['--no-install', 'docs', 'dev', 'preview', '--port', String(port)], { cwd: project, env: { ...currentNode, ASTRO_TELEMETRY_DISABLED: '1' }, detached: true });
    let output = '';
    dev.stdout.on('data', (chunk: Buffer) => (output += chunk));
    dev.stderr.on('data', (chunk: Buffer) => (output += chunk));
    try {
      // Until the preview is up (connection refused, then Astro's first answers while it syncs), twice a second.
      let page = { status: 0, text: '' };
      for (let i = 0; i < 120 && page.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        page = await fetch(`http://127.0.0.1:${port}/quickstart`).then(async (res) => ({ status: res.status, text: await res.text() }), () => page);
      }
      expect(page.status, output).toBe(200);
      expect(page.text).toMatch(/<title>Quickstart/);
    } finally {
      process.kill(-dev.pid!, 'SIGTERM');
    }
  });

  it('on a Node older than Astro needs, says so clearly instead of failing obscurely', async () => {
    const wrapper = join(project, 'node_modules', '@typed-platform', 'docs', 'bin', 'docs.js');
    // The wrapper's check, whatever Node this machine has: run it under the same version check an old Node would fail.
    const old = await run(process.execPath, ['--input-type=module', '--eval', `Object.defineProperty(process.versions, 'node', { value: '20.19.0' }); await import(${JSON.stringify(wrapper)});`], project);
    expect(old.status).toBe(1);
    expect(old.stderr).toContain("docs needs Node 22.12 or newer (Astro's floor); this is Node 20.19.0.");
    // And on the machine's own Node, whichever it is.
    const system = systemNode();
    const version = (await run(system, ['--version'], project)).stdout.trim().slice(1);
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const result = await run(system, [wrapper, 'init', 'on-system-node'], project);
    if (major < 22 || (major === 22 && minor < 12)) expect([result.status, result.stderr]).toEqual([1, expect.stringContaining(`this is Node ${version}`)]);
    else expect(result.status).toBe(0);
  });
});

