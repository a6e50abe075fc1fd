import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from '../platform/db/orm.ts';
import { AppError } from '../platform/errors.ts';
import { BuildQueue, deployBuild } from './builds/queue.ts';
import { DocsBuild, DocsDeployment, DocsRepository } from './entities.ts';
import { GitError } from './git.ts';
import { RepositoryTooLarge, type Mirrors } from './mirrors.ts';
import { slugOf } from './names.ts';
import { readerBuildsOf, type RepositoryService } from './repositories.ts';
import type { BuildOut } from './schemas.ts';
import type { SecretBox } from './secrets.ts';
import { webhookAction, webhookSignatureMatches } from './webhook.ts';

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

/** Whether the repository lets readers have `ref` built (a full ref name; undefined: a bare commit SHA). */
function readerMayBuild(repository: DocsRepository, ref: string | undefined): boolean {
  const allowed = readerBuildsOf(repository);
  if (ref === undefined) return allowed.commits;
  if (ref.startsWith('refs/pull/')) return allowed.pullRequests;
  if (ref.startsWith('refs/tags/')) return allowed.tags;
  return allowed.branches;
}

export interface PublishingOptions {
  repositories: RepositoryService;
  mirrors: Mirrors;
  queue: BuildQueue;
  secrets: SecretBox;
  /** Called when what a repository serves may have changed (site caches). */
  onChange?: (repositoryId: string) => void;
  log?: (data: Record<string, unknown>, message: string) => void;
}

/**
 * Publishing refs: the three ways a build of an exact commit gets queued (an organization's `publish`, the code
 * host's push webhook, a reader asking for a ref nobody published) and the builds' status. Publishing fetches the
 * mirror, resolves the ref to its commit and queues that commit's build; a commit is built once and every ref at
 * it reuses the build.
 */
export class PublishingService {
  readonly #db: Database;
  readonly #options: PublishingOptions;

  constructor(db: Database, options: PublishingOptions) {
    this.#db = db;
    this.#options = options;
  }

  /** Fetches the repository and queues the build of `ref`'s commit (default: the default branch). */
  async publish(orgId: string, owner: string, repo: string, ref?: string): Promise<BuildOut> {
    return this.#publish(await this.#options.repositories.owned(orgId, owner, repo), ref);
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
      if (error instanceof RepositoryTooLarge) throw new AppError('VALIDATION_ERROR', error.message, { reason: 'size' });
      if (error instanceof GitError) {
        this.#options.log?.({ err: error, stderr: error.stderr, repository: repository.id }, 'fetching a repository: git failed');
        throw new AppError('SERVICE_UNAVAILABLE', `Could not fetch ${repository.source}`, { reason: 'git' });
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
      const [row] = await em.execute<{ id: string; status: string; refs: string[]; pages: number | null }[]>(
        'select id, status, refs, pages from docs_build where repository_id = ? and commit = ? for update',
        [repository.id, commit],
      );
      const existing = row!;
      const refs = ref && !existing.refs.includes(ref) ? [...existing.refs, ref] : existing.refs;
      // A failed build is tried again; so is an empty one (recorded as a success before empty builds failed).
      const again = existing.status === 'FAILED' || (existing.status === 'SUCCEEDED' && !existing.pages);
      if (again) {
        await em.nativeUpdate(DocsBuild, { id: existing.id }, { status: 'QUEUED', refs, attempts: 0, error: null, problems: null, progress: null, startedAt: null, finishedAt: null, createdAt: now });
      } else if (refs !== existing.refs) {
        await em.nativeUpdate(DocsBuild, { id: existing.id }, { refs });
      }
      if (!again && existing.status === 'SUCCEEDED') await deployBuild(em as unknown as EntityManager, existing.id);
      return em.findOneOrFail(DocsBuild, { id: existing.id });
    });
    if (build.status === 'SUCCEEDED') this.#options.onChange?.(repository.id);
    else this.#options.queue.wake();
    return build;
  }

  /**
   * A reader asked for a ref nobody published (`~beta`, `~7`, `~<sha>`): queue its build when the repository has
   * it. Readers cannot make the service work at will: at most ON_DEMAND_BUILDS builds of a repository wait or run
   * at once ('busy' beyond), the mirror is fetched for an unknown ref at most once a minute per repository, a ref
   * found unknown is not looked up again for a minute, and `charge` (the reader's budget: seconds to wait when it
   * is spent) is asked only when a build is to be made, not for a ref that names nothing or a commit already built.
   */
  async buildOnDemand(repositoryId: string, ref: string, charge: () => Promise<number | undefined> = async () => undefined): Promise<DocsBuild | 'busy' | { limited: number } | undefined> {
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
    if (!readerMayBuild(repository, target.ref)) return undefined;
    const existing = await this.#db.em().findOne(DocsBuild, { repository: repository.id, commit: target.commit });
    if (existing?.status !== 'SUCCEEDED' && (await this.#db.em().count(DocsBuild, { repository: repository.id, status: { $in: ['QUEUED', 'BUILDING'] } })) >= ON_DEMAND_BUILDS) {
      return 'busy';
    }
    // A build is made unless the commit's is there or under way (enqueue builds a failed or empty one again).
    if (!existing || existing.status === 'FAILED' || (existing.status === 'SUCCEEDED' && !existing.pages)) {
      const wait = await charge();
      if (wait !== undefined) return { limited: wait };
    }
    return this.enqueue(repository, target.commit, target.ref);
  }

  readonly #unknownRefs = new LRUCache<string, true>({ max: 10_000, ttl: 60_000 });
  readonly #lastOnDemandSync = new Map<string, number>();

  /**
   * A code host's webhook delivery (server/docs-hosting/webhook.ts): verified with the repository's webhook
   * secret, then what the event asks for is done.
   */
  async webhook(owner: string, repo: string, request: { event: string | undefined; signature: string | undefined; rawBody: string; body: Record<string, unknown> }) {
    const repository = await this.#db.em().findOne(DocsRepository, { slug: slugOf(owner, repo) });
    if (!repository || !webhookSignatureMatches(this.#openSecret(repository.webhookSecret), request.rawBody, request.signature)) {
      // Unknown repositories answer like a wrong signature: the webhook URL reveals nothing.
      throw new AppError('UNAUTHORIZED', 'The webhook signature (X-Hub-Signature-256) does not match', { reason: 'signature' });
    }
    const event = request.event ?? 'push';
    const action = webhookAction(event, request.body);
    if ('publish' in action) return { event, builds: [await this.#publish(repository, action.publish)] };
    if ('forget' in action) {
      if (action.sync) await this.sync(repository);
      await this.#forget(repository, action.forget);
    }
    return { event, builds: [] };
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

  async builds(orgId: string, owner: string, repo: string, page: { limit: number; offset: number }) {
    const repository = await this.#options.repositories.owned(orgId, owner, repo);
    const [builds, total] = await this.#db.em().findAndCount(DocsBuild, { repository: repository.id }, { orderBy: { createdAt: 'desc', id: 'asc' }, ...page });
    return { builds: builds.map((b) => buildView(b, repository)), total, ...page };
  }

  async build(orgId: string, id: string): Promise<BuildOut> {
    const build = await this.#db.em().findOne(DocsBuild, { id });
    const repository = build && (await this.#db.em().findOne(DocsRepository, { id: build.repository, organization: orgId }));
    if (!build || !repository) throw new AppError('NOT_FOUND', `No build ${id}`, { reason: 'build' });
    return buildView(build, repository);
  }
}
