import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnalyticsScripts } from '../src/lib/analytics.ts';
import { CONDITION_END, conditionStart } from './hosted.ts';

/**
 * The Content-Security-Policy of every built page, as a `<meta http-equiv>` first in its `<head>` (so it holds
 * wherever the files are served). Scripts: the site's own files, and inline scripts only by hash, for the scripts
 * the layout marked (OwnScript.astro) with this build's random mark: an inline script or handler that reached a
 * page any other way does not run. Third-party origins only for the analytics the configuration turns on, where
 * they are served (src/lib/analytics.ts).
 */

declare global {
  var docsOwnScriptMark: string | undefined;
}

/** A fresh mark for one build; set before Astro renders, read back by {@link applyContentSecurityPolicy}. */
export function newOwnScriptMark(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Origins the built-in media components may frame, once the reader asks (src/components/mdx/Facade.astro marks
 * such a component with `data-docs-frame="<origin>"`). Only these, and only on pages that carry the mark: pages
 * without one keep `frame-src 'none'`. Page content cannot add an iframe (the sanitiser removes them), so a mark
 * written by hand only allows a frame that nothing creates.
 */
const FRAME_ORIGINS = new Set(['https://www.youtube-nocookie.com', 'https://player.vimeo.com', 'https://platform.twitter.com']);

/**
 * The page with its own scripts' marks removed and its policy in place. Third-party origins are `analytics`' only
 * (lib/analytics.ts, from `scripts` in the configuration): nothing a page contains adds one. In a hosted build they
 * sit between the markers of the scripts' condition, so the host serves them exactly where it serves the scripts.
 */
export function withContentSecurityPolicy(html: string, mark: string, analytics: Pick<AnalyticsScripts, 'origins' | 'condition'> = { origins: [] }): string {
  const hashes: string[] = [];
  const marked = new RegExp(`<script([^>]*?) data-docs-own="${mark}"([^>]*)>([\\s\\S]*?)</script>`, 'g');
  const page = html.replace(marked, (_whole, before: string, after: string, code: string) => {
    hashes.push(`'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
    return `<script${before}${after}>${code}</script>`;
  });
  // `directive` and the analytics' origins (between the condition's markers in a hosted build, space included).
  const origins = analytics.origins.join(' ');
  const external = (directive: string) => {
    if (!origins) return directive;
    return analytics.condition ? `${directive}${conditionStart(analytics.condition)} ${origins}${CONDITION_END}` : `${directive} ${origins}`;
  };
  const frames = new Set<string>();
  for (const [, origin] of page.matchAll(/\sdata-docs-frame="([^"]+)"/g)) if (FRAME_ORIGINS.has(origin!)) frames.add(origin!);
  const policy = [
    "default-src 'self'",
    external(["script-src 'self' 'wasm-unsafe-eval'", ...hashes].join(' ')),
    "style-src 'self' 'unsafe-inline'",
    external("img-src 'self' https: data:"),
    "media-src 'self' https:",
    "font-src 'self' data:",
    external("connect-src 'self'"),
    `frame-src ${frames.size ? [...frames].join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
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
  analytics?: Pick<AnalyticsScripts, 'origins' | 'condition'>,
): Promise<void> {
  for (const file of files) {
    const path = join(out, file);
    const html = await readFile(path, 'utf8');
    const page = withContentSecurityPolicy(await prepare(html), mark, analytics);
    if (page !== html) await writeFile(path, page);
  }
}
