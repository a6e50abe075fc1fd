import { randomBytes, randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { AppError } from '../platform/errors.ts';
import { DocsBuild, DocsDeployment, DocsDomain, DocsOwner, DocsRepository } from './entities.ts';
import { GitError, namedRef, urlRef } from './git.ts';
import { RepositoryTooLarge, type Mirrors } from './mirrors.ts';
import { siteBase, slugOf } from './names.ts';
import { fillPath, READER_BUILDS, WEBHOOK_PATH, type RepositoryCreate, type RepositoryOut } from './schemas.ts';
import type { SecretBox } from './secrets.ts';

export const repositoryNotFound = (owner: string, repo: string) =>
  new AppError('NOT_FOUND', `No repository ${owner}/${repo} is registered by this organization`, { reason: 'repository' });

/** A repository's reader-build settings, its own over the defaults. */
export const readerBuildsOf = (repository: Pick<DocsRepository, 'readerBuilds'>) => ({ ...READER_BUILDS, ...repository.readerBuilds });

/**
 * How a site URL names a ref: its short name, unless that name means another ref of the repository (a branch
 * shadows the tag of its name). Without the mirror's refs (another process synced it), the short name.
 */
function siteRef(ref: string, refs: Map<string, string> | undefined): string {
  const short = urlRef(ref);
  const named = refs && namedRef(short, refs);
  return !named || named === ref ? short : ref;
}

const ownerTaken = (owner: string) =>
  new AppError('CONFLICT', `The owner name ${owner} belongs to another organization: register under an owner name of your own`, { reason: 'owner' });

export interface RepositoryServiceOptions {
  mirrors: Mirrors;
  secrets: SecretBox;
  /** Where the code host should post push events (PUBLIC_BASE_URL, else a path). */
  publicBaseUrl?: string | undefined;
  log?: (data: Record<string, unknown>, message: string) => void;
}

/**
 * The repositories organizations register (`owner/repo` -> a git source): registration clones first, so a
 * source this server cannot read is refused before anything is stored; a repository belongs to the
 * organization that registered it, and another organization's looks like a missing one.
 */
export class RepositoryService {
  readonly #db: Database;
  readonly #options: RepositoryServiceOptions;

  constructor(db: Database, options: RepositoryServiceOptions) {
    this.#db = db;
    this.#options = options;
  }

  /** The organization's repository `owner/repo`, or NOT_FOUND. */
  async owned(orgId: string, owner: string, repo: string): Promise<DocsRepository> {
    const found = await this.#db.em().findOne(DocsRepository, { slug: slugOf(owner, repo), organization: orgId });
    if (!found) throw repositoryNotFound(owner, repo);
    return found;
  }

  async register(orgId: string, input: RepositoryCreate) {
    const problem = await this.#options.mirrors.sourceProblem(input.source);
    if (problem) throw new AppError('VALIDATION_ERROR', 'Invalid request', { source: problem });
    const taken = () => new AppError('CONFLICT', `${input.owner}/${input.repo} is already registered`, { reason: 'duplicate' });
    if (await this.#ownerHolder(input.owner, orgId) !== orgId) throw ownerTaken(input.owner);
    if (await this.#db.em().count(DocsRepository, { slug: slugOf(input.owner, input.repo) })) throw taken();
    // Cloned now: a source that is not a git repository this server can read is refused before anything is stored.
    const id = randomUUID();
    let synced;
    try {
      synced = await this.#options.mirrors.sync(id, input.source);
    } catch (error) {
      if (error instanceof RepositoryTooLarge) throw new AppError('VALIDATION_ERROR', 'Invalid request', { source: error.message });
      if (!(error instanceof GitError)) throw error;
      // git's own words stay in the server's log: they could tell a caller what answers at an address.
      this.#options.log?.({ err: error, stderr: error.stderr, source: input.source }, 'registering a repository: git failed');
      throw new AppError('VALIDATION_ERROR', 'Invalid request', { source: 'Not a git repository this server can read' });
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
      readerBuilds: input.readerBuilds ?? null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.#db.em().transactional(async (em) => {
        // The owner name is claimed with the repository: of two organizations racing for it, one gets it.
        await em.createQueryBuilder(DocsOwner).insert({ name: input.owner.toLowerCase(), organization: orgId, createdAt: now }).onConflict('name').ignore().execute();
        const holder = await em.findOneOrFail(DocsOwner, { name: input.owner.toLowerCase() }, { fields: ['organization'] });
        if (holder.organization !== orgId) throw ownerTaken(input.owner);
        await em.insert(DocsRepository, repository);
      });
    } catch (error) {
      await this.#options.mirrors.remove(id);
      if (error instanceof UniqueConstraintViolationException) throw taken();
      throw error;
    }
    const base = this.#options.publicBaseUrl ?? '';
    return {
      ...(await this.#view(repository)),
      webhookSecret: secret,
      webhookUrl: base + fillPath(WEBHOOK_PATH, { owner: repository.owner, repo: repository.name }),
    };
  }

  /** The organization holding an owner name: the caller's when the name is free. */
  async #ownerHolder(owner: string, orgId: string): Promise<string> {
    const holder = await this.#db.em().findOne(DocsOwner, { name: owner.toLowerCase() }, { fields: ['organization'] });
    return holder?.organization ?? orgId;
  }

  async get(orgId: string, owner: string, repo: string): Promise<RepositoryOut> {
    return this.#view(await this.owned(orgId, owner, repo));
  }

  /** Changes which refs readers may have built (the keys given; the others stay). */
  async update(orgId: string, owner: string, repo: string, readerBuilds: RepositoryCreate['readerBuilds']): Promise<RepositoryOut> {
    const repository = await this.owned(orgId, owner, repo);
    repository.readerBuilds = { ...repository.readerBuilds, ...readerBuilds };
    await this.#db.em().nativeUpdate(DocsRepository, { id: repository.id }, { readerBuilds: repository.readerBuilds, updatedAt: new Date() });
    return this.#view(repository);
  }

  /** A repository as the API shows it: what each ref wants and serves, its site URLs and custom domains. */
  async #view(repository: DocsRepository): Promise<RepositoryOut> {
    const em = this.#db.em();
    const deployments = await em.find(DocsDeployment, { repository: repository.id }, { orderBy: { ref: 'asc' } });
    const served = await em.find(DocsBuild, { id: { $in: deployments.flatMap((d) => (d.build ? [d.build] : [])) } });
    const commitOf = new Map(served.map((build) => [build.id, build.commit]));
    const domains = await em.find(DocsDomain, { repository: repository.id }, { orderBy: { hostname: 'asc' } });
    // What each ref name means in the repository, read once for all of them.
    const refs = await this.#options.mirrors.refs(repository.id).catch(() => undefined);
    const path = siteBase('path', repository, undefined);
    return {
      owner: repository.owner,
      repo: repository.name,
      source: repository.source,
      defaultBranch: repository.defaultBranch ?? null,
      url: path,
      deployments: deployments.map((d) => ({
        ref: d.ref,
        url: d.ref === `refs/heads/${repository.defaultBranch}` ? path : siteBase('path', repository, siteRef(d.ref, refs)),
        wantedCommit: d.wantedCommit,
        servedCommit: d.build ? (commitOf.get(d.build) ?? null) : null,
        build: d.build ?? null,
      })),
      domains: domains.map((d) => d.hostname),
      readerBuilds: readerBuildsOf(repository),
      createdAt: repository.createdAt.toISOString(),
    };
  }
}
