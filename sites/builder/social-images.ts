import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OG_LOGO_TYPES, ogLogoProblem } from '../config/og-logo.ts';
import { extensionOf } from './content-types.ts';
import type { PageData, SiteData } from '../src/lib/types.ts';
import { renderCard, type CardInput } from './social-card.ts';
import { socialImagePath } from './site-data.ts';
import { writeAtomically } from './build-cache.ts';

/**
 * Generated social preview images (1200×630 PNG, social-card.ts): page title (or the site name), the site name,
 * `og.logo` and, with `og.codeHost`, the repository's name on its code host. One for every page whose og:image is
 * the generated one (no frontmatter `image`, no `socialPreview` URL, not `false`).
 *
 * `og.logo` is embedded only when it is a file of the docs folder: building never fetches URLs (a hosted
 * build must not be made to request arbitrary addresses). Images are cached by content (title, site name, code
 * host, logo bytes, colour: {@link cardKey}), so the cache folder can be shared by every site and build. Many
 * missing images are rendered by a few worker threads. A hosted build only describes them ({@link socialCards}):
 * the host draws each when it is first asked for.
 */

const VERSION = 'social-v2';
/** Below this many images to render, threads cost more than they save. */
const WORKER_THRESHOLD = 12;

/** The logo as a data URI for the card, when it can be embedded (checkSite reports why it cannot). */
async function logoDataUri(sourceDir: string, logo: string | undefined): Promise<string | undefined> {
  if (!logo || ogLogoProblem(logo)) return undefined;
  const path = resolve(sourceDir, logo.replace(/^\/+/, ''));
  if (!path.startsWith(sourceDir + sep)) return undefined;
  const data = await readFile(path).catch(() => undefined);
  return data && `data:${OG_LOGO_TYPES[extensionOf(path)]};base64,${data.toString('base64')}`;
}

/** What makes a card's image: equal cards share one image in every cache (64 hex digits). */
export const cardKey = (card: CardInput): string => createHash('sha256').update(JSON.stringify([VERSION, card])).digest('hex');

/**
 * Renders cards on `size` worker threads; `close()` ends them. `keepProcessAlive: false` (a server's long-lived
 * renderer): idle threads do not keep the process running.
 */
export function cardRenderer(size: number, options: { keepProcessAlive?: boolean } = {}) {
  // Beside this module: the TypeScript source here, the bundled JavaScript in the CLI's package (cli/bundle.ts).
  const file = new URL(import.meta.url.endsWith('.ts') ? './social-worker.ts' : './social-worker.js', import.meta.url);
  const workers = Array.from({ length: size }, () => new Worker(file));
  if (options.keepProcessAlive === false) for (const worker of workers) worker.unref();
  const idle = [...workers];
  const waiting: (() => void)[] = [];
  let next = 0;
  const render = async (input: CardInput): Promise<Buffer> => {
    while (idle.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    const worker = idle.pop()!;
    const id = next++;
    try {
      return await new Promise<Buffer>((resolve, reject) => {
        const onMessage = (message: { id: number; png?: Uint8Array; error?: string }) => {
          if (message.id !== id) return;
          worker.off('message', onMessage);
          worker.off('error', reject);
          if (message.png) resolve(Buffer.from(message.png));
          else reject(new Error(message.error ?? 'social image worker failed'));
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
        worker.postMessage({ id, input });
      });
    } finally {
      idle.push(worker);
      waiting.shift()?.();
    }
  };
  return { render, close: () => Promise.all(workers.map((worker) => worker.terminate())) };
}

/** A page's generated image: its file in the site (`_social/guide.png`) and the card it shows. */
export interface SocialCard {
  path: string;
  card: CardInput;
}

/** The generated images of a site's pages (none when `socialPreview` is a URL or false). */
export async function socialCards(site: SiteData, sourceDir: string): Promise<SocialCard[]> {
  const config = site.config;
  if (config.socialPreview !== undefined) return []; // a URL, or false: nothing generated
  const pages = site.pages.filter((page: PageData) => !page.redirect && page.image === undefined);
  if (pages.length === 0) return [];
  const logo = await logoDataUri(sourceDir, config.og.logo);
  const codeHost = config.og.codeHost ? site.codeHost?.label : undefined;
  const accent = config.theme.primaryDark ?? config.theme.primary ?? '#60a5fa';
  return pages.map((page) => ({
    path: socialImagePath(page.route).slice(1),
    card: { title: page.title ?? page.navTitle ?? site.name, siteName: site.name, codeHost, logo, accent },
  }));
}

export interface SocialImageOptions {
  cards: SocialCard[];
  out: string;
  /** Content-addressed image cache (shared between sites is fine). */
  cacheDir: string;
  /** An image (its path in the site) already in `out` as this card draws it (OutputFolder): not written again. */
  has?: (path: string) => boolean;
  onProgress?: (done: number, total: number) => void;
}

/** Draws every card (those not in the cache) and writes each to `<out>/<path>`. */
export async function writeSocialImages(options: SocialImageOptions): Promise<{ written: number }> {
  const { out } = options;
  const cards = options.has ? options.cards.filter(({ path }) => !options.has!(path)) : options.cards;
  if (cards.length === 0) return { written: 0 };
  await mkdir(options.cacheDir, { recursive: true });
  const jobs = await Promise.all(
    cards.map(async ({ path, card: input }) => {
      const cached = join(options.cacheDir, `${cardKey(input)}.png`);
      return { path, input, cached, hit: await stat(cached).then(() => true, () => false) };
    }),
  );
  const missing = new Map<string, CardInput>();
  for (const job of jobs) if (!job.hit) missing.set(job.cached, job.input);
  const threads = missing.size >= WORKER_THRESHOLD ? Math.max(1, Math.min(4, availableParallelism(), Math.ceil(missing.size / WORKER_THRESHOLD))) : 0;
  const pool = threads > 0 ? cardRenderer(threads) : undefined;
  let done = 0;
  options.onProgress?.(0, missing.size);
  try {
    await Promise.all(
      [...missing].map(async ([cached, input]) => {
        const png = pool ? await pool.render(input) : await renderCard(input);
        // Content-addressed: another build may write the same file at the same time.
        await writeAtomically(cached, png);
        options.onProgress?.(++done, missing.size);
      }),
    );
  } finally {
    await pool?.close();
  }
  for (const job of jobs) {
    const target = join(out, job.path);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(job.cached, target);
  }
  return { written: jobs.length };
}
