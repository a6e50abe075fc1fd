import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '../../platform/db/orm.ts';
import { DocsAgent, type BuildManifest } from '../entities.ts';
import { fieldProblems } from '../../platform/errors.ts';
import { bodyProblem, readJsonBody } from '../../platform/http/body.ts';
import type { RateLimiter, RateRule } from '../../platform/rate-limiter.ts';
import { ChatInput } from '../schemas.ts';
import { SiteContent } from '../serving/content.ts';
import { complete, ProviderError, type ModelProvider } from './providers.ts';
import type { SecretBox } from '../secrets.ts';
import type { ServedSite } from '../serving/serve.ts';
import type { DocsSites } from '../serving/sites.ts';
import { clientAddress } from '../../platform/http/client-address.ts';

/**
 * `POST {site}/_chat`: the chat panel (beta). Answers a reader's question from the site's own pages: the best
 * matches of the site's search index go to the model provider registered with `docs agent create` (its key is
 * decrypted only for the call), with the instruction to answer from them alone. Limits per hour from the site's
 * `agent.limits`: per client IP, and per repository. Enabled by `agent.key` in the served build's docs.json,
 * matching an agent registered for this repository.
 */

/** Context sent to the model: the best pages, each cut to a share of this budget (characters). */
const CONTEXT_CHARS = 24_000;
const PAGES = 4;
const HOUR = 3600;
/** The defaults of `agent.limits` (docs/docs-site-config.md). */
const DEFAULT_LIMITS = { ip: 200, repo: 10_000 };

export interface ChatOptions {
  db: Database;
  sites: DocsSites;
  secrets: SecretBox;
  limiter: RateLimiter;
  /** Model providers' API base URLs (tests: a stand-in on 127.0.0.1). */
  providerUrls: Partial<Record<ModelProvider, string>>;
  /** Per provider call. Default 60 s. */
  timeoutMs?: number;
  log?: (data: object, message: string) => void;
}

type Answer = { status: number; body: object; headers?: Record<string, string | number> };
const failure = (status: number, error: string, message: string, extra: Omit<Answer, 'status' | 'body'> & { details?: object } = {}): Answer => ({
  status,
  body: { error, message, ...(extra.details ? { details: extra.details } : {}) },
  ...(extra.headers ? { headers: extra.headers } : {}),
});

export function systemPrompt(siteName: string, pages: { title: string; url: string; markdown: string }[]): string {
  const share = Math.floor(CONTEXT_CHARS / Math.max(1, pages.length));
  const sources = pages.map((page) => `<page title="${page.title.replace(/"/g, "'")}" url="${page.url}">\n${page.markdown.slice(0, share)}\n</page>`).join('\n\n');
  return [
    `You answer questions about the documentation of ${siteName}, for its readers.`,
    'Use only the documentation pages below. If they do not answer the question, say so plainly; never invent APIs, options or behaviour.',
    'Be concise. Name the pages you used by their titles. Plain text or simple Markdown.',
    '',
    sources || '(No page matched the question.)',
  ].join('\n');
}

export function createChatRoute(options: ChatOptions) {
  const { db, sites, secrets, limiter } = options;

  async function answer(req: IncomingMessage, site: ServedSite): Promise<Answer> {
    const { manifest } = site.build;
    const { repository } = site.request;
    const agent = manifest.agent.keyHash ? await db.em().findOne(DocsAgent, { keyHash: manifest.agent.keyHash, repository: repository.id }) : null;
    if (!agent) return failure(404, 'NOT_FOUND', 'The assistant is not available for this site (no agent.key registered with `docs agent create`)');

    await readJsonBody(req);
    const problem = bodyProblem(req);
    if (problem) return failure(problem.code === 'PAYLOAD_TOO_LARGE' ? 413 : 400, problem.code, problem.message);
    const parsed = ChatInput.safeParse((req as { body?: unknown }).body ?? {});
    if (!parsed.success) return failure(422, 'VALIDATION_ERROR', 'Invalid request', { details: fieldProblems(parsed.error.issues) });

    // Per client IP and per repository, each per hour. Limits and models are the default branch's: a preview (a pull
    // request from anyone) may use the panel, but neither raise the limits nor pick a costlier model.
    const settings = await defaultBranchAgent(site);
    const { ip: perIp, repo: perRepo } = settings.limits;
    const limits: { rule: RateRule; key: string; scope: string }[] = [
      { rule: { name: `docs-chat-ip-${perIp}`, points: perIp, durationSeconds: HOUR }, key: `${repository.id}:${clientAddress(req)}`, scope: 'from one address' },
      { rule: { name: `docs-chat-repo-${perRepo}`, points: perRepo, durationSeconds: HOUR }, key: repository.id, scope: 'for this site' },
    ];
    for (const { rule, key, scope } of limits) {
      const decision = await limiter.consume(rule, key);
      if (!decision.allowed) {
        return failure(429, 'RATE_LIMIT_EXCEEDED', `Too many questions: at most ${rule.points} an hour ${scope}`, { headers: { 'Retry-After': decision.retryAfterSeconds } });
      }
    }

    const content = new SiteContent(sites, site);
    const { question, history } = parsed.data;
    // The question's words first, then the previous question's (a follow-up such as "and on Windows?" needs it).
    const previous = history.findLast((turn) => turn.role === 'user')?.content;
    const found = await content.search(previous === undefined ? [question] : [question, previous], PAGES);
    const pages = await Promise.all(found.map(async (page) => ({ ...page, markdown: (await content.read(page.path))?.markdown ?? '' })));
    const provider = agent.provider as ModelProvider;
    const model = settings.models?.[provider] ?? agent.model ?? undefined;
    let apiKey: string;
    try {
      apiKey = secrets.open(agent.providerKey);
    } catch {
      options.log?.({ repository: `${repository.owner}/${repository.name}` }, 'docs chat: the agent key cannot be decrypted (DOCS_SECRET_KEY changed?)');
      return failure(502, 'PROVIDER_ERROR', "The site's model provider credentials cannot be read; register the agent again");
    }
    try {
      const completion = await complete({
        provider,
        apiKey,
        ...(model ? { model } : {}),
        ...(options.providerUrls[provider] ? { baseUrl: options.providerUrls[provider] } : {}),
        system: systemPrompt(manifest.name, pages),
        messages: [...history, { role: 'user', content: question }],
        timeoutMs: options.timeoutMs ?? 60_000,
      });
      return { status: 200, body: { answer: completion.text, sources: pages.map((page) => ({ title: page.title, url: page.path })) } };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      options.log?.({ err: error, repository: `${repository.owner}/${repository.name}`, provider }, 'docs chat: the model provider failed');
      if (error.kind === 'rate-limited' || error.kind === 'unavailable') {
        return failure(503, 'PROVIDER_UNAVAILABLE', 'The model provider cannot answer right now; try again shortly', { headers: { 'Retry-After': error.retryAfterSeconds ?? 30 } });
      }
      const why = error.kind === 'auth' ? "it refused the site's credentials" : 'its answer could not be used';
      return failure(502, 'PROVIDER_ERROR', `The model provider failed: ${why}`);
    }
  }

  /** `agent.limits` and `agent.models` of the default branch's build (the defaults while it has none). */
  async function defaultBranchAgent(site: ServedSite): Promise<Pick<BuildManifest['agent'], 'limits' | 'models'>> {
    if (site.request.ref === undefined) return site.build.manifest.agent;
    const deployment = await sites.deployment(site.request.repository, undefined);
    return deployment.state === 'ready' ? deployment.build.manifest.agent : { limits: DEFAULT_LIMITS };
  }

  return async function chat(req: IncomingMessage, res: ServerResponse, site: ServedSite): Promise<void> {
    const result =
      req.method === 'POST' ? await answer(req, site) : { ...failure(405, 'METHOD_NOT_ALLOWED', 'Ask with POST'), headers: { Allow: 'POST' } };
    res.writeHead(result.status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...result.headers }).end(JSON.stringify(result.body));
  };
}
