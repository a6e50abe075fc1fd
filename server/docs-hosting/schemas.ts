import { z } from 'zod';
import { MODEL_PROVIDERS } from '../../sites/index.ts';
import { isoDateTime, requiredText, text } from '../platform/schemas.ts';

/**
 * The documentation-hosting API (docs/docs-hosting.md): repositories, publishing, builds, custom domains and
 * chat-panel agents. Calls carry an organization API key; a repository belongs to the organization that
 * registered it.
 */

/** REST paths the hosting API's routers declare and its answers name (OpenAPI templates). */
export const REPOSITORY_PATH = '/api/docs/repositories/{owner}/{repo}';
export const WEBHOOK_PATH = `${REPOSITORY_PATH}/webhook`;

/** A path template filled in: `{owner}` -> `acme`. */
export const fillPath = (template: string, params: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/**
 * First path segments the service itself uses: no owner may take them (`/api/...` is the marketplace, not the
 * docs of an owner named `api`).
 */
export const RESERVED_OWNERS = new Set(['api', 'trpc', 'ws', 'dev', 'health', 'reference', 'employee-resources', 'asset-resources', 'all-resources', 'mcp']);

const OWNER_RULE = 'Use 1-39 letters, digits or single hyphens, not at either end';

/**
 * A code-host style owner name: letters, digits and single hyphens (as GitHub's). The length is its own check and
 * the pattern has no lookahead, which generators of examples skip.
 */
export const ownerName = z
  .string()
  .max(39, OWNER_RULE)
  .regex(/^[A-Za-z0-9](?:-?[A-Za-z0-9])*$/, OWNER_RULE)
  .refine((owner) => !RESERVED_OWNERS.has(owner.toLowerCase()), 'Reserved by the service')
  .meta({ description: 'Owner (user or organization) name', example: 'acme' });

/** A repository name: letters, digits, `.`, `_`, `-` (no `~`: it separates a ref in site URLs). */
export const repoName = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'Use 1-100 letters, digits, dots, underscores or hyphens')
  .refine((name) => !/^\.+$/.test(name), 'Must not consist of dots only')
  // openapi.json: both checks as one pattern (a character other than a dot), the length apart.
  .meta({ description: 'Repository name', example: 'widgets', pattern: '^[A-Za-z0-9._-]*[A-Za-z0-9_-][A-Za-z0-9._-]*$', minLength: 1, maxLength: 100 });

const site = { owner: ownerName, repo: repoName };

/** What readers may have built by visiting `~{ref}` when nobody published it: safe defaults. */
export const READER_BUILDS = { pullRequests: true, branches: true, tags: true, commits: false } as const;
const readerBuilds = z
  .strictObject({
    pullRequests: z.boolean().meta({ description: 'Pull-request previews (`~7`); default true' }),
    branches: z.boolean().meta({ description: 'Branches; default true' }),
    tags: z.boolean().meta({ description: 'Tags; default true' }),
    commits: z.boolean().meta({ description: 'Any commit by its SHA; default false (a commit is then served only once a ref published it)' }),
  })
  .partial()
  .meta({ description: 'Which unpublished refs a reader may have built by visiting them' });

/**
 * openapi.json's form of a source: an https URL of a host with a path (no credentials, no whitespace or backslash),
 * or an absolute local path or file:// URL without control characters.
 */
const SOURCE_PATTERN = String.raw`^(?:https://[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::[0-9]{1,4})?/[A-Za-z0-9._~%/-]+|(?:/|file://)[^\u0000-\u001f\u007f]*)$`;

export const RepositoryCreate = z.strictObject({
  ...site,
  source: text(2000)
    .min(1)
    .meta({
      description: 'Git URL (https) of the repository, or a local path where the operator allows it (DOCS_LOCAL_SOURCES)',
      example: 'https://github.com/acme/widgets.git',
      // What sources.ts takes, for tools that generate or check bodies (it decides, and says why it refuses).
      pattern: SOURCE_PATTERN,
    }),
  readerBuilds: readerBuilds.optional(),
});

export const RepositoryUpdate = z.strictObject({ ...site, readerBuilds });
export type RepositoryCreate = z.infer<typeof RepositoryCreate>;

export const RepositoryRef = z.object(site);

const buildStatus = z.enum(['QUEUED', 'BUILDING', 'SUCCEEDED', 'FAILED']);

export const Problem = z
  .object({
    severity: z.enum(['error', 'warning', 'info']),
    file: z.string(),
    line: z.number(),
    column: z.number(),
    path: z.string(),
    message: z.string(),
    suggestion: z.string().optional(),
  })
  .meta({ id: 'DocsProblem', description: 'A validation problem: file, 1-based line and column, JSON path' });

export const BuildOut = z
  .object({
    id: z.uuid(),
    owner: z.string(),
    repo: z.string(),
    commit: z.string().meta({ description: 'The commit built (40 hex digits)' }),
    status: buildStatus,
    refs: z.array(z.string()).meta({ description: 'Refs that serve this build once it succeeds (`refs/heads/main`)' }),
    pages: z.number().int().nullable(),
    problems: z.array(Problem).meta({ description: 'The validation report (also of failed builds)' }),
    error: z.string().nullable().meta({ description: 'Why the build failed' }),
    progress: z.object({ phase: z.string(), done: z.number().optional(), total: z.number().optional() }).nullable(),
    createdAt: isoDateTime,
    startedAt: isoDateTime.nullable(),
    finishedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'DocsBuild' });
export type BuildOut = z.infer<typeof BuildOut>;

export const Deployment = z.object({
  ref: z.string().meta({ description: 'Full ref name: refs/heads/main, refs/tags/v1.0, refs/pull/7/head' }),
  url: z.string().meta({ description: 'Where the ref is served (a path of this service)' }),
  wantedCommit: z.string().meta({ description: 'The newest commit published for the ref' }),
  servedCommit: z.string().nullable().meta({ description: 'The commit served (the last good build; null before one succeeded)' }),
  build: z.uuid().nullable(),
});

export const RepositoryOut = z
  .object({
    owner: z.string(),
    repo: z.string(),
    source: z.string(),
    defaultBranch: z.string().nullable(),
    url: z.string().meta({ description: 'The site of the default branch: /{owner}/{repo}' }),
    deployments: z.array(Deployment),
    domains: z.array(z.string()),
    readerBuilds: z.object({ pullRequests: z.boolean(), branches: z.boolean(), tags: z.boolean(), commits: z.boolean() }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'DocsRepository' });
export type RepositoryOut = z.infer<typeof RepositoryOut>;

export const RepositoryCreated = RepositoryOut.extend({
  webhookSecret: z.string().meta({ description: 'HMAC-SHA256 key of the push webhook (shown once)' }),
  webhookUrl: z.string().meta({ description: 'Where the code host posts push events' }),
});

export const PublishInput = z.strictObject({
  ...site,
  ref: text(255)
    .min(1)
    .optional()
    .meta({ description: 'Branch, tag, pull-request number or commit SHA (default: the default branch)', example: 'main' }),
});

export const BuildList = z.object({ builds: z.array(BuildOut), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
export const BuildListInput = z.object({
  ...site,
  limit: z.number().int().min(1).max(100).default(20).meta({ description: 'Page size: 1 to 100, default 20' }),
  offset: z.number().int().min(0).default(0).meta({ description: 'Builds to skip before the page, default 0' }),
});

/** Labels of letters, digits and hyphens (not at either end), then a top-level label of letters; 253 at most. */
const HOSTNAME = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * A hostname, kept in lower case. The pattern is checked after lower-casing (as it always was: a few non-ASCII
 * letters lower-case to ASCII ones); openapi.json carries it, in any case, as what clients send.
 */
const hostname = z
  .string()
  .max(253)
  .transform((host) => host.toLowerCase())
  .pipe(z.string().regex(HOSTNAME, 'Must be a hostname such as docs.example.com'))
  .meta({ description: 'Custom domain', example: 'docs.acme.com', pattern: HOSTNAME.source });

export const DomainCreate = z.strictObject({ hostname, ...site });
export const DomainRef = z.object({ hostname });
export const DomainOut = z
  .object({
    hostname: z.string(),
    owner: z.string(),
    repo: z.string(),
    verified: z.boolean().meta({ description: 'Whether the DNS challenge is answered: only a verified domain serves the sites' }),
    verification: z
      .object({
        type: z.literal('TXT'),
        name: z.string().meta({ example: '_docs-challenge.docs.acme.com' }),
        value: z.string().meta({ example: 'docs-verification=3f9c2a...' }),
      })
      .meta({ description: 'The DNS record that proves the domain is yours; keep it while the domain is mapped' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'DocsDomain' });
export type DomainOut = z.infer<typeof DomainOut>;

export const AgentCreate = z.strictObject({
  ...site,
  provider: z.enum(MODEL_PROVIDERS).meta({ description: 'The model provider the panel asks' }),
  apiKey: text(500).min(1).meta({ description: "The provider's API key (stored encrypted; never returned)" }),
  model: text(200).min(1).optional().meta({ description: "Model id (default: the provider's default; docs.json `agent.models` overrides)" }),
});
export const AgentOut = z
  .object({
    key: z.string().meta({ description: 'The credential for docs.json `agent.key` (shown once; only its hash is kept)' }),
    provider: z.enum(MODEL_PROVIDERS),
    model: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'DocsAgent' });

/** A push (or pull_request, ping) webhook: the body as the code host sent it. */
export const WebhookInput = z.object({ ...site }).catchall(z.unknown());
export const WebhookOut = z.object({ event: z.string(), builds: z.array(BuildOut) });

/** The chat panel's question (POST {site}/_chat). */
export const ChatInput = z.strictObject({
  question: requiredText(2000),
  history: z
    .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: text(8000) }))
    .max(10)
    .default([]),
});
export type ChatInput = z.infer<typeof ChatInput>;
export const ChatOut = z.object({ answer: z.string(), sources: z.array(z.object({ title: z.string(), url: z.string() })) });
