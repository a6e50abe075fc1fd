import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { CONTENT_TYPES, extensionOf, normalizeRoute, pathAnswer, resolveHosted, routeUrl, type CardInput, type Served } from '../../../sites/index.ts';
import { databaseUnavailable } from '../../platform/errors.ts';
import { urlRef } from '../git.ts';
import { siteBase } from '../names.ts';
import type { DocsSites, LoadedBuild, SiteRequest } from './sites.ts';
import type { SocialImages } from './social.ts';
import { clientAddress } from '../../platform/http/client-address.ts';

/**
 * Serving hosted documentation sites (docs/docs-hosting.md): `/{owner}/{repo}[~{ref}]/...` on the service host,
 * `{owner}.<vanity domain>/{repo}[~{ref}]/...` and `<custom domain>[/~{ref}]/...`. Files come from the build the
 * ref serves, resolved for where they are served (base path, origin, default branch, custom domain); a path with
 * no file looks up the site's redirects (307); a frontmatter `redirect` page redirects too.
 */

/** A site being served: the request, its build, and how its files are resolved here. */
export interface ServedSite {
  request: SiteRequest;
  build: LoadedBuild;
  served: Served;
  /** An absolute URL of a site route (`/guides/start` -> `https://host/acme/widgets/guides/start`). */
  url(route: string): string;
}

export interface DocsHandlerOptions {
  /** The origin clients see (PUBLIC_BASE_URL, no trailing slash); its scheme and port are also those of vanity and custom domains. */
  publicBaseUrl?: string | undefined;
  /** Site-relative routes served by code: `/mcp`, `/_chat`. */
  routes?: Record<string, (req: IncomingMessage, res: ServerResponse, site: ServedSite) => Promise<void>>;
  /** Draws the social images hosted builds only describe (manifest `social`). */
  social?: SocialImages;
}

/** Our own outputs that may carry hosted placeholders; the repository's files (images, svg...) never do. */
const RESOLVED = new Set(['html', 'css', 'js', 'mjs', 'json', 'txt', 'md', 'xml']);

/**
 * Files that can carry script when opened directly (a repository's SVG; XML with an XSLT or XHTML): sandboxed, so
 * nothing in them runs on the site's origin. Our HTML pages carry their own policy (sites/builder/csp.ts).
 */
const SANDBOXED = new Set(['svg', 'xml', 'xsl', 'xslt']);
const SANDBOX_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
/** `Sec-Fetch-Dest` of a request that opens a file as a document of its own (not an image in a page). */
const OPENED = new Set(['document', 'iframe', 'frame', 'embed', 'object']);
/** The service's own notice pages: an inline style, nothing else. */
const NOTICE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";
/**
 * Only pages of the same origin may frame a site's pages (no clickjacking through a page of another site); a meta
 * policy cannot say it, so every page's header adds it to the policy its meta carries.
 */
const FRAME_ANCESTORS = "frame-ancestors 'self'";
/** The policy a built page carries in its `<head>` (sites/builder/csp.ts), as served. */
const PAGE_POLICY = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/;

/** Without PUBLIC_BASE_URL, how many origins (Host headers) have their served bodies kept (createDocsHandler). */
const MAX_ORIGINS_WITHOUT_BASE_URL = 16;

/** Content-hashed by Astro: the same URL never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else may change with the next publish: cached, but asked again each time (ETag). */
const REVALIDATE = 'public, max-age=0, must-revalidate';

type Body = { data: Buffer; etag: string; gzip: boolean; policy?: string | undefined };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A host name or IP literal with an optional port. */
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** Accept-Encoding allows gzip (`gzip`, `gzip;q=0.5`, `*`), and does not refuse it (`gzip;q=0`). */
function acceptsGzip(header: string | undefined): boolean {
  const codings = new Map(
    String(header ?? '')
      .split(',')
      .map((part) => {
        const [name = '', ...params] = part.toLowerCase().split(';');
        const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
        return [name.trim(), q === undefined ? 1 : Number(q)] as const;
      }),
  );
  return (codings.get('gzip') ?? codings.get('*') ?? 0) > 0;
}

/** If-None-Match names this ETag: one of a list, weak or not, or `*`. */
const matches = (header: string | undefined, etag: string) =>
  header !== undefined && header.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));

/**
 * A small page of our own (building, failed, unknown ref or site): the reader learns what happened and what to do.
 * True: the request is answered.
 */
function notice(res: ServerResponse, status: number, title: string, paragraphs: string[], headers: Record<string, string | number> = {}): true {
  // A 503 page reloads itself when the server says to try again (its Retry-After): what was building is then served.
  const retry = status === 503 ? headers['Retry-After'] : undefined;
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">${
    retry === undefined ? '' : `<meta http-equiv="refresh" content="${retry}">`
  }<title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2328}code{background:#f3f4f6;padding:0 .25em}</style></head><body><main><h1>${escapeHtml(
    title,
  )}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</main></body></html>`;
  res
    .writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': NOTICE_POLICY, 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'SAMEORIGIN', ...headers })
    .end(body);
  return true;
}

/**
 * The Content-Security-Policy header of a file as served: a page's is the policy its meta carries plus
 * frame-ancestors (a CDN or proxy sees it, and it covers the bytes before the meta); an HTML file without one, or a
 * file that can carry script (SANDBOXED), is sandboxed; other files need none.
 */
function pagePolicy(path: string, text: string | undefined): string | undefined {
  const extension = extensionOf(path);
  if (extension !== 'html' && !SANDBOXED.has(extension)) return undefined;
  const meta = extension === 'html' && text !== undefined ? PAGE_POLICY.exec(text)?.[1] : undefined;
  return `${meta ?? SANDBOX_POLICY}; ${FRAME_ANCESTORS}`;
}

export function createDocsHandler(sites: DocsSites, options: DocsHandlerOptions = {}) {
  const publicUrl = options.publicBaseUrl ? new URL(options.publicBaseUrl) : undefined;
  const scheme = publicUrl ? publicUrl.protocol.slice(0, -1) : 'http';
  /**
   * Origins whose bodies are kept, resolved and compressed. With PUBLIC_BASE_URL every origin a page is served at is
   * one the server knows (its own, a vanity owner's, a mapped domain's, each at the public port); without it, origins
   * come from Host headers, and any client can send a new one with each request: only the first few are kept, others
   * are resolved for their request alone (not compressed), so they cannot cost more than a kept body nor push the
   * kept ones out.
   */
  const keptOrigins = new Set<string>();
  const keeps = (origin: string) => {
    if (publicUrl || keptOrigins.has(origin)) return true;
    if (keptOrigins.size >= MAX_ORIGINS_WITHOUT_BASE_URL) return false;
    keptOrigins.add(origin);
    return true;
  };
  /** Bodies as served (resolved, maybe gzipped), by blob and how they were served. */
  const bodies = new LRUCache<string, Body>({ maxSize: 64 << 20, sizeCalculation: (body) => Math.max(1, body.data.length) });

  async function body(site: ServedSite, path: string, blob: string, gzip: boolean): Promise<Body> {
    const resolve = RESOLVED.has(extensionOf(path));
    const variant = resolve ? `${site.served.base}|${site.served.origin}|${site.served.defaultBranch}|${site.served.customDomain}` : '';
    const key = `${blob}|${variant}|${gzip}`;
    const cached = bodies.get(key);
    if (cached) return cached;
    const kept = !resolve || keeps(site.served.origin);
    const stored = (await sites.file(site.build, path))!;
    const text = resolve ? resolveHosted(stored.toString('utf8'), site.served) : undefined;
    const data = text === undefined ? stored : Buffer.from(text);
    const compress = kept && gzip && resolve && data.length > 1024;
    const etag = `"${createHash('sha256').update(blob).update(variant).digest('base64url').slice(0, 27)}${compress ? '-gz' : ''}"`;
    const made = { data: compress ? gzipSync(data) : data, etag, gzip: compress, policy: pagePolicy(path, text) };
    if (kept) bodies.set(key, made);
    return made;
  }

  async function send(req: IncomingMessage, res: ServerResponse, site: ServedSite, path: string, status = 200): Promise<true> {
    const entry = site.build.files.get(path)!;
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    const { data, etag, gzip: gzipped, policy } = await body(site, path, entry.blob, gzip);
    const sandboxed = SANDBOXED.has(extensionOf(path));
    // Opened as a document, such a file is shown as text: its script cannot run even where its policy is lost.
    const asText = sandboxed && OPENED.has(String(req.headers['sec-fetch-dest']));
    return answer(req, res, site, status, data, {
      'Content-Type': asText ? 'text/plain; charset=utf-8' : (CONTENT_TYPES[extensionOf(path)] ?? 'application/octet-stream'),
      'Cache-Control': status === 200 && path.startsWith('_astro/') ? IMMUTABLE : REVALIDATE,
      ETag: etag,
      Vary: sandboxed ? 'Accept-Encoding, Sec-Fetch-Dest' : 'Accept-Encoding',
      ...(policy ? { 'Content-Security-Policy': policy, 'X-Frame-Options': 'SAMEORIGIN' } : {}),
      ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
    });
  }

  /** A generated social image (the build's manifest describes it; social.ts draws it once for every build). */
  async function sendSocial(req: IncomingMessage, res: ServerResponse, site: ServedSite, card: CardInput): Promise<boolean> {
    const image = await options.social!.image(card);
    if (!image) return false; // not drawable: the site's 404
    return answer(req, res, site, 200, image.png, { 'Content-Type': 'image/png', 'Cache-Control': REVALIDATE, ETag: `"${image.key.slice(0, 27)}"` });
  }

  /** Answers a site's bytes with `headers` and those every file gets; 304 when a 200's ETag is the client's. */
  function answer(req: IncomingMessage, res: ServerResponse, site: ServedSite, status: number, data: Buffer, headers: Record<string, string | number> & { ETag: string }): true {
    const all: Record<string, string | number> = {
      ...headers,
      'X-Content-Type-Options': 'nosniff',
      // Previews (branches, tags, commits, pull requests) stay out of search engines; the default URL is the site.
      ...(site.request.ref !== undefined ? { 'X-Robots-Tag': 'noindex' } : {}),
    };
    if (status === 200 && matches(req.headers['if-none-match'], headers.ETag)) return (res.writeHead(304, all).end(), true);
    // Node sends no body for HEAD: the headers, the length included, are those of GET.
    res.writeHead(status, { ...all, 'Content-Length': data.length }).end(data);
    return true;
  }

  /** The card of a generated social image the build describes at `path`, if any. */
  function socialCard(build: LoadedBuild, path: string): CardInput | undefined {
    const social = build.manifest.social;
    if (!social || !options.social) return undefined;
    let file: string;
    try {
      file = decodeURIComponent(path).replace(/^\/+/, '');
    } catch {
      return undefined;
    }
    const title = Object.hasOwn(social.titles, file) ? social.titles[file] : undefined;
    return title === undefined ? undefined : { ...social.shared, title };
  }

  function redirect(res: ServerResponse, site: ServedSite, target: string): true {
    // Destinations come from the repository: whatever they hold (a lone surrogate too), the header carries only
    // URL-safe ASCII.
    const location = resolveHosted(target, site.served)
      .toWellFormed()
      .replace(/[^\x21-\x7e]+/g, (text) => encodeURIComponent(text));
    res.writeHead(307, { Location: location, 'Cache-Control': REVALIDATE, 'Content-Type': 'text/plain; charset=utf-8' }).end(`Redirecting to ${location}\n`);
    return true;
  }

  /**
   * The file a site path names: `/` -> index.html, `/a` and `/a/` -> a/index.html, or the file itself. The build's
   * map holds normalised paths only, so a path with dot or empty segments names nothing.
   */
  function fileOf(build: LoadedBuild, path: string): string | undefined {
    let relative: string;
    try {
      relative = decodeURIComponent(path).replace(/^\/+|\/+$/g, '');
    } catch {
      return undefined;
    }
    if (relative === '') return build.files.has('index.html') ? 'index.html' : undefined;
    return [relative, `${relative}/index.html`].find((candidate) => build.files.has(candidate));
  }

  /** Answers a docs request; false when the request is not for a hosted site (the API's, then). */
  return async function handleDocs(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    try {
      return await serve(req, res);
    } catch (error) {
      // An outage of the database: readers are asked to come back (the API answers its own 503s).
      if (!databaseUnavailable(error) || res.headersSent) throw error;
      return notice(res, 503, 'Temporarily unavailable', ['The documentation cannot be read right now. Please try again in a moment.'], { 'Retry-After': 5 });
    }
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const [pathname = '/'] = (req.url ?? '/').split('?', 1);
    // The Host header becomes part of URLs in pages (canonical, og:url): only a well-formed host name is taken.
    const host = HOST.test(req.headers.host ?? '') ? req.headers.host!.toLowerCase() : 'localhost';
    const routed = await sites.route(host, pathname);
    if (!routed) return false;
    if ('unknown' in routed) {
      return notice(res, 404, 'No documentation here', [`Nothing is published at <code>${escapeHtml(host)}${escapeHtml(pathname)}</code>.`]);
    }
    const { repository, ref } = routed;
    const name = `${repository.owner}/${repository.name}`;
    const route = routed.path;
    const handler = options.routes?.[route.replace(/\/+$/, '')];

    // Reading a ref nobody published builds it; other methods (bar the site's own routes) only look.
    const reads = Boolean(handler) || req.method === 'GET' || req.method === 'HEAD';
    const deployment = await sites.deployment(repository, ref, { address: clientAddress(req), reads });
    const what = ref === undefined ? `the default branch${repository.defaultBranch ? ` (<code>${escapeHtml(repository.defaultBranch)}</code>)` : ''}` : `<code>${escapeHtml(ref)}</code>`;
    if (deployment.state === 'building') {
      return notice(res, 503, `${name} is being built`, [`The site of ${what} is being built (commit <code>${deployment.build.commit.slice(0, 12)}</code>). This page reloads in a few seconds.`], { 'Retry-After': 5 });
    }
    if (deployment.state === 'busy') {
      return notice(res, 503, `${name} is busy`, [`Several versions of ${name} are being built. Try ${what} again in a minute.`], { 'Retry-After': 30 });
    }
    if (deployment.state === 'limited') {
      return notice(res, 429, 'Too many new versions asked for', [`This address asked for many versions nobody had published yet. Try ${what} again later.`], { 'Retry-After': deployment.retryAfterSeconds });
    }
    if (deployment.state === 'failed') {
      const problems = (deployment.build.problems ?? []).filter((p) => p.severity === 'error').slice(0, 5);
      return notice(res, 503, `${name} could not be built`, [
        `The build of ${what} (commit <code>${deployment.build.commit.slice(0, 12)}</code>) failed: ${escapeHtml(deployment.build.error ?? 'unknown reason')}.`,
        ...problems.map((p) => `<code>${escapeHtml(`${p.file}:${p.line}:${p.column}`)}</code> ${escapeHtml(String(p.message))}`),
      ], { 'Retry-After': 60 });
    }
    if (deployment.state === 'unknown') {
      const links = deployment.refs.map((r) => `<a href="${escapeHtml(siteBase(routed.mode, repository, urlRef(r)))}">${escapeHtml(urlRef(r))}</a>`);
      return notice(res, 404, `No such version of ${name}`, [
        ref === undefined ? `Nothing of ${name} is published yet.` : `${name} has no branch, tag, pull request or commit named <code>${escapeHtml(ref)}</code>.`,
        ...(links.length ? [`Published: ${links.join(', ')}.`] : []),
      ]);
    }

    // A vanity or custom domain is served at the public port (a Host header's own port is the client's to choose).
    const origin = !publicUrl ? `${scheme}://${host}` : routed.mode === 'path' ? options.publicBaseUrl! : `${scheme}://${host.replace(/:\d+$/, '')}${publicUrl.port ? `:${publicUrl.port}` : ''}`;
    const served: Served = { base: routed.base, origin, defaultBranch: ref === undefined, customDomain: routed.mode !== 'path' };
    const site: ServedSite = {
      request: routed,
      build: deployment.build,
      served,
      url: (route) => origin + routeUrl(routed.base, route),
    };
    if (handler) {
      await handler(req, res, site);
      return true;
    }
    options.social?.warm(); // a reader of a site may well ask for its images next
    const { manifest } = deployment.build;
    const normal = normalizeRoute(route);
    const answer = pathAnswer({
      pageRedirect: deployment.build.pageRedirects.has(normal) ? manifest.redirects[normal] : undefined,
      file: fileOf(deployment.build, route),
      redirect: manifest.redirects[normal],
    });
    // A redirect answers any method (307 keeps it); files and pages are read with GET and HEAD only.
    if (answer && answer.by !== 'file') return redirect(res, site, answer.to);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return true;
    }
    if (answer) return send(req, res, site, answer.file);
    const card = socialCard(deployment.build, route);
    if (card && (await sendSocial(req, res, site, card))) return true;
    if (deployment.build.files.has('404.html')) return send(req, res, site, '404.html', 404);
    return notice(res, 404, 'Page not found', [`${escapeHtml(name)} has no page at <code>${escapeHtml(route)}</code>.`]);
  }
}
