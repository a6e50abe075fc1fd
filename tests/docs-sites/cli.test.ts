/**
 * The `docs` CLI as authors run it: a real process (`node sites/cli/docs.ts`), real folders, exit codes and
 * output. What each check reports is pinned in tests/docs-sites/check.test.ts; here, that the CLI shows it and fails.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runDocsCli } from '../helpers/docs.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-cli-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const docs = runDocsCli;

describe('docs init', () => {
  it('writes a starter docs.json and pages that pass docs check --strict, and never overwrites', async () => {
    const dir = tempDir();
    const init = await docs('init', dir);
    expect(init.code).toBe(0);
    for (const file of ['docs.json', 'index.mdx', 'quickstart.mdx']) expect(existsSync(join(dir, file))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'docs.json'), 'utf8')).name).toBe('My Project');

    const check = await docs('check', dir, '--strict');
    expect(check.stderr).toBe('');
    expect(check.stdout).toContain('No problems found.');
    expect(check.code).toBe(0);

    writeFileSync(join(dir, 'index.mdx'), '# mine\n');
    const again = await docs('init', dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('docs.json, index.mdx, quickstart.mdx already exist');
    expect(readFileSync(join(dir, 'index.mdx'), 'utf8')).toBe('# mine\n');
  });
});

describe('docs init --layout docs-page', () => {
  it("writes docs.page's layout (docs.json here, the pages in docs/), which passes docs check --strict at the same routes", async () => {
    const dir = tempDir();
    const init = await docs('init', dir, '--layout', 'docs-page');
    expect(init.code).toBe(0);
    for (const file of ['docs.json', 'docs/index.mdx', 'docs/quickstart.mdx']) expect(existsSync(join(dir, file)), file).toBe(true);
    for (const file of ['index.mdx', 'quickstart.mdx']) expect(existsSync(join(dir, file)), file).toBe(false);
    expect(readFileSync(join(dir, 'docs', 'index.mdx'), 'utf8')).toContain('Edit `docs/index.mdx`');

    const check = await docs('check', dir, '--strict');
    expect(check.stderr).toBe('');
    expect(check.stdout).toContain('No problems found.');
    expect(check.code).toBe(0);

    // Without its home page the site says so (one warning), and --strict fails.
    rmSync(join(dir, 'docs', 'index.mdx'));
    const headless = await docs('check', dir, '--strict');
    expect(headless.code).toBe(1);
    expect(headless.stderr).toContain('docs.json:1:1  warning  No home page: add `docs/index.mdx` (the page at `/`)');
    expect(headless.stderr).toContain('1 warning (--strict: warnings fail too)');

    const unknown = await docs('init', tempDir(), '--layout', 'mintlify');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--layout must be plain or docs-page, not mintlify');
  });
});

describe('docs check', () => {
  it('prints each problem with file, line, column and path, a summary, and exits 1 on an error', async () => {
    const { code, stderr } = await docs('check', join(FIXTURES, 'docs-broken'));
    expect(code).toBe(1);
    expect(stderr).toContain('docs.json:4:14  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)');
    expect(stderr).toContain('guides/broken.mdx:7:1  error  not valid MDX, the page shows a notice instead: Expected a closing tag for `<Card>`');
    expect(stderr).toContain("guides/start.mdx:23:1  warning  `import`/`export` statements are not run; removed: import Chart from './chart.js'");
    expect(stderr).toMatch(/\n1 error, \d+ warnings\n$/);
  });

  it('passes with warnings only, and fails on them with --strict', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'docs.json'), '{\n  "name": "Site",\n  "seo": { "noindex": "yes" }\n}\n');
    writeFileSync(join(dir, 'index.mdx'), '# Home\n');
    const lenient = await docs('check', dir);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('docs.json:3:12  warning  seo.noindex  Must be `true` or `false`, not a string (the default `false` is used)');
    const strict = await docs('check', dir, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('(--strict: warnings fail too)');
  });
});

describe('docs build', () => {
  it('builds a site into --out with progress lines and a closing count; again from the build cache, or not with --no-cache', async () => {
    const out = join(tempDir(), 'site');
    const { code, stdout } = await docs('build', join(FIXTURES, 'docs-empty'), '--out', out);
    expect(code).toBe(0);
    // Progress page by page through the long phases (a line at most every tenth when not on a terminal).
    expect(stdout).toMatch(/^compile 0\/2$/m);
    expect(stdout).toMatch(/^compile 2\/2$/m);
    expect(stdout).toMatch(/^render 2\/2$/m);
    expect(stdout).toMatch(/Built \d+ pages into .* in \d+\.\d s/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<title>');
    expect(existsSync(join(out, 'llms.txt'))).toBe(true);
    // Again: every page from the build cache, nothing compiled; --no-cache renders every page. The same pages.
    const [again, uncached] = [join(tempDir(), 'again'), join(tempDir(), 'uncached')];
    const second = await docs('build', join(FIXTURES, 'docs-empty'), '--out', again);
    expect(second.stdout).not.toMatch(/^compile/m);
    expect(second.stdout).toMatch(/Built 2 pages into .* \(3 of 3 HTML files from the build cache\)/);
    const third = await docs('build', join(FIXTURES, 'docs-empty'), '--out', uncached, '--no-cache');
    expect(third.stdout).toMatch(/^compile 2\/2$/m);
    expect(third.stdout).not.toContain('build cache');
    for (const copy of [again, uncached]) expect(readFileSync(join(copy, 'index.html'), 'utf8')).toBe(readFileSync(join(out, 'index.html'), 'utf8'));
  });

  it('refuses a site with errors (here a page that is not MDX) and writes nothing; warnings alone do not stop it', async () => {
    const out = join(tempDir(), 'site');
    const { code, stderr } = await docs('build', join(FIXTURES, 'docs-broken'), '--out', out);
    expect(code).toBe(1);
    expect(stderr).toContain('guides/broken.mdx:7:1  error  not valid MDX');
    expect(stderr).toContain('Build failed: The site has errors. Nothing was written.');
    expect(existsSync(join(out, 'index.html'))).toBe(false);
  });

  it('refuses a folder with no pages (an empty site is never a success), saying what a site is', async () => {
    const source = tempDir();
    writeFileSync(join(source, 'docs.json'), '{ "name": "Nothing yet" }');
    const out = join(tempDir(), 'site');
    const { code, stderr } = await docs('build', source, '--out', out);
    expect(code).toBe(1);
    expect(stderr).toContain(`Build failed: No pages in ${source}: a site is a docs.json (or docs.yaml) and .mdx or .md pages beside it. Nothing was written.`);
    expect(existsSync(join(out, 'index.html'))).toBe(false);
  });

  it('with --strict, refuses a site with problems and writes nothing', async () => {
    const out = join(tempDir(), 'site');
    const { code, stderr } = await docs('build', join(FIXTURES, 'docs-broken'), '--out', out, '--strict');
    expect(code).toBe(1);
    expect(stderr).toContain('theme.primary');
    expect(stderr).toMatch(/Build failed: The site has \d+ problem\(s\) and the build is strict\. Nothing was written\./);
    expect(existsSync(join(out, 'index.html'))).toBe(false);
  });
});

describe('usage', () => {
  it('exits 2 with the usage on an unknown command, an unknown option or a missing --out', async () => {
    for (const args of [['publish'], ['check', '--fast'], ['build', '.'], ['dev', '.', '--port', 'x'], []]) {
      const { code, stderr } = await docs(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain('Usage:');
    }
  });
});
