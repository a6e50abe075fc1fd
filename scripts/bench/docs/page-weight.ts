/**
 * Page weight: a page's HTML plus every same-origin stylesheet and script it loads up front (<link
 * rel=stylesheet>, <script src>, <link rel=modulepreload>, and static imports / @imports inside them,
 * followed), each file gzipped on its own with node:zlib level 9. Inline <style>/<script> count as HTML;
 * fonts, images and anything loaded later (the Pagefind index and UI when search opens, dynamic import()) are
 * left out.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface Weight {
  html: number;
  css: number;
  js: number;
  files: { css: number; js: number };
  rawTotal: number;
  /** Uncompressed bytes of inline <script> and <style> contents (part of the HTML). */
  inline: { js: number; css: number };
  /** Font files the stylesheets reference (not counted: fonts are neither HTML, CSS nor JS). */
  fonts: Set<string>;
}

const ORIGIN = 'http://bench.invalid';

/** The built file that serves `url` (a same-origin path), or undefined. */
function fileFor(outDir: string, pathname: string): string | undefined {
  const clean = decodeURIComponent(pathname);
  for (const candidate of [clean, join(clean, 'index.html'), `${clean.replace(/\/$/, '')}.html`]) {
    const file = join(outDir, candidate);
    if (file.startsWith(outDir) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(1).find((v) => v !== undefined);

/** Gzipped sizes of the page at `route` and of every same-origin stylesheet and script it loads up front. */
export function pageWeight(outDir: string, route: string): Weight {
  const htmlFile = fileFor(outDir, route);
  if (!htmlFile) throw new Error(`no HTML for ${route} in ${outDir}`);
  const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;
  const html = readFileSync(htmlFile);
  const weight: Weight = { html: gz(html), css: 0, js: 0, files: { css: 0, js: 0 }, rawTotal: html.length, inline: { js: 0, css: 0 }, fonts: new Set() };
  const seen = new Set<string>();
  const pageUrl = new URL(route, ORIGIN);
  const queue: { url: URL; kind: 'css' | 'js' }[] = [];
  const enqueue = (ref: string | undefined, base: URL, kind: 'css' | 'js') => {
    if (!ref || ref.startsWith('data:')) return;
    const url = new URL(ref.replace(/&amp;/g, '&'), base);
    if (url.origin === ORIGIN) queue.push({ url, kind });
  };
  const markup = html.toString('utf8');
  for (const [, tag = '', body = ''] of markup.matchAll(/<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/gi)) {
    weight.inline[tag.toLowerCase() === 'style' ? 'css' : 'js'] += Buffer.byteLength(body);
  }
  for (const tag of markup.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    if (rel.includes('stylesheet')) enqueue(attribute(tag, 'href'), pageUrl, 'css');
    if (rel.includes('modulepreload')) enqueue(attribute(tag, 'href'), pageUrl, 'js');
  }
  for (const tag of markup.match(/<script\b[^>]*>/gi) ?? []) enqueue(attribute(tag, 'src'), pageUrl, 'js');
  // Inline module scripts may import bundles: those load up front too.
  for (const inline of markup.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) {
    for (const ref of staticImports(inline)) enqueue(ref, pageUrl, 'js');
  }
  while (queue.length > 0) {
    const { url, kind } = queue.shift()!;
    if (seen.has(url.pathname)) continue;
    seen.add(url.pathname);
    const file = fileFor(outDir, url.pathname);
    if (!file) continue;
    const bytes = readFileSync(file);
    weight[kind] += gz(bytes);
    weight.files[kind]++;
    weight.rawTotal += bytes.length;
    const text = bytes.toString('utf8');
    if (kind === 'js') for (const ref of staticImports(text)) enqueue(ref, url, 'js');
    else {
      for (const match of text.matchAll(/@import\s+(?:url\()?\s*["']?([^"')\s;]+)/g)) enqueue(match[1], url, 'css');
      for (const match of text.matchAll(/url\(\s*["']?([^"')]+\.(?:woff2?|ttf|otf))/gi)) weight.fonts.add(new URL(match[1] ?? '', url).pathname);
    }
  }
  return weight;
}

/** Static `import … from "x"`, `import "x"` and `export … from "x"` specifiers that are paths (not dynamic import()). */
function staticImports(code: string): string[] {
  const refs: string[] = [];
  for (const match of code.matchAll(/\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+)["']/g)) {
    const ref = match[1];
    if (ref && /^(?:\.{0,2}\/)/.test(ref)) refs.push(ref);
  }
  return refs;
}
