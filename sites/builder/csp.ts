import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The Content-Security-Policy of every built page, as a `<meta http-equiv>` first in its `<head>` (so it holds
 * wherever the files are served). Scripts: the site's own files, and inline scripts only by hash, for the scripts
 * the layout marked (OwnScript.astro) with this build's random mark: an inline script or handler that reached a
 * page any other way does not run. Third-party origins only for the analytics the configuration turns on.
 */

declare global {
  var docsOwnScriptMark: string | undefined;
}

/** A fresh mark for one build; set before Astro renders, read back by {@link applyContentSecurityPolicy}. */
export function newOwnScriptMark(): string {
  return randomBytes(16).toString('hex');
}

/** Origins a tag manager or Google Analytics loads from and reports to. */
const GOOGLE = ['https://www.googletagmanager.com', 'https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com'];

/**
 * Origins the built-in media components may frame, once the reader asks (src/components/mdx/Facade.astro marks
 * such a component with `data-docs-frame="<origin>"`). Only these, and only on pages that carry the mark: pages
 * without one keep `frame-src 'none'`. Page content cannot add an iframe (the sanitiser removes them), so a mark
 * written by hand only allows a frame that nothing creates.
 */
const FRAME_ORIGINS = new Set(['https://www.youtube-nocookie.com', 'https://player.vimeo.com', 'https://platform.twitter.com']);

/** The page with its own scripts' marks removed and its policy in place. */
export function withContentSecurityPolicy(html: string, mark: string): string {
  const hashes: string[] = [];
  const marked = new RegExp(`<script([^>]*?) data-docs-own="${mark}"([^>]*)>([\\s\\S]*?)</script>`, 'g');
  const page = html.replace(marked, (_whole, before: string, after: string, code: string) => {
    hashes.push(`'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
    return `<script${before}${after}>${code}</script>`;
  });
  const origins = new Set<string>();
  for (const [, src] of page.matchAll(/<script\b[^>]*\ssrc="(https:\/\/[^"/]+)[^"]*"/g)) origins.add(src!);
  if (/data-analytics="tag-manager"/.test(page) || [...origins].some((origin) => origin.endsWith('googletagmanager.com'))) GOOGLE.forEach((o) => origins.add(o));
  const external = [...origins].join(' ');
  const frames = new Set<string>();
  for (const [, origin] of page.matchAll(/\sdata-docs-frame="([^"]+)"/g)) if (FRAME_ORIGINS.has(origin!)) frames.add(origin!);
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')} ${external}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' https: data: ${external}`.trim(),
    "media-src 'self' https:",
    "font-src 'self' data:",
    `connect-src 'self' ${external}`.trim(),
    `frame-src ${frames.size ? [...frames].join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/\s+/g, ' ')}">`;
  const charset = /<meta charset="[^"]*">/i.exec(page);
  if (charset) return page.slice(0, charset.index + charset[0].length) + meta + page.slice(charset.index + charset[0].length);
  return page.replace(/<head>/i, `<head>${meta}`);
}

/**
 * Applies the policy to the HTML files Astro just rendered (`files`, relative to `out`), after `prepare` (another
 * rewrite of each page, so that each is read and written once).
 */
export async function applyContentSecurityPolicy(
  out: string,
  mark: string,
  files: readonly string[],
  prepare: (html: string) => string | Promise<string> = (html) => html,
): Promise<void> {
  for (const file of files) {
    const path = join(out, file);
    const html = await readFile(path, 'utf8');
    const page = withContentSecurityPolicy(await prepare(html), mark);
    if (page !== html) await writeFile(path, page);
  }
}
