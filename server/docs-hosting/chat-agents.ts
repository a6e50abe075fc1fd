import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../platform/db/orm.ts';
import { sha256Hex } from '../platform/hash.ts';
import { DocsAgent } from './entities.ts';
import type { RepositoryService } from './repositories.ts';
import type { SecretBox } from './secrets.ts';

/**
 * The chat panel's model providers (`docs agent create`): a repository's provider and its key, sealed; the
 * answer is the credential that goes in docs.json as `agent.key`, of which only the hash is kept.
 */
export class ChatAgentService {
  readonly #db: Database;
  readonly #options: { repositories: RepositoryService; secrets: SecretBox };

  constructor(db: Database, options: { repositories: RepositoryService; secrets: SecretBox }) {
    this.#db = db;
    this.#options = options;
  }

  async create(orgId: string, input: { owner: string; repo: string; provider: string; apiKey: string; model?: string | undefined }) {
    const repository = await this.#options.repositories.owned(orgId, input.owner, input.repo);
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
