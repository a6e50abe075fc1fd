import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db/orm.ts';
import { DocsBlob, DocsBuild, DocsDeployment, DocsDomain, DocsFile, DocsRepository, type BuildManifest } from '../entities.ts';
import { RESERVED_OWNERS } from '../schemas.ts';
import { isCommitPrefix, refNames } from '../git.ts';
import { siteBase, slugOf, type RoutingMode } from '../names.ts';
import { hostedLlmsFullTxt, markdownFile } from '../../../sites/index.ts';
import { sha256Hex } from '../../platform/hash.ts';
import type { SearchHit } from './search.ts';
import { SiteSearches } from './site-searches.ts';

/**
 * Which site a request is for, and what it serves: a repository (by path, vanity subdomain or custom domain),
 * the ref in its URL, the build that ref serves and that build's files. Everything here is read from the
 * database through caches: built files never change (a commit's build is immutable), what a ref serves may change
 * (a publish): that is cached for a few seconds, and dropped at once in the process that changed it.
 */

export interface SiteRepository {
  id: string;
  owner: string;
  name: string;
  defaultBranch: string | null;
}

/** Where a request landed: the repository, how it was addressed, the ref (as in the URL) and the path in the site. */
export interface SiteRequest {
  repository: SiteRepository;
  mode: RoutingMode;
  /** The `{ref}` of `~{ref}`, decoded; undefined for the default branch. */
  ref: string | undefined;
  /** The site's base path as served here (no trailing slash): `/acme/widgets~beta`, `/widgets`, `''`. */
  base: string;
  /** The path inside the site, from `/`. */
  path: string;
}

export interface LoadedBuild {
  id: string;
  repository: string;
  commit: string;
  manifest: BuildManifest;
  /**
   * The build's files by path in the site. `composed`: not a stored blob but made from other files when read
   * ({@link DocsSites.file}); its `blob` is a key of what it is made of (bodies and ETags are keyed by it), its size
   * that of its parts.
   */
  files: Map<string, { blob: string; size: number; composed?: true }>;
  /** The manifest's pages that redirect (frontmatter `redirect`), looked up per request. */
  pageRedirects: ReadonlySet<string>;
}

/** The file a build composes from its pages' Markdown (SiteManifest.llmsFull). */
const LLMS_FULL = 'llms-full.txt';
/** Blobs asked for in one query while composing a file. */
const BLOBS_PER_QUERY = 500;
/** Changes with how a composed file is made: its ETag changes with it. */
const COMPOSED_VERSION = 1;
/**
 * The largest llms-full.txt composed (the pages' Markdown together), made in memory on request: a 10,000-page
 * site's is ~50 MB, and 64 MB is the most the served bodies' cache keeps (serve.ts). A build whose pages' Markdown
 * is larger serves none (404), where a repository could otherwise make every request gather hundreds of MB.
 */
const MAX_COMPOSED_BYTES = 64 << 20;

export type Deployment =
  | { state: 'ready'; build: LoadedBuild }
  /** Nothing served yet; the ref's build is queued or running. */
  | { state: 'building'; build: DocsBuild }
  /** Nothing served and the newest build failed. */
  | { state: 'failed'; build: DocsBuild }
  /** The URL names no branch, tag, pull request or commit of the repository. */
  | { state: 'unknown'; refs: string[] }
  /** Readers asked for too many builds of this repository: later. */
  | { state: 'busy' }
  /** This reader (its address) asked for too many builds of unpublished refs lately. */
  | { state: 'limited'; retryAfterSeconds: number };

export interface SiteOptions {
  /** `docs.example.com`: `{owner}.docs.example.com/{repo}` serves owner's repositories. */
  vanityDomain?: string | undefined;
  /** The service's own host names (PUBLIC_BASE_URL's): never custom domains. */
  serviceHosts?: string[] | undefined;
  /** How long what a ref serves is cached (other processes' publishes show after at most this). Default 2 s. */
  freshnessMs?: number;
  /** The largest llms-full.txt composed ({@link MAX_COMPOSED_BYTES} by default). */
  maxComposedBytes?: number;
  /** Looks a mapped domain's DNS challenge up (a domain is served only once proven); answers the domain as recorded. */
  checkDomain?: (domain: DocsDomain) => Promise<DocsDomain>;
  /**
   * The full ref a URL's `{ref}` names in the repository now (`v2` -> `refs/heads/v2` when a branch has that name,
   * whether or not it is published), so a tag published first cannot take its branch's URL.
   */
  refName?: (repository: SiteRepository, ref: string) => Promise<string | undefined>;
  /** Ask for a build of a ref nobody published yet (it exists in the repository): answers its build. */
  buildOnDemand?: (repository: SiteRepository, ref: string, client: string) => Promise<DocsBuild | 'busy' | { limited: number } | undefined>;
  /**
   * Counts a client's look-up of a URL ref this process has not resolved lately, before any is made (git, the
   * database): seconds to wait when it has asked too many, else undefined.
   */
  countRefLookup?: (client: string) => Promise<number | undefined>;
}

/** Who asks for a site: their address, and whether they read it (a read of an unpublished ref builds it). */
export interface SiteReader {
  address: string;
  reads: boolean;
}

const NONE = Symbol('none');
/** The mapped domains' names as read, the table's stamp then, and when it was checked. */
type MappedNames = { names: Set<string>; stamp: string; checkedAt: number };
/** How often a request may look up the DNS challenge of a domain not proven yet. */
const DOMAIN_CHECK_INTERVAL_MS = 10_000;
/** No repository name, owner or git ref holds a control character (git forbids them): such a URL names nothing. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Host names a custom domain can have (as DomainCreate accepts them): labels and a top-level domain of letters. */
const CUSTOM_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export class DocsSites {
  readonly #db: Database;
  readonly #options: SiteOptions;
  readonly #repositories: LRUCache<string, SiteRepository | typeof NONE>;
  readonly #domains: LRUCache<string, SiteRepository | typeof NONE>;
  readonly #deployments: LRUCache<string, { build: string | null; wantedCommit: string } | typeof NONE>;
  readonly #builds = new LRUCache<string, LoadedBuild>({ max: 64 });
  readonly #blobs = new LRUCache<string, Buffer>({ maxSize: 128 << 20, sizeCalculation: (data) => Math.max(1, data.length) });
  readonly #searches = new SiteSearches();
  /** Composed files being made, by key: requests that come meanwhile wait for the same one. */
  readonly #composing = new Map<string, Promise<Buffer>>();
  /** What URL refs name (a git lookup each), for a few seconds. */
  readonly #refNames = new LRUCache<string, string | typeof NONE>({ max: 10_000, ttl: 10_000 });
  /** Unproven domains looked up lately by this process: a flood of requests is not a flood of DNS queries. */
  readonly #domainChecks = new LRUCache<string, true>({ max: 10_000, ttl: DOMAIN_CHECK_INTERVAL_MS });
  readonly #ttl: number;
  /** Every mapped domain's name, and the stamp of the table it was read at ({@link #mappedNames}). */
  #mapped: MappedNames | undefined;
  #mappedReading: Promise<Set<string>> | undefined;

  constructor(db: Database, options: SiteOptions = {}) {
    this.#db = db;
    this.#options = options;
    const ttl = (this.#ttl = options.freshnessMs ?? 2_000);
    this.#repositories = new LRUCache({ max: 10_000, ttl });
    this.#domains = new LRUCache({ max: 10_000, ttl });
    this.#deployments = new LRUCache({ max: 10_000, ttl });
  }

  /** Forgets what this process cached about repositories' refs and names (after a publish or a domain change). */
  invalidate(): void {
    this.#mapped = undefined;
    this.#refNames.clear();
    this.#repositories.clear();
    this.#domains.clear();
    this.#deployments.clear();
  }

  /** A repository by slug or id, as sites need it. */
  async #find(where: { slug: string } | { id: string }): Promise<SiteRepository | typeof NONE> {
    const row = await this.#db.em().findOne(DocsRepository, where, { fields: ['id', 'owner', 'name', 'defaultBranch'] });
    return row ? { id: row.id, owner: row.owner, name: row.name, defaultBranch: row.defaultBranch ?? null } : NONE;
  }

  async #repository(slug: string): Promise<SiteRepository | undefined> {
    if (CONTROL.test(slug)) return undefined;
    let cached = this.#repositories.get(slug);
    if (cached === undefined) this.#repositories.set(slug, (cached = await this.#find({ slug })));
    return cached === NONE ? undefined : cached;
  }

  async #domain(hostname: string): Promise<SiteRepository | undefined> {
    let cached = this.#domains.get(hostname);
    if (cached === undefined) {
      const found = await this.#db.em().findOne(DocsDomain, { hostname });
      const domain = found && !found.verifiedAt ? await this.#checkUnproven(found) : found;
      this.#domains.set(hostname, (cached = domain?.verifiedAt ? await this.#find({ id: domain.repository }) : NONE));
    }
    return cached === NONE ? undefined : cached;
  }

  /**
   * The names of all mapped domains. A Host header is the client's to make up, any name and a new one each time: it is
   * looked up here, in memory, not by a query each (nor a cache entry each, which would push the real ones out). The
   * table's stamp (its rows and newest mapping) is checked when the names are older than the freshness; they are read
   * again only when it changed.
   */
  #mappedNames(): Promise<Set<string>> {
    const mapped = this.#mapped;
    if (mapped && Date.now() - mapped.checkedAt < this.#ttl) return Promise.resolve(mapped.names);
    return (this.#mappedReading ??= this.#readMappedNames(mapped).finally(() => (this.#mappedReading = undefined)));
  }

  async #readMappedNames(last: MappedNames | undefined): Promise<Set<string>> {
    const em = this.#db.em();
    const [row] = await em.execute<{ stamp: string }[]>("select count(*)::text || ':' || coalesce(max(created_at)::text, '') as stamp from docs_domain");
    const stamp = row!.stamp;
    const names = last?.stamp === stamp ? last.names : new Set((await em.find(DocsDomain, {}, { fields: ['hostname'] })).map((domain) => domain.hostname));
    this.#mapped = { names, stamp, checkedAt: Date.now() };
    return names;
  }

  /** A request for a mapped domain not proven yet looks its record up, at most once per interval. */
  async #checkUnproven(domain: DocsDomain): Promise<DocsDomain> {
    const { checkDomain } = this.#options;
    if (!checkDomain || this.#domainChecks.has(domain.hostname)) return domain;
    this.#domainChecks.set(domain.hostname, true);
    return checkDomain(domain);
  }

  /**
   * The site a request is for, or undefined when it is not a docs request (the API and everything else of the
   * service host). On a vanity subdomain or a custom domain every path is the site's.
   */
  async route(host: string, path: string): Promise<SiteRequest | { mode: 'vanity' | 'domain'; unknown: true } | undefined> {
    const hostname = host.toLowerCase().replace(/:\d+$/, '');
    const vanity = this.#options.vanityDomain;
    const segments = path.split('/').slice(1);
    const service = this.#options.serviceHosts?.includes(hostname);
    if (vanity && !service && hostname.endsWith(`.${vanity}`) && !hostname.slice(0, -vanity.length - 1).includes('.')) {
      const owner = hostname.slice(0, -vanity.length - 1);
      const [first = '', ...rest] = segments;
      const { name, ref } = splitRef(first);
      const repository = name ? await this.#repository(slugOf(owner, name)) : undefined;
      if (!repository) return { mode: 'vanity', unknown: true };
      return { repository, mode: 'vanity', ref, base: siteBase('vanity', repository, ref), path: `/${rest.join('/')}` };
    }
    // Only a DNS name can be a custom domain: the service's own host, `localhost` and IP addresses are never looked up.
    const mapped = CUSTOM_DOMAIN.test(hostname) && !service && (await this.#mappedNames()).has(hostname) ? await this.#domain(hostname) : undefined;
    if (mapped) {
      const refSegment = segments[0]?.startsWith('~') ? segments.shift()! : undefined;
      const ref = refSegment ? decode(refSegment.slice(1)) : undefined;
      return { repository: mapped, mode: 'domain', ref, base: siteBase('domain', mapped, ref), path: `/${segments.join('/')}` };
    }
    const [owner = '', second = '', ...rest] = segments;
    if (!owner || !second || RESERVED_OWNERS.has(owner.toLowerCase())) return undefined;
    const { name, ref } = splitRef(second);
    const repository = await this.#repository(slugOf(decode(owner), name));
    if (!repository) return undefined;
    return { repository, mode: 'path', ref, base: siteBase('path', repository, ref), path: `/${rest.join('/')}` };
  }

  /**
   * What the URL's ref (undefined: the default branch) serves. A `reader` is counted for each ref this process has not
   * resolved lately (before it is looked up), and one who reads asks for a build of a ref nobody published; without
   * a reader nothing is counted or built.
   */
  async deployment(repository: SiteRepository, ref: string | undefined, reader?: SiteReader): Promise<Deployment> {
    if (ref !== undefined && CONTROL.test(ref)) return this.#unknown(repository);
    if (ref !== undefined && reader && this.#options.countRefLookup && !this.#resolvedLately(repository, ref)) {
      const wait = await this.#options.countRefLookup(reader.address);
      if (wait !== undefined) return { state: 'limited', retryAfterSeconds: wait };
    }
    const names = ref === undefined ? (repository.defaultBranch ? [`refs/heads/${repository.defaultBranch}`] : []) : await this.#namesOf(repository, ref);
    for (const name of names) {
      const found = await this.#deploymentOf(repository.id, name);
      if (found) return found;
    }
    if (ref !== undefined && isCommitPrefix(ref)) {
      const builds = await this.#db.em().find(DocsBuild, { repository: repository.id, commit: { $like: `${ref.toLowerCase()}%` } }, { limit: 2 });
      if (builds.length === 1) return this.#stateOf(builds[0]!);
    }
    const requested = ref !== undefined && reader?.reads && this.#options.buildOnDemand ? await this.#options.buildOnDemand(repository, ref, reader.address) : undefined;
    if (requested === 'busy') return { state: 'busy' };
    if (requested && 'limited' in requested) return { state: 'limited', retryAfterSeconds: requested.limited };
    if (requested) return this.#stateOf(requested);
    return this.#unknown(repository);
  }

  /** Whether this process resolved `ref` lately: the answer is at hand, nothing is looked up. */
  #resolvedLately(repository: SiteRepository, ref: string): boolean {
    return ref.startsWith('refs/') || this.#refNames.has(`${repository.id}\0${ref}`);
  }

  /** The full refs a URL ref may mean, in precedence order: the one it names in the repository, when known. */
  async #namesOf(repository: SiteRepository, ref: string): Promise<string[]> {
    if (ref.startsWith('refs/')) return [ref];
    const key = `${repository.id}\0${ref}`;
    let name = this.#refNames.get(key);
    if (name === undefined) {
      name = (await this.#options.refName?.(repository, ref)) ?? NONE;
      this.#refNames.set(key, name);
    }
    return name === NONE ? refNames(ref) : [name];
  }

  /** The URL names no version: the answer lists the published ones. */
  async #unknown(repository: SiteRepository): Promise<Deployment> {
    const refs = await this.#db.em().find(DocsDeployment, { repository: repository.id }, { fields: ['ref'], orderBy: { ref: 'asc' } });
    return { state: 'unknown', refs: refs.map((d) => d.ref) };
  }

  async #deploymentOf(repository: string, ref: string): Promise<Deployment | undefined> {
    const key = `${repository}\0${ref}`;
    let cached = this.#deployments.get(key);
    if (cached === undefined) {
      const row = await this.#db.em().findOne(DocsDeployment, { repository, ref });
      cached = row ? { build: row.build ?? null, wantedCommit: row.wantedCommit } : NONE;
      this.#deployments.set(key, cached);
    }
    if (cached === NONE) return undefined;
    if (cached.build) return { state: 'ready', build: await this.#load(cached.build) };
    // Published, nothing served yet: how is its newest build doing?
    const build = await this.#db.em().findOne(DocsBuild, { repository, commit: cached.wantedCommit });
    return build ? this.#stateOf(build) : undefined;
  }

  async #stateOf(build: DocsBuild): Promise<Deployment> {
    if (build.status === 'SUCCEEDED') return { state: 'ready', build: await this.#load(build.id) };
    return build.status === 'FAILED' ? { state: 'failed', build } : { state: 'building', build };
  }

  async #load(id: string): Promise<LoadedBuild> {
    const cached = this.#builds.get(id);
    if (cached) return cached;
    const build = await this.#db.em().findOneOrFail(DocsBuild, { id });
    const rows = await this.#db.em().find(DocsFile, { build: id }, { fields: ['path', 'blob', 'size'] });
    const manifest = build.manifest!;
    const files: LoadedBuild['files'] = new Map(rows.map((row) => [row.path, { blob: row.blob, size: row.size }]));
    if (manifest.llmsFull === 'composed') {
      // Composed even where the repository's public/ folder had a file of that name (a local build writes its own
      // over it too); not offered when it would be too large to make in memory on request.
      files.delete(LLMS_FULL);
      const parts = manifest.pages.map(({ route }) => files.get(markdownFile(route)));
      const size = parts.reduce((sum, part) => sum + (part?.size ?? 0), 0);
      const key = sha256Hex(JSON.stringify([LLMS_FULL, COMPOSED_VERSION, manifest.name, manifest.description, manifest.pages.map(({ route }, i) => [route, parts[i]?.blob])]));
      if (size <= (this.#options.maxComposedBytes ?? MAX_COMPOSED_BYTES)) files.set(LLMS_FULL, { blob: `composed-${key}`, size, composed: true });
    }
    const loaded: LoadedBuild = { id, repository: build.repository, commit: build.commit, manifest, files, pageRedirects: new Set(manifest.pageRedirects) };
    this.#builds.set(id, loaded);
    return loaded;
  }

  /** A stored file's bytes. */
  async blob(hash: string): Promise<Buffer> {
    const data = await this.storedBlob(hash);
    if (!data) throw new Error(`blob ${hash} is not stored`);
    return data;
  }

  /** A blob's bytes, or undefined when nothing is stored under `hash` (a social image not drawn yet). */
  async storedBlob(hash: string): Promise<Buffer | undefined> {
    const cached = this.#blobs.get(hash);
    if (cached) return cached;
    const row = await this.#db.em().findOne(DocsBlob, { hash });
    if (!row) return undefined;
    const data = Buffer.from(row.data);
    this.#blobs.set(hash, data);
    return data;
  }

  /** A file of a build by its path in the site, or undefined. */
  async file(build: LoadedBuild, path: string): Promise<Buffer | undefined> {
    const entry = build.files.get(path);
    if (!entry) return undefined;
    return entry.composed ? this.#llmsFull(build) : this.blob(entry.blob);
  }

  /** llms-full.txt of a build that composes it, made once however many ask for it at the same time. */
  #llmsFull(build: LoadedBuild): Promise<Buffer> {
    const key = build.files.get(LLMS_FULL)!.blob;
    let composing = this.#composing.get(key);
    if (!composing) {
      composing = this.#compose(build).finally(() => this.#composing.delete(key));
      this.#composing.set(key, composing);
    }
    return composing;
  }

  /** llms-full.txt made from a build's listed pages and their `<page>.md` files, read a few hundred per query. */
  async #compose(build: LoadedBuild): Promise<Buffer> {
    const { manifest, files } = build;
    const hashes = [...new Set(manifest.pages.map(({ route }) => files.get(markdownFile(route))?.blob).filter((hash) => hash !== undefined))];
    const texts = new Map<string, string>();
    const missing = hashes.filter((hash) => {
      const cached = this.#blobs.get(hash);
      if (cached) texts.set(hash, cached.toString('utf8'));
      return !cached;
    });
    for (let i = 0; i < missing.length; i += BLOBS_PER_QUERY) {
      // Not kept one by one in #blobs: the composed file is (serve.ts), a thousand pages' Markdown would only push
      // out what readers ask for.
      const rows = await this.#db.em().find(DocsBlob, { hash: { $in: missing.slice(i, i + BLOBS_PER_QUERY) } });
      for (const row of rows) texts.set(row.hash, Buffer.from(row.data).toString('utf8'));
    }
    return Buffer.from(hostedLlmsFullTxt(manifest, (path) => texts.get(files.get(path)?.blob ?? '') ?? ''));
  }

  /** The best `limit` pages of the build's full-text index for `query` (MCP search, chat retrieval), in a thread. */
  search(build: LoadedBuild, query: readonly string[], limit: number): Promise<SearchHit[]> {
    const stored = build.manifest.searchIndex;
    return this.#searches.search(stored, () => this.blob(stored), query, limit);
  }

  /** Ends the search thread. */
  close(): Promise<void> {
    return this.#searches.close();
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `widgets~beta` -> name `widgets`, ref `beta`; a ref with `/` arrives encoded (`~feature%2Fx`). */
function splitRef(segment: string): { name: string; ref: string | undefined } {
  const at = segment.indexOf('~');
  if (at < 0) return { name: decode(segment), ref: undefined };
  const ref = decode(segment.slice(at + 1));
  return { name: decode(segment.slice(0, at)), ref: ref === '' ? undefined : ref };
}
