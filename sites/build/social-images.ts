import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import satori from 'satori';
import { isExternal } from '../config/schema/index.ts';
import type { Problem } from '../source/types.ts';
import type { PageData, SiteData } from '../src/lib/types.ts';
import { socialImagePath } from './site-data.ts';

/**
 * Generated social preview images (1200×630 PNG): page title (or the site name), the site name, `og.logo`
 * and, with `og.codeHost`, the repository's name on its code host. Drawn with satori and the Inter font
 * (@fontsource/inter, served from node_modules), rasterised with resvg (WebAssembly). Written for every page
 * whose og:image is the generated one (no frontmatter `image`, no `socialPreview` URL, not `false`).
 *
 * `og.logo` is embedded only when it is a file of the docs folder: building never fetches URLs (a hosted
 * build must not be made to request arbitrary addresses). Images are cached by content in the cache folder.
 */

const require = createRequire(import.meta.url);
const WIDTH = 1200;
const HEIGHT = 630;
const VERSION = 'social-v1';

let wasm: Promise<void> | undefined;
/** resvg's WebAssembly module can be initialised once per process. */
function ensureWasm(): Promise<void> {
  wasm ??= readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')).then((bytes) => initWasm(bytes));
  return wasm;
}

let fonts: Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> | undefined;
function loadFonts() {
  const file = (weight: number) => require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`);
  fonts ??= Promise.all([400, 700].map(async (weight) => ({ name: 'Inter', data: await readFile(file(weight)), weight: weight as 400 | 700, style: 'normal' as const })));
  return fonts;
}

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', svg: 'image/svg+xml', gif: 'image/gif' };

async function logoDataUri(sourceDir: string, logo: string | undefined): Promise<{ uri?: string; problem?: string }> {
  if (!logo) return {};
  if (isExternal(logo)) return { problem: '`og.logo` is a URL: generated images embed only files of the docs folder, so it is left out' };
  const path = resolve(sourceDir, logo.replace(/^\/+/, ''));
  if (!path.startsWith(sourceDir + sep)) return { problem: '`og.logo` points outside the docs folder' };
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const mime = MIME[ext];
  if (!mime) return { problem: '`og.logo` must be a PNG, JPEG, GIF or SVG file to be embedded' };
  try {
    return { uri: `data:${mime};base64,${(await readFile(path)).toString('base64')}` };
  } catch {
    return { problem: `\`og.logo\`: no file \`${logo}\` in the docs folder` };
  }
}

type Node = { type: string; props: Record<string, unknown> };
const h = (type: string, style: Record<string, unknown>, ...children: (Node | string | undefined | false)[]): Node => ({
  type,
  props: { style, children: children.filter((c) => c !== undefined && c !== false) },
});

function card(title: string, siteName: string, codeHost: string | undefined, logo: string | undefined, accent: string): Node {
  return h(
    'div',
    { width: WIDTH, height: HEIGHT, display: 'flex', flexDirection: 'column', justifyContent: 'space-between', padding: 72, background: '#0f1115', color: '#f3f4f6', fontFamily: 'Inter', borderTop: `12px solid ${accent}` },
    h(
      'div',
      { display: 'flex', alignItems: 'center', gap: 24 },
      logo ? { type: 'img', props: { src: logo, height: 64, style: { height: 64, objectFit: 'contain' } } } : undefined,
      h('div', { fontSize: 36, fontWeight: 700, color: '#d1d5db' }, siteName),
    ),
    h('div', { display: 'flex', fontSize: title.length > 60 ? 56 : 72, fontWeight: 700, lineHeight: 1.15, maxHeight: 340, overflow: 'hidden' }, title),
    h('div', { display: 'flex', fontSize: 30, color: '#9ca3af' }, codeHost ?? ''),
  );
}

export interface SocialImageOptions {
  site: SiteData;
  sourceDir: string;
  out: string;
  cacheDir: string;
  /** Where a config path is (for problems about `og.logo`). */
  locate: (path: (string | number)[]) => { file: string; line: number; column: number; path: string };
  onProgress?: (done: number, total: number) => void;
}

/** Writes `<out>/_social/<route>.png` for every page that uses the generated image. */
export async function writeSocialImages(options: SocialImageOptions): Promise<{ written: number; problems: Problem[] }> {
  const { site, out } = options;
  const config = site.config;
  if (config.socialPreview !== undefined) return { written: 0, problems: [] }; // a URL, or false: nothing generated
  const pages = site.pages.filter((page: PageData) => !page.redirect && page.image === undefined);
  if (pages.length === 0) return { written: 0, problems: [] };
  const problems: Problem[] = [];
  const logo = await logoDataUri(options.sourceDir, config.og.logo);
  if (logo.problem) problems.push({ severity: 'warning', ...options.locate(['og', 'logo']), message: logo.problem });
  const codeHost = config.og.codeHost ? site.codeHost?.label : undefined;
  const accent = config.theme.primaryDark ?? config.theme.primary ?? '#60a5fa';
  await ensureWasm();
  const fontData = await loadFonts();
  const cache = join(options.cacheDir, 'social');
  await mkdir(cache, { recursive: true });
  let done = 0;
  for (const page of pages) {
    const title = page.title ?? page.navTitle ?? site.name;
    const key = createHash('sha256').update(JSON.stringify([VERSION, title, site.name, codeHost, logo.uri ?? '', accent])).digest('hex').slice(0, 32);
    const cached = join(cache, `${key}.png`);
    const target = join(out, socialImagePath(page.route));
    await mkdir(dirname(target), { recursive: true });
    if (!(await stat(cached).then(() => true, () => false))) {
      const svg = await satori(card(title, site.name, codeHost, logo.uri, accent) as never, { width: WIDTH, height: HEIGHT, fonts: fontData });
      const png = new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH } }).render().asPng();
      await writeFile(cached, png);
    }
    await copyFile(cached, target);
    done += 1;
    options.onProgress?.(done, pages.length);
  }
  return { written: done, problems };
}
