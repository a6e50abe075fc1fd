import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { listFiles } from '../content/read.ts';

/**
 * Files of the docs folder served with the site, at the same path (`images/a.png` -> `<base>/images/a.png`):
 * images, video, audio, fonts and PDFs, so logos, favicons, frontmatter images and page images resolve
 * relative to the site's root. Files under `public/` are served from the site root as well
 * (`public/robots-extra.txt` -> `<base>/robots-extra.txt`), except HTML and JavaScript. Nothing else of the
 * repository is published, and generated files are never overwritten.
 *
 * The docs folder is where the pages are (`siteLayout(dir).root`, content/layout.ts): the folder given, or in
 * docs.page's layout its `docs/` folder (`docs/assets/a.png` -> `<base>/assets/a.png`, as docs.page serves it;
 * files beside `docs/` are not published).
 */
export const ASSET_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'ico', 'bmp', 'mp4', 'webm', 'ogv', 'mov', 'mp3', 'ogg', 'wav',
  'woff', 'woff2', 'ttf', 'otf', 'pdf',
]);
const NEVER_FROM_PUBLIC = /\.(?:html?|xhtml|m?js|cjs|mdx)$/i;

const exists = (path: string) => stat(path).then(() => true, () => false);

/** `sourceDir`: the layout's root (the build's `state.sourceDir`), not necessarily the folder given. */
export async function copyAssets(sourceDir: string, out: string, ignore: string[]): Promise<number> {
  const files = await listFiles(sourceDir, ignore);
  let copied = 0;
  for (const file of files) {
    const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
    const targets: string[] = [];
    if (ASSET_EXTENSIONS.has(ext)) targets.push(file);
    if (file.startsWith('public/') && !NEVER_FROM_PUBLIC.test(file)) targets.push(file.slice('public/'.length));
    for (const target of targets) {
      const to = join(out, target);
      if (await exists(to)) continue;
      await mkdir(dirname(to), { recursive: true });
      await copyFile(join(sourceDir, file), to);
      copied += 1;
    }
  }
  return copied;
}
