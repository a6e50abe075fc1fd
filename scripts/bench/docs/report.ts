/** The docs bench's report: build times and memory side by side, and the gzipped weight of one page of each site. */
import { fixed, integer, kb } from '../common/format.ts';
import { printTable } from '../common/report.ts';
import { SAMPLE_INTERVAL_MS, SOCIAL_PHASE, type BuildRun } from './build.ts';
import type { Weight } from './page-weight.ts';

/** One page count: our build and Starlight's. */
export interface SizeRow {
  pages: number;
  ours?: BuildRun;
  /** Ours again after a one-page edit, with the first build's cache. */
  oursRebuild?: BuildRun;
  starlight?: BuildRun;
}

const ratio = (a: number, b: number) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

export function printBuilds(rows: readonly SizeRow[]): void {
  const header = ['pages', 'ours s', 'ours peak MB', 'Starlight s', 'Starlight peak MB', 'time ours/SL', 'memory ours/SL'];
  const value = (run: BuildRun | undefined, pick: (r: BuildRun) => string) => (!run ? 'skipped' : run.ok ? pick(run) : 'failed');
  const cells = rows.map(({ pages, ours, starlight }) => [
    integer(pages),
    value(ours, (r) => fixed(r.wallSeconds)),
    value(ours, (r) => fixed(r.peakMb, 0)),
    value(starlight, (r) => fixed(r.wallSeconds)),
    value(starlight, (r) => fixed(r.peakMb, 0)),
    ours?.ok && starlight?.ok ? ratio(ours.wallSeconds, starlight.wallSeconds) : 'n/a',
    ours?.ok && starlight?.ok ? ratio(ours.peakMb, starlight.peakMb) : 'n/a',
  ]);
  printTable(header, cells, 0);
  console.log('  s: wall seconds of the build\'s child process (Node start-up, loading Astro, rendering, Pagefind)');
  console.log('  peak MB: highest summed RSS of the child\'s process tree (Node + Pagefind binary), sampled every');
  console.log(`  ${SAMPLE_INTERVAL_MS} ms, at least the Node process's exact maxRSS; ratios below 1× favour ours`);
  for (const { ours, starlight } of rows) {
    for (const run of [ours, starlight]) {
      if (!run) continue;
      const label = `${run.kind === 'ours' ? 'ours' : 'Starlight'} ${integer(run.pages)}`;
      console.log(
        `  ${label}: ${run.htmlFiles} HTML files; in the child ${fixed(run.buildSeconds)} s, ${fixed(run.cpuSeconds)} CPU s (the Node process and its children, user+sys: less sensitive to other load); Node maxRSS ${fixed(run.nodePeakMb, 0)} MB` +
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
    console.log('  Ours without that phase (derived, not a separate build: wall s minus the phase; peak MB until it began):');
    for (const { pages, ours, starlight } of derived) {
      const without = ours!.withoutSocialImages!;
      console.log(
        `    ${integer(pages)} pages: ${fixed(without.seconds)} s (${ratio(without.seconds, starlight!.wallSeconds)} Starlight's time), ` +
          `${fixed(without.peakMb, 0)} MB (${ratio(without.peakMb, starlight!.peakMb)} Starlight's peak)`,
      );
    }
  }
}

export function printRebuilds(rows: readonly SizeRow[]): void {
  const runs = rows.filter((row) => row.oursRebuild);
  if (runs.length === 0) return;
  console.log('\n  -- Ours again after a one-page edit (same cache, same output folder; target at 1,000 pages: 3 s)');
  const header = ['pages', 'rebuild s', 'peak MB', 'HTML rendered', 'from cache', 'vs cold build'];
  const cells = runs.map(({ pages, ours, oursRebuild: run }) => [
    integer(pages),
    run!.ok ? fixed(run!.wallSeconds) : 'failed',
    run!.ok ? fixed(run!.peakMb, 0) : '',
    integer(run!.rendered ?? 0),
    integer(run!.cached ?? 0),
    ours?.ok && run!.ok ? ratio(run!.wallSeconds, ours.wallSeconds) : 'n/a',
  ]);
  printTable(header, cells, 0);
  for (const { oursRebuild: run } of runs) {
    if (run?.phases) console.log(`  ${integer(run.pages)}: ${Object.entries(run.phases).filter(([, s]) => s >= 0.05).map(([name, s]) => `${name} ${fixed(s)} s`).join(', ')}${run.note ? `; ${run.note}` : ''}`);
  }
}

export function printWeights(route: string, weights: { label: string; weight?: Weight; error?: string }[]): void {
  console.log(`\n  -- Gzipped weight of ${route} (gzip -9 per file; HTML includes inline styles and scripts)`);
  const header = ['site', 'HTML', 'CSS', 'JS', 'total', 'files (css+js)', 'uncompressed'];
  const cells = weights.map(({ label, weight, error }) =>
    weight
      ? [label, kb(weight.html), kb(weight.css), kb(weight.js), kb(weight.html + weight.css + weight.js), `${weight.files.css}+${weight.files.js}`, kb(weight.rawTotal)]
      : [label, error ?? 'n/a', '', '', '', '', ''],
  );
  printTable(header, cells, 1);
  for (const { label, weight } of weights) {
    if (!weight) continue;
    const fonts = weight.fonts.size === 0 ? 'its CSS references no font files' : `its CSS references ${weight.fonts.size} font files (not counted)`;
    console.log(`  ${label}: the HTML carries ${kb(weight.inline.js)} of inline script and ${kb(weight.inline.css)} of inline style (uncompressed); ${fonts}`);
  }
  console.log('  CSS/JS: every same-origin stylesheet and script the page loads up front (link rel=stylesheet,');
  console.log('  script src, modulepreload, their static imports); lazy loads (search UI and index) excluded');
}
