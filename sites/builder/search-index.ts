import { join } from 'node:path';
import * as pagefind from 'pagefind';

/**
 * The Pagefind index of a built site, written to `<out>/pagefind/` (index, fragments and `pagefind.js`, which
 * the search box loads from the site's own origin). Only each page's `data-pagefind-body` (the article) is
 * indexed. The Pagefind service process is shared by the whole Node process; each build uses its own index and
 * deletes it afterwards (the service is never closed here, other builds may be using it).
 */
export async function writeSearchIndex(out: string): Promise<{ pages: number }> {
  const created = await pagefind.createIndex({ excludeSelectors: ['.copy-code', '[data-pagefind-ignore]'] });
  if (!created.index) throw new Error(`Pagefind could not start: ${created.errors.join('; ')}`);
  const { index } = created;
  try {
    const added = await index.addDirectory({ path: out });
    if (added.errors.length) throw new Error(`Pagefind: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: join(out, 'pagefind') });
    if (written.errors.length) throw new Error(`Pagefind: ${written.errors.join('; ')}`);
    return { pages: added.page_count };
  } finally {
    await index.deleteIndex();
  }
}
