import type { DocsConfig } from '../config/schema/index.ts';
import { localeOf } from '../src/lib/nav.ts';
import { htmlLang } from '../src/lib/urls.ts';
import { batchCount, batchSize, RENDER_BATCH } from './render-batches.ts';

/**
 * A site's search index is written in parts, one Pagefind index each: per language of its pages (the `<html lang>`
 * Pagefind reads), `pagefind/<language>/<n>/`, which the search box of a page in that language merges in the
 * browser (Pagefind falls back to another language in an index without the page's: parts never mix languages). A
 * part is indexed again only when one of its pages changed (its other pages come from the build cache with it),
 * and Pagefind holds one part at a time, not the whole site. A language with up to this many pages has one part;
 * above it, about the square root of pages / 62.5, made of whole render batches (render-batches.ts): a cold build
 * of a one-language site then has each part complete, written and let go as a batch is, and Pagefind's process is
 * ended before the next (search-index.ts). (A site in several languages is rendered in batches across them: its
 * parts, split as each language alone would be, need not match those.) 4 parts of 250 pages at 1,000, 14 of
 * 500-750 at 10,000 (a one-page edit re-indexes a part, not the site; a search fetches one index chunk per part and
 * word).
 */
const ONE_PART_UP_TO = 250;

export function searchPartCount(pages: number): number {
  if (pages <= ONE_PART_UP_TO) return 1;
  const target = Math.sqrt(pages / (ONE_PART_UP_TO / 4));
  const batches = batchCount(pages, RENDER_BATCH);
  // Batches per part: of the two whole numbers around batches / target, the one whose count of parts is nearer it.
  const counts = [Math.floor(batches / target), Math.ceil(batches / target)].map((perPart) => Math.ceil(batches / Math.max(1, perPart)));
  return counts.reduce((best, count) => (Math.abs(count - target) < Math.abs(best - target) ? count : best));
}

/** The language a page's search box searches (and the index has it in): its `<html lang>`. */
export function searchLanguage(config: DocsConfig, route: string | undefined): string {
  return htmlLang(localeOf(config, route ?? '/404'));
}

/**
 * Parts per language of the pages at `routes` (and of the default 404 page); `parts` sets every count (tests). The
 * 404 page (rendered with every batch) is not counted, as searchPartsOf splits the others.
 */
export function searchParts(config: DocsConfig, routes: string[], parts?: number): Record<string, number> {
  const pages = new Map<string, number>([[searchLanguage(config, undefined), 0]]);
  for (const route of routes) {
    if (route === '/404') continue;
    const language = searchLanguage(config, route);
    pages.set(language, (pages.get(language) ?? 0) + 1);
  }
  return Object.fromEntries([...pages].map(([language, count]) => [language, parts ?? searchPartCount(count)]));
}

/**
 * Every part (its folder under `pagefind/`, `<language>/<n>`) with the build's outputs in it, given in their order
 * (the pages' order, which Astro renders them in): within its language, the pages of the first render batches
 * (batchSize, as a cold build of that language alone splits them) are part 0, the next ones part 1, and so on, so
 * parts fill one after another as the batches are written and Pagefind can let each go. 404.html, rendered with
 * every batch, is in the last part. Any page added or removed changes every page's key anyway (the sidebar lists
 * it), so nothing is lost when a page shifts the others to another part. A part no page falls in is there too
 * (empty): the search box merges it.
 */
export function searchPartsOf<T extends { file: string; route?: string | undefined }>(config: DocsConfig, counts: Record<string, number>, outputs: readonly T[]): Map<string, T[]> {
  const parts = new Map<string, T[]>();
  for (const [language, count] of Object.entries(counts)) for (let n = 0; n < count; n++) parts.set(`${language}/${n}`, []);
  const add = (folder: string, output: T) => (parts.get(folder) ?? parts.set(folder, []).get(folder)!).push(output);
  for (const [language, members] of Map.groupBy(outputs, (output) => searchLanguage(config, output.route))) {
    const count = counts[language] ?? 1;
    const pages = members.filter((output) => output.file !== '404.html');
    // Whole batches to a part; single pages when there are more parts than batches (a count given: tests).
    const size = batchSize(pages.length, RENDER_BATCH);
    const batches = batchCount(pages.length, RENDER_BATCH);
    const [unit, units] = count > batches ? [1, pages.length] : [size, batches];
    pages.forEach((output, i) => add(`${language}/${Math.floor((Math.floor(i / unit) * count) / units)}`, output));
    for (const output of members) if (output.file === '404.html') add(`${language}/${count - 1}`, output);
  }
  return parts;
}
