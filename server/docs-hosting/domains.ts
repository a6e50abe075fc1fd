import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { AppError } from '../platform/errors.ts';
import { sha256Hex } from '../platform/hash.ts';
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
 * How long an unproven mapping keeps its name from other organizations (docs/docs-hosting.md "Custom domains"): from
 * when it was mapped, or from when its record went. After that another organization that maps the name replaces it;
 * before, only one that proves the name does. Without it a name mapped by anyone and never proven was theirs forever.
 */
export const UNPROVEN_HOLD_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The token an organization proves a name held by another one with: the same for each of its attempts (it publishes
 * the record between two of them) and its own (another organization's record proves nothing for it).
 */
const claimToken = (orgId: string, hostname: string) => sha256Hex(`docs-domain-claim\0${orgId}\0${hostname}`).slice(0, 32);

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
    const held = await this.#db.em().findOne(DocsDomain, { hostname });
    if (held) return this.#takeOver(orgId, held, repository);
    const domain = newMapping(hostname, repository.id, randomBytes(16).toString('hex'));
    try {
      await this.#db.em().insert(DocsDomain, domain);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw alreadyMapped(hostname);
      throw error;
    }
    // The record may be there already (set up before mapping): look once now.
    return this.#view(await this.check(domain), repository);
  }

  /**
   * Maps a name another mapping holds: only one of another organization that is unproven, and only once its hold
   * ran out or when this organization proves the name now (its own record, named in the 409 that refused it before).
   */
  async #takeOver(orgId: string, held: DocsDomain, repository: DocsRepository): Promise<DomainOut> {
    const { hostname } = held;
    const holder = await this.#db.em().findOne(DocsRepository, { id: held.repository });
    if (held.verifiedAt || holder?.organization === orgId) throw alreadyMapped(hostname);
    const token = claimToken(orgId, hostname);
    const holdEnds = new Date((held.unprovenSince ?? held.createdAt).getTime() + UNPROVEN_HOLD_MS);
    const proven = holdEnds.getTime() > Date.now() ? await this.#options.lookup(hostname, token) : undefined;
    if (proven === false || proven === 'unanswered') {
      throw new AppError('CONFLICT', `${hostname} is mapped by another organization but not proven: publish the DNS record in details and map it again to take it over (or map it after ${holdEnds.toISOString()})`, {
        reason: 'unproven',
        verification: verificationRecord(hostname, token),
        availableAt: holdEnds.toISOString(),
      });
    }
    const now = new Date();
    const domain = { ...newMapping(hostname, repository.id, token), ...(proven ? { verifiedAt: now, checkedAt: now } : {}) };
    await this.#db.em().transactional(async (em) => {
      // Only the mapping looked at above goes: one proven or replaced meanwhile stays, and this claim is refused.
      const replaced = await em.nativeDelete(DocsDomain, { hostname, token: held.token, verifiedAt: null });
      if (replaced !== 1) throw alreadyMapped(hostname);
      await em.insert(DocsDomain, domain);
    });
    this.#options.onChange?.(held.repository);
    if (proven) this.#options.onChange?.(repository.id);
    return this.#view(proven ? domain : await this.check(domain), repository);
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
    // A proven domain whose record went is held (UNPROVEN_HOLD_MS) from now, not from when it was mapped.
    const unprovenSince = answer ? null : domain.verifiedAt ? now : (domain.unprovenSince ?? null);
    await this.#db.em().nativeUpdate(DocsDomain, { hostname: domain.hostname, token: domain.token }, { verifiedAt, checkedAt: now, unprovenSince });
    if (Boolean(verifiedAt) !== Boolean(domain.verifiedAt)) this.#options.onChange?.(domain.repository);
    return { ...domain, verifiedAt, checkedAt: now, unprovenSince };
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
      verification: verificationRecord(domain.hostname, domain.token),
      createdAt: domain.createdAt.toISOString(),
    };
  }
}

const newMapping = (hostname: string, repository: string, token: string): DocsDomain => ({
  hostname,
  repository,
  token,
  verifiedAt: null,
  checkedAt: null,
  unprovenSince: null,
  createdAt: new Date(),
});

const verificationRecord = (hostname: string, token: string) => ({ type: 'TXT' as const, name: challengeName(hostname), value: challengeValue(token) });

const alreadyMapped = (hostname: string) => new AppError('CONFLICT', `${hostname} is already mapped`, { reason: 'duplicate' });
