/**
 * Documentation sites: our renderer (sites/builder, Astro in-process) next to Astro Starlight building the same
 * generated pages, and the gzipped weight of a typical page of each built site.
 *
 * Content: for each size (100 and 1,000 pages) a generated docs folder: docs.json whose sidebar lists every
 * page in groups of 25, and MDX pages of about 5 kB (frontmatter title and description, h2/h3 headings,
 * paragraphs, bullet and numbered lists, two fenced code blocks, a table, a `<Note>` callout and about ten
 * internal links to other pages). The generator is seeded: every run writes the same bytes.
 *
 * Starlight gets the same pages in a generated project (astro.config.mjs with the starlight integration and
 * the same sidebar as `{ label, items: [{ label, link }] }`, src/content.config.ts with docsLoader/docsSchema,
 * pages copied to src/content/docs). The only change to a copied page is one line after its frontmatter:
 * `import { Aside as Note } from '@astrojs/starlight/components';`, so `<Note>` renders as Starlight's
 * note aside. Both builds run Pagefind (Starlight by default, ours always) and Shiki-class highlighting
 * (Starlight through Expressive Code).
 *
 * What else each build does: ours (buildSite, as `docs build` calls it) also writes llms.txt, a Markdown copy
 * of each page, sitemap.xml, robots.txt and one generated social-preview PNG per page (satori + resvg);
 * Starlight also renders a 404 page (its sitemap is skipped: no `site`). The PNGs are a large share of ours,
 * so the report also derives ours without that phase from buildSite's progress events (not a separate build).
 *
 * Every build runs in a child process of its own (this file with `--child`, working directory the temp dir),
 * cold: fresh source, output and cache dirs in a new temp dir, nothing shared between builds; ours gets a new
 * `cacheDir` (Astro's and Vite's caches, the social-image cache) per build. The Starlight project lives in
 * <tmp>/starlight-N and finds its packages in <tmp>/node_modules, a hard-link copy (`cp -al`, about a second)
 * of this repository's node_modules; its package.json lists astro and @astrojs/starlight as dependencies as
 * a real project's would (Vite bundles Astro packages it finds there). Astro's and Vite's caches
 * (root/node_modules/.astro, .vite) start empty inside each project. Why not a symlink: Astro 7 rewrites
 * module ids whose real path shares no top-level directory with the project root (/work/... vs /tmp/...)
 * into root-relative ones, and the build fails ("No cached compile metadata found").
 *   seconds: wall time from spawning the child to its exit (Node start-up, loading Astro, the build, Pagefind)
 *   peak MB: the highest summed RSS of the child's process tree (the Node process plus Pagefind's binary),
 *            sampled every 250 ms from /proc, and never below the Node process's own exact maximum RSS
 *            (process.resourceUsage().maxRSS, printed by the child at exit)
 * Page weight: the same page (a page in the middle of the 100-page site) in each site: its HTML plus every
 * same-origin stylesheet and script it loads up front (<link rel=stylesheet>, <script src>, <link
 * rel=modulepreload>, and static imports / @imports inside them, followed), each file gzipped on its own with
 * node:zlib level 9. Inline <style>/<script> count as HTML; fonts, images and anything loaded later (the
 * Pagefind index and UI when search opens, dynamic import()) are left out.
 *
 *   node scripts/bench-docs.ts         (or npm run bench -- docs; benchDocs() from scripts/bench.ts)
 *   BENCH_DOCS_KEEP=1                  keeps the temp dir with the sources and built sites
 *   BENCH_DOCS_SIZES=20,50             other page counts (quick checks)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { mulberry32 } from '../server/platform/random.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..');
/** Page counts to build; BENCH_DOCS_SIZES=20,50 overrides them (quick checks). */
const SIZES: readonly number[] = process.env.BENCH_DOCS_SIZES?.split(',').map(Number).filter((n) => n > 0) ?? [100, 1_000];
const GROUP_SIZE = 25;
const SAMPLE_INTERVAL_MS = 250;
/** A build that takes longer than this is killed and reported as failed. */
const BUILD_TIMEOUT_MS = 10 * 60_000;
const RESULT_MARKER = 'BENCH_DOCS_RESULT ';
const SITE_NAME = 'Bench Docs';

// ---- generated content -------------------------------------------------------------------------

export interface GeneratedPage {
  /** Path of the MDX file inside the docs folder: `index.mdx`, `group-01/page-0002.mdx`. */
  file: string;
  /** The page's route: `/`, `/group-01/page-0002`. */
  route: string;
  title: string;
  /** The whole MDX file, frontmatter included. */
  text: string;
}

export interface GeneratedSite {
  pages: GeneratedPage[];
  /** Titles and routes of each sidebar group, in order. */
  groups: { label: string; pages: GeneratedPage[] }[];
}

const TOPICS = [
  'webhooks', 'API keys', 'rate limits', 'pagination', 'error handling', 'organizations', 'agents', 'orders',
  'payments', 'refunds', 'reviews', 'search', 'live events', 'idempotency', 'wallets', 'audit logs',
  'exports', 'imports', 'permissions', 'teams', 'billing', 'sandbox', 'deployments', 'environments',
];
const VERBS = ['Configuring', 'Understanding', 'Migrating', 'Testing', 'Securing', 'Monitoring', 'Scaling', 'Debugging'];
const WORDS = (
  'the request response server client token value field option setting default resource endpoint each when ' +
  'returns contains includes header body query parameter status code page list item order payment wallet agent ' +
  'organization account event message retry limit window second minute cache database record version schema ' +
  'valid invalid missing optional required string number boolean object array timestamp signature key secret ' +
  'before after during until unless only also always never usually often first last next previous new old'
).split(' ');
const IDENTIFIERS = ['timeout', 'retries', 'baseUrl', 'apiKey', 'region', 'pageSize', 'webhookSecret', 'logLevel', 'maxBodyBytes', 'currency'];
const TYPES = ['string', 'number', 'boolean', 'string[]', 'Record<string, string>'];

/** The same seeded pages every run (also what scripts/bench-hosting.ts publishes). */
export function generateSite(count: number): GeneratedSite {
  const rand = mulberry32(20_260_115 + count);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const pages: GeneratedPage[] = [];
  for (let i = 0; i < count; i++) {
    const group = Math.floor(i / GROUP_SIZE) + 1;
    const file = i === 0 ? 'index.mdx' : `group-${String(group).padStart(2, '0')}/page-${String(i + 1).padStart(4, '0')}.mdx`;
    const route = i === 0 ? '/' : `/${file.replace(/\.mdx$/, '')}`;
    pages.push({ file, route, title: `${pick(VERBS)} ${pick(TOPICS)} ${i + 1}`, text: '' });
  }
  const link = () => {
    const target = pick(pages);
    return `[${target.title}](${target.route})`;
  };
  const sentence = (min = 8, max = 18) => {
    const n = min + Math.floor(rand() * (max - min));
    const words = Array.from({ length: n }, () => pick(WORDS));
    if (rand() < 0.3) words[Math.floor(rand() * n)] = `\`${pick(IDENTIFIERS)}\``;
    if (rand() < 0.15) words[Math.floor(rand() * n)] = `**${pick(WORDS)}**`;
    const text = words.join(' ');
    return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = (sentences = 3 + Math.floor(rand() * 3), withLink = rand() < 0.5) => {
    const parts = Array.from({ length: sentences }, () => sentence());
    if (withLink) parts.splice(1, 0, `See ${link()} for details.`);
    return parts.join(' ');
  };
  const codeBlock = (page: number) => {
    const fields = Array.from({ length: 4 + Math.floor(rand() * 4) }, () => pick(IDENTIFIERS));
    return [
      '```ts',
      `import { createClient } from '@example/sdk';`,
      '',
      `// ${sentence(6, 10)}`,
      'const client = createClient({',
      ...fields.map((field, n) => `  ${field}: ${rand() < 0.5 ? `'${pick(WORDS)}-${page}-${n}'` : String(Math.floor(rand() * 1000))},`),
      '});',
      '',
      `export async function run${page}(id: string): Promise<void> {`,
      `  const result = await client.${pick(['orders', 'agents', 'payments', 'events'])}.get(id);`,
      `  if (!result.ok) throw new Error(\`${pick(WORDS)} failed: \${result.status}\`);`,
      '  console.log(result.data);',
      '}',
      '```',
    ].join('\n');
  };
  const table = () => {
    const rows = Array.from({ length: 6 }, () => `| \`${pick(IDENTIFIERS)}\` | \`${pick(TYPES)}\` | \`${Math.floor(rand() * 100)}\` | ${sentence(5, 10)} |`);
    return ['| Option | Type | Default | Description |', '| --- | --- | --- | --- |', ...rows].join('\n');
  };
  const list = (items: number) => Array.from({ length: items }, () => `- ${rand() < 0.4 ? `${link()}: ` : ''}${sentence(5, 12)}`).join('\n');
  const steps = (items: number) => Array.from({ length: items }, (_, n) => `${n + 1}. ${sentence(5, 12)}`).join('\n');

  for (const [i, page] of pages.entries()) {
    page.text = `---
title: ${JSON.stringify(page.title)}
description: ${JSON.stringify(sentence(8, 14))}
---

${paragraph(3, true)}

<Note>${sentence()} See ${link()}.</Note>

## Overview

${paragraph()}

${paragraph()}

${list(5)}

### How it works

${paragraph()}

${steps(4)}

## Configuration

${paragraph()}

${codeBlock(i + 1)}

${table()}

### Environment variables

${paragraph(2, false)}

\`\`\`sh
export EXAMPLE_${pick(IDENTIFIERS).toUpperCase()}=${pick(WORDS)}
npx example-cli ${pick(WORDS)} --${pick(IDENTIFIERS)} ${Math.floor(rand() * 100)}
\`\`\`

## Troubleshooting

### The ${pick(WORDS)} is ${pick(['missing', 'rejected', 'invalid', 'slow'])}

${paragraph()}

### Retries and ${pick(TOPICS)}

${paragraph()}

## Related pages

${Array.from({ length: 4 }, () => `- ${link()}`).join('\n')}
`;
  }
  const groups = [];
  for (let start = 0; start < pages.length; start += GROUP_SIZE) {
    groups.push({ label: `Group ${groups.length + 1}`, pages: pages.slice(start, start + GROUP_SIZE) });
  }
  return { pages, groups };
}

function writeFiles(root: string, files: Iterable<[string, string]>): void {
  for (const [file, text] of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

/** Our docs folder: docs.json and the pages as generated. */
export function writeOurSource(dir: string, site: GeneratedSite): void {
  const docsJson = {
    name: SITE_NAME,
    description: 'Generated pages for the docs build benchmark.',
    sidebar: site.groups.map((group) => ({ group: group.label, pages: group.pages.map((p) => ({ title: p.title, href: p.route })) })),
  };
  writeFiles(dir, [['docs.json', `${JSON.stringify(docsJson, null, 2)}\n`], ...site.pages.map((p): [string, string] => [p.file, p.text])]);
}

function packageVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

const NOTE_IMPORT = "import { Aside as Note } from '@astrojs/starlight/components';";

/** The same pages as a Starlight project; `<Note>` becomes Starlight's note aside through one added import. */
function writeStarlightProject(dir: string, site: GeneratedSite): void {
  const dependencies = { astro: packageVersion('astro'), '@astrojs/starlight': packageVersion('@astrojs/starlight') };
  const sidebar = site.groups.map((group) => ({ label: group.label, items: group.pages.map((p) => ({ label: p.title, link: p.route })) }));
  const config = `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

export default defineConfig({
  integrations: [starlight({ title: ${JSON.stringify(SITE_NAME)}, sidebar: ${JSON.stringify(sidebar)} })],
});
`;
  const contentConfig = `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';

export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`;
  const withNoteImport = (text: string) => text.replace(/^(---\n[\s\S]*?\n---\n)/, `$1\n${NOTE_IMPORT}\n`);
  writeFiles(dir, [
    ['package.json', `${JSON.stringify({ name: 'bench-starlight', private: true, type: 'module', dependencies }, null, 2)}\n`],
    ['astro.config.mjs', config],
    ['src/content.config.ts', contentConfig],
    ...site.pages.map((p): [string, string] => [join('src/content/docs', p.file), withNoteImport(p.text)]),
  ]);
}

// ---- builds in child processes -----------------------------------------------------------------

type BuildKind = 'ours' | 'starlight';

interface ChildResult {
  /** The Node process's own maximum RSS in kB (process.resourceUsage().maxRSS). */
  maxRssKb: number;
  /** Time in the child from its start to the end of the build (module loading included, Node start-up not). */
  buildMs: number;
  /** CPU seconds (user + system) of the Node process; Pagefind's binary not included. */
  cpuSeconds: number;
  pages?: number;
  /** Ours: seconds spent in each phase reported by buildSite's onProgress. */
  phases?: Record<string, number>;
  /** Ours: the Node process's maxRSS in kB when each phase began. */
  rssAtPhaseStartKb?: Record<string, number>;
  problems?: { severity: string; message: string }[];
}

interface BuildRun {
  kind: BuildKind;
  pages: number;
  ok: boolean;
  wallSeconds: number;
  peakMb: number;
  nodePeakMb: number;
  buildSeconds: number;
  cpuSeconds: number;
  outDir: string;
  htmlFiles: number;
  phases?: Record<string, number>;
  /** Ours without the social-images phase (Starlight draws no images): wall seconds minus that phase, and
   * the Node process's maxRSS when it began. */
  withoutSocialImages?: { seconds: number; nodePeakMb: number };
  note?: string;
}

/** RSS in kB of `rootPid` and all its descendants, from /proc; 0 when the process is gone. */
function treeRssKb(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may contain spaces and parentheses, so parse after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // exited while we looked
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++) {
      if (p === rootPid) return true;
    }
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += Number(match?.[1] ?? 0);
    } catch {
      // exited while we looked
    }
  }
  return total;
}

/** Runs this file with `--child <args>`, sampling the process tree's RSS until it exits. */
async function runChild(kind: BuildKind, pages: number, args: string[], outDir: string, cwd: string): Promise<BuildRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, ...args], {
    // In the temp dir: Astro writes some build files (.astro/.prerender) relative to the working directory.
    cwd,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let treePeakKb = 0;
  const sample = () => {
    if (child.pid !== undefined) treePeakKb = Math.max(treePeakKb, treeRssKb(child.pid));
  };
  const sampler = setInterval(sample, SAMPLE_INTERVAL_MS);
  const killer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolvePromise) => child.on('close', resolvePromise));
  clearInterval(sampler);
  clearTimeout(killer);
  const wallSeconds = (performance.now() - started) / 1000;
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
  const result = line ? (JSON.parse(line.slice(RESULT_MARKER.length)) as ChildResult) : undefined;
  const ok = code === 0 && result !== undefined;
  const nodePeakMb = (result?.maxRssKb ?? 0) / 1024;
  const problems = result?.problems ?? [];
  const output = `${stderr}\n${stdout}`.trim().split('\n').slice(-15).join('\n    ');
  return {
    kind,
    pages,
    ok,
    wallSeconds,
    peakMb: Math.max(treePeakKb / 1024, nodePeakMb),
    nodePeakMb,
    buildSeconds: (result?.buildMs ?? 0) / 1000,
    cpuSeconds: result?.cpuSeconds ?? 0,
    outDir,
    htmlFiles: existsSync(outDir) ? countHtml(outDir) : 0,
    ...(result?.phases ? { phases: result.phases } : {}),
    ...(result?.phases?.[SOCIAL_PHASE] !== undefined && result.rssAtPhaseStartKb?.[SOCIAL_PHASE] !== undefined
      ? { withoutSocialImages: { seconds: wallSeconds - result.phases[SOCIAL_PHASE], nodePeakMb: result.rssAtPhaseStartKb[SOCIAL_PHASE] / 1024 } }
      : {}),
    ...(!ok
      ? { note: `exit ${code}; last output:\n    ${output}` }
      : problems.length > 0
        ? { note: `${problems.length} problems reported, first: ${problems[0]?.severity} ${problems[0]?.message}` }
        : {}),
  };
}

function countHtml(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) n++;
  }
  return n;
}

const OUR_RENDERER = join(REPO_ROOT, 'sites/index.ts');
/** buildSite's progress phase that draws a social-preview PNG per page. */
const SOCIAL_PHASE = 'social-images';

/** In the child: one build, then the result line with this process's maximum RSS. */
async function childMain(kind: string, args: string[]): Promise<void> {
  const started = performance.now();
  let result: Omit<ChildResult, 'maxRssKb' | 'buildMs' | 'cpuSeconds'> = {};
  if (kind === 'ours') {
    const [source, out, cacheDir] = args;
    if (!source || !out || !cacheDir) throw new Error('--child ours <source> <out> <cache dir>');
    // Loaded only here, in the child: the parent never imports Astro.
    const { buildSite } = (await import(pathToFileURL(OUR_RENDERER).href)) as typeof import('../sites/index.ts');
    // Seconds per phase of buildSite (render, search, outputs, social-images, …), from its progress events.
    const phases: Record<string, number> = { 'load modules': (performance.now() - started) / 1000 };
    const rssAtPhaseStartKb: Record<string, number> = {};
    let phase = 'start';
    let phaseStarted = performance.now();
    const onProgress = (event: { phase: string }) => {
      if (event.phase === phase) return;
      phases[phase] = (phases[phase] ?? 0) + (performance.now() - phaseStarted) / 1000;
      phase = event.phase;
      phaseStarted = performance.now();
      rssAtPhaseStartKb[phase] ??= process.resourceUsage().maxRSS;
    };
    // As `docs build` does (sites/cli/commands.ts): a local build, not the published default branch.
    const built = await buildSite({ source, out, cacheDir, onProgress, context: { published: false, defaultBranch: false, customDomain: false } });
    onProgress({ phase: 'end' });
    delete phases.start;
    result = { pages: built.pages, phases, rssAtPhaseStartKb, problems: built.problems.map(({ severity, message }) => ({ severity, message })) };
  } else if (kind === 'starlight') {
    const [root, astroEntry] = args;
    if (!root || !astroEntry) throw new Error('--child starlight <root> <astro entry>');
    // Astro from the project's node_modules, the copy its astro.config.mjs and Starlight load too.
    const { build } = (await import(pathToFileURL(astroEntry).href)) as typeof import('astro');
    await build({ root, logLevel: 'warn' });
  } else {
    throw new Error(`unknown build kind ${kind}`);
  }
  const buildMs = performance.now() - started;
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  console.log(`${RESULT_MARKER}${JSON.stringify({ ...result, buildMs, cpuSeconds, maxRssKb: usage.maxRSS })}`);
}

// ---- page weight -------------------------------------------------------------------------------

interface Weight {
  html: number;
  css: number;
  js: number;
  files: { css: number; js: number };
  rawTotal: number;
  /** Uncompressed bytes of inline <script> and <style> contents (part of the HTML). */
  inline: { js: number; css: number };
  /** Font files the stylesheets reference (not counted: fonts are neither HTML, CSS nor JS). */
  fonts: Set<string>;
}

const ORIGIN = 'http://bench.invalid';

/** The built file that serves `url` (a same-origin path), or undefined. */
function fileFor(outDir: string, pathname: string): string | undefined {
  const clean = decodeURIComponent(pathname);
  for (const candidate of [clean, join(clean, 'index.html'), `${clean.replace(/\/$/, '')}.html`]) {
    const file = join(outDir, candidate);
    if (file.startsWith(outDir) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(1).find((v) => v !== undefined);

/** Gzipped sizes of the page at `route` and of every same-origin stylesheet and script it loads up front. */
function pageWeight(outDir: string, route: string): Weight {
  const htmlFile = fileFor(outDir, route);
  if (!htmlFile) throw new Error(`no HTML for ${route} in ${outDir}`);
  const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;
  const html = readFileSync(htmlFile);
  const weight: Weight = { html: gz(html), css: 0, js: 0, files: { css: 0, js: 0 }, rawTotal: html.length, inline: { js: 0, css: 0 }, fonts: new Set() };
  const seen = new Set<string>();
  const pageUrl = new URL(route, ORIGIN);
  const queue: { url: URL; kind: 'css' | 'js' }[] = [];
  const enqueue = (ref: string | undefined, base: URL, kind: 'css' | 'js') => {
    if (!ref || ref.startsWith('data:')) return;
    const url = new URL(ref.replace(/&amp;/g, '&'), base);
    if (url.origin === ORIGIN) queue.push({ url, kind });
  };
  const markup = html.toString('utf8');
  for (const [, tag = '', body = ''] of markup.matchAll(/<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/gi)) {
    weight.inline[tag.toLowerCase() === 'style' ? 'css' : 'js'] += Buffer.byteLength(body);
  }
  for (const tag of markup.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    if (rel.includes('stylesheet')) enqueue(attribute(tag, 'href'), pageUrl, 'css');
    if (rel.includes('modulepreload')) enqueue(attribute(tag, 'href'), pageUrl, 'js');
  }
  for (const tag of markup.match(/<script\b[^>]*>/gi) ?? []) enqueue(attribute(tag, 'src'), pageUrl, 'js');
  // Inline module scripts may import bundles: those load up front too.
  for (const inline of markup.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) {
    for (const ref of staticImports(inline)) enqueue(ref, pageUrl, 'js');
  }
  while (queue.length > 0) {
    const { url, kind } = queue.shift()!;
    if (seen.has(url.pathname)) continue;
    seen.add(url.pathname);
    const file = fileFor(outDir, url.pathname);
    if (!file) continue;
    const bytes = readFileSync(file);
    weight[kind] += gz(bytes);
    weight.files[kind]++;
    weight.rawTotal += bytes.length;
    const text = bytes.toString('utf8');
    if (kind === 'js') for (const ref of staticImports(text)) enqueue(ref, url, 'js');
    else {
      for (const match of text.matchAll(/@import\s+(?:url\()?\s*["']?([^"')\s;]+)/g)) enqueue(match[1], url, 'css');
      for (const match of text.matchAll(/url\(\s*["']?([^"')]+\.(?:woff2?|ttf|otf))/gi)) weight.fonts.add(new URL(match[1] ?? '', url).pathname);
    }
  }
  return weight;
}

/** Static `import … from "x"`, `import "x"` and `export … from "x"` specifiers that are paths (not dynamic import()). */
function staticImports(code: string): string[] {
  const refs: string[] = [];
  for (const match of code.matchAll(/\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+)["']/g)) {
    const ref = match[1];
    if (ref && /^(?:\.{0,2}\/)/.test(ref)) refs.push(ref);
  }
  return refs;
}

// ---- report ------------------------------------------------------------------------------------

const fixed = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const ratio = (a: number, b: number) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

function printTable(rows: { pages: number; ours?: BuildRun; starlight?: BuildRun }[]): void {
  const header = ['pages', 'ours s', 'ours peak MB', 'Starlight s', 'Starlight peak MB', 'time ours/SL', 'memory ours/SL'];
  const value = (run: BuildRun | undefined, pick: (r: BuildRun) => string) => (!run ? 'skipped' : run.ok ? pick(run) : 'failed');
  const cells = rows.map(({ pages, ours, starlight }) => [
    pages.toLocaleString('en-US'),
    value(ours, (r) => fixed(r.wallSeconds)),
    value(ours, (r) => fixed(r.peakMb, 0)),
    value(starlight, (r) => fixed(r.wallSeconds)),
    value(starlight, (r) => fixed(r.peakMb, 0)),
    ours?.ok && starlight?.ok ? ratio(ours.wallSeconds, starlight.wallSeconds) : 'n/a',
    ours?.ok && starlight?.ok ? ratio(ours.peakMb, starlight.peakMb) : 'n/a',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) => row.map((cell, i) => cell.padStart(widths[i] ?? 0)).join('  ');
  console.log(`  ${line(header)}`);
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of cells) console.log(`  ${line(row)}`);
  console.log('  s: wall seconds of the build\'s child process (Node start-up, loading Astro, rendering, Pagefind)');
  console.log('  peak MB: highest summed RSS of the child\'s process tree (Node + Pagefind binary), sampled every');
  console.log(`  ${SAMPLE_INTERVAL_MS} ms, at least the Node process's exact maxRSS; ratios below 1× favour ours`);
  for (const { ours, starlight } of rows) {
    for (const run of [ours, starlight]) {
      if (!run) continue;
      const label = `${run.kind === 'ours' ? 'ours' : 'Starlight'} ${run.pages.toLocaleString('en-US')}`;
      console.log(
        `  ${label}: ${run.htmlFiles} HTML files; in the child ${fixed(run.buildSeconds)} s, ${fixed(run.cpuSeconds)} CPU s (Node process, user+sys: less sensitive to other load); Node maxRSS ${fixed(run.nodePeakMb, 0)} MB` +
          (run.note ? `; ${run.note}` : ''),
      );
      if (run.phases) {
        const shown = Object.entries(run.phases).filter(([, s]) => s >= 0.05);
        console.log(`    phases: ${shown.map(([name, s]) => `${name} ${fixed(s)} s`).join(', ')}`);
      }
    }
  }
  const derived = rows.filter((r) => r.ours?.ok && r.ours.withoutSocialImages && r.starlight?.ok);
  if (derived.length > 0) {
    console.log(`  Ours draws a social-preview PNG per page (satori + resvg, phase ${SOCIAL_PHASE}); Starlight draws none.`);
    console.log('  Ours without that phase (derived, not a separate build: wall s minus the phase; Node maxRSS when it began):');
    for (const { pages, ours, starlight } of derived) {
      const without = ours!.withoutSocialImages!;
      console.log(
        `    ${pages.toLocaleString('en-US')} pages: ${fixed(without.seconds)} s (${ratio(without.seconds, starlight!.wallSeconds)} Starlight's time), ` +
          `${fixed(without.nodePeakMb, 0)} MB (${ratio(without.nodePeakMb, starlight!.nodePeakMb)} Starlight's Node maxRSS)`,
      );
    }
  }
}

function printWeights(route: string, weights: { label: string; weight?: Weight; error?: string }[]): void {
  console.log(`\n  -- Gzipped weight of ${route} (gzip -9 per file; HTML includes inline styles and scripts)`);
  const header = ['site', 'HTML', 'CSS', 'JS', 'total', 'files (css+js)', 'uncompressed'];
  const cells = weights.map(({ label, weight, error }) =>
    weight
      ? [label, kb(weight.html), kb(weight.css), kb(weight.js), kb(weight.html + weight.css + weight.js), `${weight.files.css}+${weight.files.js}`, kb(weight.rawTotal)]
      : [label, error ?? 'n/a', '', '', '', '', ''],
  );
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(`  ${line(header)}`);
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of cells) console.log(`  ${line(row)}`);
  for (const { label, weight } of weights) {
    if (!weight) continue;
    const fonts = weight.fonts.size === 0 ? 'its CSS references no font files' : `its CSS references ${weight.fonts.size} font files (not counted)`;
    console.log(`  ${label}: the HTML carries ${kb(weight.inline.js)} of inline script and ${kb(weight.inline.css)} of inline style (uncompressed); ${fonts}`);
  }
  console.log('  CSS/JS: every same-origin stylesheet and script the page loads up front (link rel=stylesheet,');
  console.log('  script src, modulepreload, their static imports); lazy loads (search UI and index) excluded');
}

// ---- orchestration -----------------------------------------------------------------------------

/** A hard-link copy of the repository's node_modules at `target` (same file system as the temp dir). */
function linkNodeModules(target: string): void {
  const copy = spawnSync('cp', ['-al', join(REPO_ROOT, 'node_modules'), target], { encoding: 'utf8' });
  if (copy.status !== 0) {
    throw new Error(`cp -al node_modules into ${dirname(target)} failed (${copy.stderr.trim() || copy.error?.message}); set TMPDIR to a directory on the file system of ${REPO_ROOT}`);
  }
}

function machineLoad(): string {
  const [oneMinute = 0] = loadavg();
  return `load average ${oneMinute.toFixed(2)} (1 min) on ${availableParallelism()} cores`;
}

export async function benchDocs(): Promise<void> {
  const startedAt = performance.now();
  console.log(`\n== Docs sites: our renderer vs Astro Starlight, same generated pages, cold builds; ${machineLoad()}`);
  const oursAvailable = existsSync(OUR_RENDERER);
  if (!oursAvailable) console.log(`  ours: skipped, ${relative(REPO_ROOT, OUR_RENDERER)} does not exist yet`);
  const work = mkdtempSync(join(tmpdir(), 'bench-docs-'));
  // Module resolution walks up from the Starlight projects to these hard links; their caches stay inside them.
  linkNodeModules(join(work, 'node_modules'));
  const rows: { pages: number; ours?: BuildRun; starlight?: BuildRun }[] = [];
  let weightRoute = '/';
  try {
    for (const count of SIZES) {
      const site = generateSite(count);
      if (count === SIZES[0]) weightRoute = site.pages[Math.floor(count / 2)]?.route ?? '/';
      const bytes = site.pages.reduce((sum, p) => sum + Buffer.byteLength(p.text), 0);
      console.log(`  ${count} pages: ${site.groups.length} sidebar groups, ${(bytes / count / 1024).toFixed(1)} kB of MDX per page on average`);
      const row: (typeof rows)[number] = { pages: count };
      if (oursAvailable) {
        const source = join(work, `docs-${count}`);
        const out = join(work, `ours-${count}`);
        writeOurSource(source, site);
        row.ours = await runChild('ours', count, [source, out, join(work, `ours-cache-${count}`)], out, work);
      }
      const project = join(work, `starlight-${count}`);
      writeStarlightProject(project, site);
      const astroEntry = join(work, 'node_modules/astro/dist/index.js');
      row.starlight = await runChild('starlight', count, [project, astroEntry], join(project, 'dist'), project);
      rows.push(row);
    }
    console.log('');
    printTable(rows);
    const first = rows[0];
    const weightOf = (run: BuildRun | undefined, label: string) => {
      if (!run?.ok) return { label, error: run ? 'build failed' : 'not built' };
      try {
        return { label, weight: pageWeight(run.outDir, weightRoute) };
      } catch (error) {
        return { label, error: (error as Error).message };
      }
    };
    printWeights(weightRoute, [weightOf(first?.ours, 'ours'), weightOf(first?.starlight, 'Starlight')]);
    if (rows.some((r) => (r.ours && !r.ours.ok) || !r.starlight?.ok)) process.exitCode = 1;
  } finally {
    if (process.env.BENCH_DOCS_KEEP) console.log(`  kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  console.log(`  docs bench done in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; ${machineLoad()}`);
}

if (import.meta.main) {
  const [flag, kind = '', ...args] = process.argv.slice(2);
  if (flag === '--child') await childMain(kind, args);
  else await benchDocs();
}
