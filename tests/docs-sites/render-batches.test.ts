/**
 * How a cold build splits its pages into Astro builds (render-batches.ts) and its search index into parts
 * (search-parts.ts): what the memory of a large build rests on. Batches are of even size and never a build for the
 * 404 page alone; a part is whole batches, so each part is complete, written and let go (Pagefind's process ended)
 * as a batch is, before the next batch renders.
 */
import { describe, expect, it } from 'vitest';
import { batchSize, renderBatches, RENDER_BATCH } from '../../sites/builder/render-batches.ts';
import { searchPartCount, searchParts, searchPartsOf } from '../../sites/builder/search-parts.ts';
import type { DocsConfig } from '../../sites/config/schema/index.ts';

const config = { name: 'Batches', sidebar: [] } as unknown as DocsConfig;
const site = (pages: number) => [...Array.from({ length: pages }, (_, i) => ({ file: `p${i}/index.html`, route: `/p${i}` })), { file: '404.html' }];

describe('render batches', () => {
  it('1,000 pages and the 404 page are four builds of 250, each with the 404 page', () => {
    const outputs = site(1_000);
    const batches = renderBatches(outputs, outputs.at(-1), RENDER_BATCH);
    expect(batches.map((batch) => batch.length)).toEqual([251, 251, 251, 251]);
    expect(batches.every((batch) => batch.at(-1)?.file === '404.html')).toBe(true);
    expect(batches.flat().filter((output) => output.file !== '404.html')).toEqual(outputs.slice(0, -1));
  });

  it('are of even size, never above the most; only the 404 page is one build; nothing is none', () => {
    const outputs = site(1_001);
    expect(renderBatches(outputs, outputs.at(-1), RENDER_BATCH).map((batch) => batch.length - 1)).toEqual([201, 201, 201, 201, 197]);
    const notFound = { file: '404.html' };
    expect(renderBatches([notFound], notFound, RENDER_BATCH)).toEqual([[notFound]]);
    expect(batchSize(0, RENDER_BATCH)).toBe(1);
    expect(renderBatches(site(10).slice(0, -1), undefined, 3).map((batch) => batch.length)).toEqual([3, 3, 3, 1]);
    expect(renderBatches([], notFound, RENDER_BATCH)).toEqual([]);
    expect(renderBatches(site(5).slice(0, -1), undefined, 2).map((batch) => batch.length)).toEqual([2, 2, 1]);
  });
});

describe('search parts of a cold build', () => {
  it.each([600, 1_000, 1_250, 2_000, 4_000, 10_000])('of %i pages are each whole render batches, in order; 404.html is in the last', (pages) => {
    const outputs = site(pages);
    const count = searchPartCount(pages);
    const parts = [...searchPartsOf(config, { en: count }, outputs).values()];
    expect(parts).toHaveLength(count);
    const batches = renderBatches(outputs, outputs.at(-1), RENDER_BATCH).map((batch) => batch.filter((output) => output.file !== '404.html'));
    // Each part is the next batches' pages, joined.
    let next = 0;
    for (const [n, part] of parts.entries()) {
      const pagesOf = part.filter((output) => output.file !== '404.html');
      const joined: typeof outputs = [];
      while (joined.length < pagesOf.length) joined.push(...batches[next++]!);
      expect(pagesOf).toEqual(joined);
      expect(part.some((output) => output.file === '404.html')).toBe(n === count - 1);
    }
    expect(next).toBe(batches.length);
  });

  it('about the square root of pages / 62.5 of them: 4 at 1,000 pages, 14 at 10,000; one up to 250', () => {
    expect([100, 250, 251, 1_000, 10_000].map(searchPartCount)).toEqual([1, 1, 2, 4, 14]);
    // Whole batches: the nearest count to the square root, never twice it as a page more or less tips a rounding.
    for (let pages = 251; pages <= 12_000; pages += 1) {
      const target = Math.sqrt(pages / 62.5);
      expect(Math.abs(searchPartCount(pages) - target), `${pages} pages`).toBeLessThan(target / 2);
    }
  });

  it('a site\'s own 404 page is not counted: 1,000 pages and it are 4 parts, as they are 4 batches', () => {
    const routes = [...Array.from({ length: 1_000 }, (_, i) => `/p${i}`), '/404'];
    expect(searchParts(config, routes)).toEqual({ en: 4 });
  });

  it('more parts than batches (a count given) split the pages one by one', () => {
    const parts = searchPartsOf(config, { en: 3 }, site(5));
    expect([...parts.values()].map((part) => part.map((output) => output.file))).toEqual([
      ['p0/index.html', 'p1/index.html'],
      ['p2/index.html', 'p3/index.html'],
      ['p4/index.html', '404.html'],
    ]);
  });
});
