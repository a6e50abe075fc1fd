import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { AppError } from '../platform/errors.ts';
import { challengeName, challengeValue, type ChallengeLookup } from './domain-check.ts';
import { DocsDomain, DocsRepository } from './entities.ts';
import type { RepositoryService } from './repositories.ts';
import type { DomainOut } from './schemas.ts';

export interface DomainServiceOptions {
  repositories: RepositoryService;
  /** How a domain's DNS challenge is looked up. */
  lookup: ChallengeLookup;
  /** PUBLIC_BASE_URL's host and DOCS_DOMAIN: names no custom domain may take. */
  serviceHost?: string | undefined;
  vanityDomain?: string | undefined;
  /** Called when what a repository serves may have changed (site caches). */
  onChange?: (repositoryId: string) => void;
}

/**
 * Custom domains (docs/docs-hosting.md "Custom domains"): a hostname mapped to one repository's sites, served once its
 * DNS challenge is answered, and no longer once the record is gone.
 */
export class DomainService {
  readonly #db: Database;
  readonly #options: DomainServiceOptions;

  constructor(db: Database, options: DomainServiceOptions) {
    this.#db = db;
    this.#options = options;
  }

  async add(orgId: string, hostname: string, owner: string, repo: string): Promise<DomainOut> {
    const repository = await this.#options.repositories.owned(orgId, owner, repo);
    // The service's own host and the vanity domain's names are the service's, not a repository's to take.
    const { serviceHost, vanityDomain } = this.#options;
    if (hostname === serviceHost || (vanityDomain && (hostname === vanityDomain || hostname.endsWith(`.${vanityDomain}`)))) {
      throw new AppError('VALIDATION_ERROR', 'Invalid request', { hostname: 'Belongs to this service (its own host or its vanity domain)' });
    }
    const domain: DocsDomain = { hostname, repository: repository.id, token: randomBytes(16).toString('hex'), verifiedAt: null, checkedAt: null, createdAt: new Date() };
    try {
      await this.#db.em().insert(DocsDomain, domain);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new AppError('CONFLICT', `${hostname} is already mapped`, { reason: 'duplicate' });
      throw error;
    }
    // The record may be there already (set up before mapping): look once now.
    return this.#view(await this.check(domain), repository);
  }

  /** Looks the domain's challenge up now (`POST /api/docs/domains/{hostname}/verify`). */
  async verify(orgId: string, hostname: string): Promise<DomainOut> {
    const { domain, repository } = await this.#owned(orgId, hostname);
    return this.#view(await this.check(domain), repository);
  }

  async remove(orgId: string, hostname: string): Promise<void> {
    const { repository } = await this.#owned(orgId, hostname);
    await this.#db.em().nativeDelete(DocsDomain, { hostname });
    this.#options.onChange?.(repository.id);
  }

  /**
   * Looks the challenge up and records the answer: proven since the first answer that holds it, unproven once an
   * answer does not. A DNS failure changes nothing (a proven domain keeps serving through a resolver outage).
   */
  async check(domain: DocsDomain): Promise<DocsDomain> {
    const answer = await this.#options.lookup(domain.hostname, domain.token);
    if (answer === 'unanswered') return domain;
    const now = new Date();
    const verifiedAt = answer ? (domain.verifiedAt ?? now) : null;
    await this.#db.em().nativeUpdate(DocsDomain, { hostname: domain.hostname }, { verifiedAt, checkedAt: now });
    if (Boolean(verifiedAt) !== Boolean(domain.verifiedAt)) this.#options.onChange?.(domain.repository);
    return { ...domain, verifiedAt, checkedAt: now };
  }

  /** Looks up again every domain not checked for `maxAgeMs` (run periodically; each process skips what another just did). */
  async recheck(maxAgeMs: number): Promise<void> {
    const due = await this.#db.em().find(DocsDomain, { $or: [{ checkedAt: null }, { checkedAt: { $lt: new Date(Date.now() - maxAgeMs) } }] }, { limit: 1000 });
    for (const domain of due) await this.check(domain);
  }

  async #owned(orgId: string, hostname: string) {
    const domain = await this.#db.em().findOne(DocsDomain, { hostname });
    const repository = domain && (await this.#db.em().findOne(DocsRepository, { id: domain.repository, organization: orgId }));
    if (!domain || !repository) throw new AppError('NOT_FOUND', `No domain ${hostname} is mapped by this organization`, { reason: 'domain' });
    return { domain, repository };
  }

  #view(domain: DocsDomain, repository: Pick<DocsRepository, 'owner' | 'name'>): DomainOut {
    return {
      hostname: domain.hostname,
      owner: repository.owner,
      repo: repository.name,
      verified: domain.verifiedAt !== null && domain.verifiedAt !== undefined,
      verification: { type: 'TXT', name: challengeName(domain.hostname), value: challengeValue(domain.token) },
      createdAt: domain.createdAt.toISOString(),
    };
  }
}
