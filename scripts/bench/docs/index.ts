/**
 * Documentation sites: our renderer (sites/builder, Astro in-process) next to Astro Starlight building the same
 * generated pages, and the gzipped weight of a typical page of each built site.
 *
 * Content: for each size (100 and 1,000 pages; BENCH_DOCS_SIZES=100,1000,10000 adds 10,000, ~1 hour) the generated docs folder of site.ts; Starlight gets the same
 * pages in a generated project (starlight.ts), `<Note>` rendered as its note aside. Both builds run Pagefind
 * (Starlight by default, ours always) and Shiki-class highlighting (Starlight through Expressive Code).
 *
 * What else each build does: ours (buildSite, as `docs build` calls it) also writes llms.txt, a Markdown copy
 * of each page, sitemap.xml, robots.txt and one generated social-preview PNG per page (satori + resvg);
 * Starlight also renders a 404 page (its sitemap is skipped: no `site`). The PNGs are a large share of ours,
 * so the report also derives ours without that phase from buildSite's progress events (not a separate build).
 *
 * Then ours builds again after a one-page edit (a paragraph added to the page in the middle), with the first
 * build's cache (sites/builder/build-cache.ts) and into the first build's folder, as a writer's next `docs build`
 * does: the pages whose inputs did not change come from the cache, and the files that did not change stay in the
 * folder (sites/builder/output-folder.ts). Our page weight is measured before that edit.
 *
 * Every build runs in a child process of its own (build.ts runs build-child.ts, working directory the temp
 * dir), cold: fresh source, output and cache dirs in a new temp dir, no site data shared between builds; ours gets
 * a new `cacheDir` (Astro's and Vite's caches, the social-image cache) per build. Each child enables Node's code cache of
 * the modules it loads as its command does (`docs`: sites/builder/cache-folders.ts; `astro`: its bin), so after the
 * run's first build of each both load their JavaScript compiled, as a user's second build does. The Starlight project lives
 * in <tmp>/starlight-N and finds its packages in <tmp>/node_modules, a hard-link copy (`cp -al`, about a
 * second) of this repository's node_modules; its package.json lists astro and @astrojs/starlight as
 * dependencies as a real project's would (Vite bundles Astro packages it finds there). Astro's and Vite's
 * caches (root/node_modules/.astro, .vite) start empty inside each project. Why not a symlink: Astro 7 rewrites
 * module ids whose real path shares no top-level directory with the project root (/work/... vs /tmp/...)
 * into root-relative ones, and the build fails ("No cached compile metadata found").
 *   seconds: wall time from spawning the child to its exit (Node start-up, loading Astro, the build, Pagefind)
 *   peak MB: the highest summed RSS of the child's process tree (the Node process plus Pagefind's binary),
 *            sampled every 250 ms from /proc, and never below the Node process's own exact maximum RSS
 *            (process.resourceUsage().maxRSS, printed by the child at exit)
 * Page weight (page-weight.ts): the same page (a page in the middle of the 100-page site) in each site, its
 * HTML and the stylesheets and scripts it loads up front, gzipped.
 *
 *   node scripts/bench/docs/index.ts   (or npm run bench -- docs)
 *   BENCH_DOCS_KEEP=1                  keeps the temp dir with the sources and built sites
 *   BENCH_DOCS_SIZES=20,50             other page counts (quick checks)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { kb, machineLoad, secondsSince } from '../common/format.ts';
import { runChild, type BuildRun } from './build.ts';
import { pageWeight } from './page-weight.ts';
import { OUR_RENDERER, REPO_ROOT } from './paths.ts';
import { printBuilds, printRebuilds, printWeights, type SizeRow } from './report.ts';
import { editOnePage, generateSite, writeOurSource } from './site.ts';
import { linkNodeModules, writeStarlightProject } from './starlight.ts';

/** Page counts to build; BENCH_DOCS_SIZES=20,50 overrides them (quick checks). */
const SIZES: readonly number[] = process.env.BENCH_DOCS_SIZES?.split(',').map(Number).filter((n) => n > 0) ?? [100, 1_000];

export async function benchDocs(): Promise<void> {
  const startedAt = performance.now();
  console.log(`\n== Docs sites: our renderer vs Astro Starlight, same generated pages, cold builds; ${machineLoad()}`);
  const oursAvailable = existsSync(OUR_RENDERER);
  if (!oursAvailable) console.log(`  ours: skipped, ${relative(REPO_ROOT, OUR_RENDERER)} does not exist yet`);
  const work = mkdtempSync(join(tmpdir(), 'bench-docs-'));
  // Module resolution walks up from the Starlight projects to these hard links; their caches stay inside them.
  linkNodeModules(join(work, 'node_modules'));
  const rows: SizeRow[] = [];
  let weightRoute = '/';
  const weightOf = (run: BuildRun | undefined, label: string) => {
    if (!run?.ok) return { label, error: run ? 'build failed' : 'not built' };
    try {
      return { label, weight: pageWeight(run.outDir, weightRoute) };
    } catch (error) {
      return { label, error: (error as Error).message };
    }
  };
  let ourWeight: ReturnType<typeof weightOf> = { label: 'ours', error: 'not built' };
  try {
    for (const count of SIZES) {
      const site = generateSite(count);
      if (count === SIZES[0]) weightRoute = site.pages[Math.floor(count / 2)]?.route ?? '/';
      const bytes = site.pages.reduce((sum, p) => sum + Buffer.byteLength(p.text), 0);
      console.log(`  ${count} pages: ${site.groups.length} sidebar groups, ${kb(bytes / count)} of MDX per page on average`);
      const row: SizeRow = { pages: count };
      if (oursAvailable) {
        const source = join(work, `docs-${count}`);
        const out = join(work, `ours-${count}`);
        writeOurSource(source, site);
        const cache = join(work, `ours-cache-${count}`);
        row.ours = await runChild('ours', count, [source, out, cache], out, work);
        if (count === SIZES[0]) ourWeight = weightOf(row.ours, 'ours');
        // A writer's next build: one page's body edited, the same cache and output folder.
        editOnePage(source, site);
        row.oursRebuild = await runChild('ours', count, [source, out, cache], out, work);
      }
      const project = join(work, `starlight-${count}`);
      writeStarlightProject(project, site);
      const astroEntry = join(work, 'node_modules/astro/dist/index.js');
      row.starlight = await runChild('starlight', count, [project, astroEntry], join(project, 'dist'), project);
      rows.push(row);
    }
    console.log('');
    printBuilds(rows);
    printRebuilds(rows);
    printWeights(weightRoute, [ourWeight, weightOf(rows[0]?.starlight, 'Starlight')]);
    if (rows.some((r) => (r.ours && !r.ours.ok) || !r.starlight?.ok)) process.exitCode = 1;
  } finally {
    if (process.env.BENCH_DOCS_KEEP) console.log(`  kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  console.log(`  docs bench done in ${secondsSince(startedAt, 1)}; ${machineLoad()}`);
}

if (import.meta.main) await benchDocs();
