/**
 * Pages per Astro build of a site with more than IN_PROCESS_PAGES (index.ts) pages to render, at most: several in a
 * row, each into the output folder and in a process of its own, so the memory a build holds does not grow with the
 * site (1,000 pages: 1.7 GB peak in one, ~1.4 GB in batches of 500, ~0.9-1.0 GB in batches of 250 with the Astro
 * processes' allocator settings: astro-processes.ts). The search index's parts are whole batches (search-parts.ts).
 */
export const RENDER_BATCH = 250;

/**
 * How many of `count` pages each batch of at most `most` gets, the batches as even as whole pages allow (1,000 pages:
 * 4 of 250; 1,001: 5 of 201, the last 197).
 */
export function batchSize(count: number, most: number): number {
  return count <= most ? Math.max(1, count) : Math.ceil(count / Math.ceil(count / most));
}

/** How many batches of batchSize `count` pages make. */
export function batchCount(count: number, most: number): number {
  return Math.ceil(count / batchSize(count, most));
}

/**
 * `toRender` in Astro builds of at most `most` pages, of about even size (batchSize), each with the 404 page (Astro
 * renders it in every build anyway) when there is one: 1,000 pages and the 404 page are 4 builds of 250 and it, not
 * 4 and a fifth build (a process and Astro's start, ~1 s) for it alone.
 */
export function renderBatches<T>(toRender: T[], notFound: T | undefined, most: number): T[][] {
  const pages = toRender.filter((output) => output !== notFound);
  const size = batchSize(pages.length, most);
  const batches: T[][] = [];
  for (let i = 0; i < pages.length; i += size) batches.push(pages.slice(i, i + size));
  if (batches.length === 0 && toRender.length > 0) batches.push([]);
  if (notFound && toRender.includes(notFound)) for (const batch of batches) batch.push(notFound);
  return batches;
}
