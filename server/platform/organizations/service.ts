import { randomBytes, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/orm.ts';
import { ApiKey, Organization } from './entities.ts';
import { sha256Hex } from '../hash.ts';

export interface OrganizationCredentials {
  orgId: string;
  apiKey: string;
}

const hashKey = sha256Hex;

/** Organizations and the API keys that act for them. */
export class OrganizationService {
  readonly #db: Database;
  /**
   * Key hash -> organization, so a request does not pay a query for its key. Keys cannot be revoked
   * yet; when they can, revocation must clear this (and the TTL bounds staleness across processes).
   */
  readonly #known = new LRUCache<string, string>({ max: 10_000, ttl: 60_000 });

  constructor(db: Database) {
    this.#db = db;
  }

  /** Creates an organization with one API key. The key is returned once; only its hash is kept. */
  async create(name: string): Promise<OrganizationCredentials> {
    const em = this.#db.em();
    const org = em.create(Organization, { id: randomUUID(), name });
    const apiKey = `rk_${randomBytes(32).toString('base64url')}`;
    em.create(ApiKey, { id: randomUUID(), organization: org, keyHash: hashKey(apiKey) });
    await em.flush();
    return { orgId: org.id, apiKey };
  }

  /** The organization an API key belongs to, or undefined for an unknown key. */
  async authenticate(apiKey: string): Promise<string | undefined> {
    const keyHash = hashKey(apiKey);
    const cached = this.#known.get(keyHash);
    if (cached) return cached;
    const rows = await this.#db
      .em()
      .createQueryBuilder(ApiKey)
      .select('organization')
      .where({ keyHash })
      .execute<{ organization: string }[]>('all');
    const orgId = rows[0]?.organization;
    if (orgId) this.#known.set(keyHash, orgId);
    return orgId;
  }

  async count(): Promise<number> {
    return this.#db.em().count(Organization);
  }
}
