import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { LRUCache } from 'lru-cache';
import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from '../platform/db/orm.ts';
import { DocsAgent, DocsBuild, DocsDeployment, DocsDomain, DocsRepository } from '../platform/db/entities.ts';
import { AppError } from '../platform/errors.ts';
import { sha256Hex } from '../platform/hash.ts';
import { BuildQueue, deployBuild } from './builds/queue.ts';
import { GitError, urlRef } from './git.ts';
import type { Mirrors } from './mirrors.ts';
import { siteBase, slugOf } from './names.ts';
import type { SecretBox } from './secrets.ts';
import type { BuildOut, RepositoryCreate, RepositoryOut } from './schemas.ts';

const repositoryNotFound = (owner: string, repo: string) => new AppError('NOT_FOUND', `No repository ${owner}/${repo} is registered by this organization`, { reason: 'repository' });

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
/** Builds of one repository that readers' requests may have waiting or running at once. */
const ON_DEMAND_BUILDS = 3;

export function buildView(build: DocsBuild, repository: Pick<DocsRepository, 'owner' | 'name'>): BuildOut {
  return {
    id: build.id,
    owner: repository.owner,
    repo: repository.name,
    commit: build.commit,
    status: build.status as BuildOut['status'],
    refs: build.refs,
    pages: build.pages ?? null,
    problems: (build.problems ?? []) as BuildOut['problems'],
    error: build.error ?? null,
    progress: (build.progress as BuildOut['progress']) ?? null,
    createdAt: build.createdAt.toISOString(),
    startedAt: iso(build.startedAt),
    finishedAt: iso(build.finishedAt),
  };
}

export interface DocsHostingOptions {
  mirrors: Mirrors;
  queue: BuildQueue;
  secrets: SecretBox;
  /** Where the code host should post push events (PUBLIC_BASE_URL, else a path). */
  publicBaseUrl?: string | undefined;
  /** Called when what a repository serves may have changed (site caches). */
  onChange?: (repositoryId: string) => void;
  /** PUBLIC_BASE_URL's host and DOCS_DOMAIN: names no custom domain may take. */
  serviceHost?: string | undefined;
  vanityDomain?: string | undefined;
}

/**
 * Documentation hosting for organizations: registering repositories, publishing refs (sync the mirror, queue
 * the build of the ref's commit), push webhooks, build status, custom domains and chat-panel agents.
 */
export class DocsHostingService {
  readonly #db: Database;
  readonly #options: DocsHostingOptions;

  constructor(db: Database, options: DocsHostingOptions) {
    this.#db = db;
    this.#options = options;
  }

  get queue(): BuildQueue {
    return this.#options.queue;
  }

  async #owned(orgId: string, owner: string, repo: string): Promise<DocsRepository> {
    const found = await this.#db.em().findOne(DocsRepository, { slug: slugOf(owner, repo), organization: orgId });
    if (!found) throw repositoryNotFound(owner, repo);
    return found;
  }

  async register(orgId: string, input: RepositoryCreate) {
    const problem = await this.#options.mirrors.sourceProblem(input.source);
    if (problem) throw new AppError('VALIDATION_ERROR', 'Invalid request', { source: problem });
    const taken = () => new AppError('CONFLICT', `${input.owner}/${input.repo} is already registered`, { reason: 'duplicate' });
    if (await this.#db.em().count(DocsRepository, { slug: slugOf(input.owner, input.repo) })) throw taken();
    // Cloned now: a source that is not a git repository this server can read is refused before anything is stored.
    const id = randomUUID();
    let synced;
    try {
      synced = await this.#options.mirrors.sync(id, input.source);
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      throw new AppError('VALIDATION_ERROR', 'Invalid request', { source: `Not a git repository this server can read (${error.message})` });
    }
    const secret = randomBytes(24).toString('base64url');
    const now = new Date();
    const repository: DocsRepository = {
      id,
      organization: orgId,
      owner: input.owner,
      name: input.repo,
      slug: slugOf(input.owner, input.repo),
      source: input.source,
      defaultBranch: synced.defaultBranch,
      webhookSecret: this.#options.secrets.seal(secret),
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.#db.em().insert(DocsRepository, repository);
    } catch (error) {
      await this.#options.mirrors.remove(id);
      if (error instanceof UniqueConstraintViolationException) throw taken();
      throw error;
    }
    const base = this.#options.publicBaseUrl ?? '';
    return {
      ...(await this.#view(repository)),
      webhookSecret: secret,
      webhookUrl: `${base}/api/docs/repositories/${repository.owner}/${repository.name}/webhook`,
    };
  }

  async get(orgId: string, owner: string, repo: string): Promise<RepositoryOut> {
    return this.#view(await this.#owned(orgId, owner, repo));
  }

  async #view(repository: DocsRepository): Promise<RepositoryOut> {
    const em = this.#db.em();
    const deployments = await em.find(DocsDeployment, { repository: repository.id }, { orderBy: { ref: 'asc' } });
    const served = await em.find(DocsBuild, { id: { $in: deployments.flatMap((d) => (d.build ? [d.build] : [])) } });
    const commitOf = new Map(served.map((build) => [build.id, build.commit]));
    const domains = await em.find(DocsDomain, { repository: repository.id }, { orderBy: { hostname: 'asc' } });
    const path = siteBase('path', repository, undefined);
    return {
      owner: repository.owner,
      repo: repository.name,
      source: repository.source,
      defaultBranch: repository.defaultBranch ?? null,
      url: path,
      deployments: deployments.map((d) => ({
        ref: d.ref,
        url: d.ref === `refs/heads/${repository.defaultBranch}` ? path : siteBase('path', repository, urlRef(d.ref)),
        wantedCommit: d.wantedCommit,
        servedCommit: d.build ? (commitOf.get(d.build) ?? null) : null,
        build: d.build ?? null,
      })),
      domains: domains.map((d) => d.hostname),
      createdAt: repository.createdAt.toISOString(),
    };
  }

  /** Fetches the repository and queues the build of `ref`'s commit (default: the default branch). */
  async publish(orgId: string, owner: string, repo: string, ref?: string): Promise<BuildOut> {
    return this.#publish(await this.#owned(orgId, owner, repo), ref);
  }

  async #publish(repository: DocsRepository, ref?: string): Promise<BuildOut> {
    const { defaultBranch } = await this.sync(repository);
    const wanted = ref ?? defaultBranch;
    const target = await this.#options.mirrors.lookup(repository.id, wanted);
    if (!target) throw new AppError('NOT_FOUND', `No branch, tag, pull request or commit ${wanted} in ${repository.owner}/${repository.name}`, { reason: 'ref', ref: wanted });
    return buildView(await this.enqueue(repository, target.commit, target.ref), repository);
  }

  /** Fetches the remote into the mirror and records its default branch. */
  async sync(repository: DocsRepository): Promise<{ defaultBranch: string }> {
    let synced;
    try {
      synced = await this.#options.mirrors.sync(repository.id, repository.source);
    } catch (error) {
      if (error instanceof GitError) {
        throw new AppError('SERVICE_UNAVAILABLE', `Could not fetch ${repository.source}: ${error.message}`, { reason: 'git' });
      }
      throw error;
    }
    this.#unknownRefs.clear(); // what was unknown may exist now
    if (synced.defaultBranch !== repository.defaultBranch) {
      await this.#db.em().nativeUpdate(DocsRepository, { id: repository.id }, { defaultBranch: synced.defaultBranch, updatedAt: new Date() });
      repository.defaultBranch = synced.defaultBranch;
      this.#options.onChange?.(repository.id);
    }
    return { defaultBranch: synced.defaultBranch };
  }

  /**
   * Queues the build of `commit` for `ref` (a full ref name; none for a bare commit): the ref now wants that
   * commit; the commit's build is reused when it succeeded before (cached by commit), queued again when it
   * failed, joined when it is queued or running.
   */
  async enqueue(repository: DocsRepository, commit: string, ref?: string): Promise<DocsBuild> {
    const build = await this.#db.em().transactional(async (em) => {
      const now = new Date();
      if (ref) {
        await em.execute(
          `insert into docs_deployment (repository_id, ref, wanted_commit, build_id, updated_at) values (?, ?, ?, null, ?)
           on conflict (repository_id, ref) do update set wanted_commit = excluded.wanted_commit, updated_at = excluded.updated_at`,
          [repository.id, ref, commit, now],
        );
      }
      await em.execute(
        `insert into docs_build (id, repository_id, commit, status, refs, attempts, created_at) values (?, ?, ?, 'QUEUED', ?, 0, ?) on conflict do nothing`,
        [randomUUID(), repository.id, commit, JSON.stringify(ref ? [ref] : []), now],
      );
      // Locked, so a build finishing right now either sees this ref or is seen finished here.
      const [row] = await em.execute<{ id: string; status: string; refs: string[] }[]>(
        'select id, status, refs from docs_build where repository_id = ? and commit = ? for update',
        [repository.id, commit],
      );
      const existing = row!;
      const refs = ref && !existing.refs.includes(ref) ? [...existing.refs, ref] : existing.refs;
      if (existing.status === 'FAILED') {
        await em.nativeUpdate(DocsBuild, { id: existing.id }, { status: 'QUEUED', refs, attempts: 0, error: null, problems: null, progress: null, startedAt: null, finishedAt: null, createdAt: now });
      } else if (refs !== existing.refs) {
        await em.nativeUpdate(DocsBuild, { id: existing.id }, { refs });
      }
      if (existing.status === 'SUCCEEDED') await deployBuild(em as unknown as EntityManager, existing.id);
      return em.findOneOrFail(DocsBuild, { id: existing.id });
    });
    if (build.status === 'SUCCEEDED') this.#options.onChange?.(repository.id);
    else this.#options.queue.wake();
    return build;
  }

  /**
   * A reader asked for a ref nobody published (`~beta`, `~7`, `~<sha>`): queue its build when the repository has
   * it. Readers cannot make the service work at will: at most ON_DEMAND_BUILDS builds of a repository wait or run
   * at once ('busy' beyond), the mirror is fetched for an unknown ref at most once a minute per repository, and a
   * ref found unknown is not looked up again for a minute.
   */
  async buildOnDemand(repositoryId: string, ref: string): Promise<DocsBuild | 'busy' | undefined> {
    const known = `${repositoryId}\0${ref}`;
    if (this.#unknownRefs.has(known)) return undefined;
    const repository = await this.#db.em().findOne(DocsRepository, { id: repositoryId });
    if (!repository) return undefined;
    const lookup = () => this.#options.mirrors.lookup(repository.id, ref).catch(() => undefined);
    let target = await lookup();
    const last = this.#lastOnDemandSync.get(repository.id) ?? 0;
    if (!target && Date.now() - last > 60_000) {
      this.#lastOnDemandSync.set(repository.id, Date.now());
      await this.sync(repository).catch(() => undefined);
      target = await lookup();
    }
    if (!target) return void this.#unknownRefs.set(known, true);
    const existing = await this.#db.em().findOne(DocsBuild, { repository: repository.id, commit: target.commit });
    if (existing?.status !== 'SUCCEEDED' && (await this.#db.em().count(DocsBuild, { repository: repository.id, status: { $in: ['QUEUED', 'BUILDING'] } })) >= ON_DEMAND_BUILDS) {
      return 'busy';
    }
    return this.enqueue(repository, target.commit, target.ref);
  }

  readonly #unknownRefs = new LRUCache<string, true>({ max: 10_000, ttl: 60_000 });
  readonly #lastOnDemandSync = new Map<string, number>();

  async builds(orgId: string, owner: string, repo: string, page: { limit: number; offset: number }) {
    const repository = await this.#owned(orgId, owner, repo);
    const [builds, total] = await this.#db.em().findAndCount(DocsBuild, { repository: repository.id }, { orderBy: { createdAt: 'desc', id: 'asc' }, ...page });
    return { builds: builds.map((b) => buildView(b, repository)), total, ...page };
  }

  async build(orgId: string, id: string): Promise<BuildOut> {
    const build = await this.#db.em().findOne(DocsBuild, { id });
    const repository = build && (await this.#db.em().findOne(DocsRepository, { id: build.repository, organization: orgId }));
    if (!build || !repository) throw new AppError('NOT_FOUND', `No build ${id}`, { reason: 'build' });
    return buildView(build, repository);
  }

  /**
   * A code host's webhook (GitHub's format): `X-Hub-Signature-256: sha256=<HMAC of the raw body>` with the
   * repository's webhook secret. `push` publishes the pushed branch or tag (a deleted ref is forgotten);
   * `pull_request` publishes `refs/pull/N/head`; `ping` answers with nothing to build.
   */
  async webhook(owner: string, repo: string, request: { event: string | undefined; signature: string | undefined; rawBody: string; body: Record<string, unknown> }) {
    const repository = await this.#db.em().findOne(DocsRepository, { slug: slugOf(owner, repo) });
    const secret = repository && this.#openSecret(repository.webhookSecret);
    const expected = Buffer.from(secret ? `sha256=${createHmac('sha256', secret).update(request.rawBody).digest('hex')}` : '');
    const given = Buffer.from(request.signature ?? '');
    if (!repository || !secret || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      // Unknown repositories answer like a wrong signature: the webhook URL reveals nothing.
      throw new AppError('UNAUTHORIZED', 'The webhook signature (X-Hub-Signature-256) does not match', { reason: 'signature' });
    }
    const event = request.event ?? 'push';
    const body = request.body;
    if (event === 'ping') return { event, builds: [] };
    if (event === 'pull_request') {
      const number = Number(body.number);
      const action = String(body.action ?? '');
      if (!Number.isInteger(number) || number <= 0) throw new AppError('VALIDATION_ERROR', 'Invalid request', { number: 'Must be the pull request number' });
      if (action === 'closed') return (await this.#forget(repository, `refs/pull/${number}/head`), { event, builds: [] });
      if (!['opened', 'synchronize', 'reopened', 'edited'].includes(action)) return { event, builds: [] };
      return { event, builds: [await this.#publish(repository, `refs/pull/${number}/head`)] };
    }
    if (event !== 'push') throw new AppError('VALIDATION_ERROR', 'Invalid request', { 'X-GitHub-Event': 'Only push, pull_request and ping events are handled' });
    const ref = typeof body.ref === 'string' ? body.ref : '';
    if (!/^refs\/(heads|tags)\/./.test(ref)) throw new AppError('VALIDATION_ERROR', 'Invalid request', { ref: 'Must be a branch or tag ref (refs/heads/..., refs/tags/...)' });
    if (body.deleted === true || /^0{40}$/.test(String(body.after ?? ''))) {
      await this.sync(repository);
      return (await this.#forget(repository, ref), { event, builds: [] });
    }
    // The full name: a push to tag `v1` builds the tag even where a branch `v1` exists.
    return { event, builds: [await this.#publish(repository, ref)] };
  }

  /** A ref that is gone (a deleted branch, a closed pull request) is no longer served. */
  async #forget(repository: DocsRepository, ref: string): Promise<void> {
    await this.#db.em().nativeDelete(DocsDeployment, { repository: repository.id, ref });
    this.#options.onChange?.(repository.id);
  }

  /** A sealed secret, or undefined when it cannot be opened (DOCS_SECRET_KEY changed since it was sealed). */
  #openSecret(sealed: string): string | undefined {
    try {
      return this.#options.secrets.open(sealed);
    } catch {
      return undefined;
    }
  }

  async addDomain(orgId: string, hostname: string, owner: string, repo: string) {
    const repository = await this.#owned(orgId, owner, repo);
    // The service's own host and the vanity domain's names are the service's, not a repository's to take.
    const { serviceHost, vanityDomain } = this.#options;
    if (hostname === serviceHost || (vanityDomain && (hostname === vanityDomain || hostname.endsWith(`.${vanityDomain}`)))) {
      throw new AppError('VALIDATION_ERROR', 'Invalid request', { hostname: 'Belongs to this service (its own host or its vanity domain)' });
    }
    const createdAt = new Date();
    try {
      await this.#db.em().insert(DocsDomain, { hostname, repository: repository.id, createdAt });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new AppError('CONFLICT', `${hostname} is already mapped`, { reason: 'duplicate' });
      throw error;
    }
    this.#options.onChange?.(repository.id);
    return { hostname, owner: repository.owner, repo: repository.name, createdAt: createdAt.toISOString() };
  }

  async removeDomain(orgId: string, hostname: string): Promise<void> {
    const domain = await this.#db.em().findOne(DocsDomain, { hostname });
    const repository = domain && (await this.#db.em().findOne(DocsRepository, { id: domain.repository, organization: orgId }));
    if (!domain || !repository) throw new AppError('NOT_FOUND', `No domain ${hostname} is mapped by this organization`, { reason: 'domain' });
    await this.#db.em().nativeDelete(DocsDomain, { hostname });
    this.#options.onChange?.(repository.id);
  }

  /** Registers a model provider for the chat panel; answers the credential for `agent.key` (only its hash is kept). */
  async createAgent(orgId: string, input: { owner: string; repo: string; provider: string; apiKey: string; model?: string | undefined }) {
    const repository = await this.#owned(orgId, input.owner, input.repo);
    const key = `dak_${randomBytes(24).toString('base64url')}`;
    const agent: DocsAgent = {
      id: randomUUID(),
      repository: repository.id,
      keyHash: sha256Hex(key),
      provider: input.provider,
      providerKey: this.#options.secrets.seal(input.apiKey),
      model: input.model ?? null,
      createdAt: new Date(),
    };
    await this.#db.em().insert(DocsAgent, agent);
    return { key, provider: input.provider as 'openai', model: agent.model ?? null, createdAt: agent.createdAt.toISOString() };
  }
}
