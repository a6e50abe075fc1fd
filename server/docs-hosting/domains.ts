import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { AppError } from '../platform/errors.ts';
import { DocsDomain, DocsRepository } from './entities.ts';
import type { RepositoryService } from './repositories.ts';

export interface DomainServiceOptions {
  repositories: RepositoryService;
  /** PUBLIC_BASE_URL's host and DOCS_DOMAIN: names no custom domain may take. */
  serviceHost?: string | undefined;
  vanityDomain?: string | undefined;
  /** Called when what a repository serves may have changed (site caches). */
  onChange?: (repositoryId: string) => void;
}

/** Custom domains: a hostname mapped to one repository's sites (docs/docs-hosting.md "Custom domains"). */
export class DomainService {
  readonly #db: Database;
  readonly #options: DomainServiceOptions;

  constructor(db: Database, options: DomainServiceOptions) {
    this.#db = db;
    this.#options = options;
  }

  async add(orgId: string, hostname: string, owner: string, repo: string) {
    const repository = await this.#options.repositories.owned(orgId, owner, repo);
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

  async remove(orgId: string, hostname: string): Promise<void> {
    const domain = await this.#db.em().findOne(DocsDomain, { hostname });
    const repository = domain && (await this.#db.em().findOne(DocsRepository, { id: domain.repository, organization: orgId }));
    if (!domain || !repository) throw new AppError('NOT_FOUND', `No domain ${hostname} is mapped by this organization`, { reason: 'domain' });
    await this.#db.em().nativeDelete(DocsDomain, { hostname });
    this.#options.onChange?.(repository.id);
  }
}
