import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatProblems, type Problem } from '../config/problems.ts';

/**
 * The hosting commands of the `docs` CLI: a client of the server's documentation-hosting API
 * (docs/docs-hosting.md). The server is `--server` (or DOCS_SERVER, default http://localhost:3000), the
 * organization API key `--api-key` (or DOCS_API_KEY, else the embedded development organization's key in
 * ./data/dev-organization.json).
 */

export class CliError extends Error {}

export interface Connection {
  server: string;
  apiKey: string;
}

export function connection(options: { server?: string | undefined; apiKey?: string | undefined }): Connection {
  const server = (options.server ?? process.env.DOCS_SERVER ?? 'http://localhost:3000').replace(/\/+$/, '');
  let apiKey = options.apiKey ?? process.env.DOCS_API_KEY;
  const devOrganization = resolve('data/dev-organization.json');
  if (!apiKey && existsSync(devOrganization)) apiKey = (JSON.parse(readFileSync(devOrganization, 'utf8')) as { apiKey?: string }).apiKey;
  if (!apiKey) throw new CliError('No API key: pass --api-key or set DOCS_API_KEY (an organization key from `npm run org:create`)');
  return { server, apiKey };
}

async function call<T>(c: Connection, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${c.server}${path}`, {
      method,
      headers: { authorization: `Bearer ${c.apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    throw new CliError(`Cannot reach ${c.server}: ${(error as Error).message} (is the server running? --server sets it)`);
  }
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const error = (data ?? {}) as { message?: string; details?: Record<string, unknown> };
    const fields = error.details ? Object.entries(error.details).map(([k, v]) => `\n  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('') : '';
    throw new CliError(`${res.status}: ${error.message ?? res.statusText}${fields}`);
  }
  return data as T;
}

function site(name: string | undefined): { owner: string; repo: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(name ?? '');
  if (!match) throw new CliError(`Expected owner/repo, got ${name ?? 'nothing'}`);
  return { owner: match[1]!, repo: match[2]! };
}

interface Build {
  id: string;
  commit: string;
  status: string;
  refs: string[];
  pages: number | null;
  problems: Problem[];
  error: string | null;
  progress: { phase: string; done?: number; total?: number } | null;
}

const describe = (b: Build) => `build ${b.id} of ${b.commit.slice(0, 12)} (${b.refs.join(', ') || 'no ref'}): ${b.status}`;

export async function repoAdd(c: Connection, name: string | undefined, source: string | undefined): Promise<number> {
  if (!source) throw new CliError('docs repo add needs owner/repo and a git URL or local path');
  // A local folder is sent as an absolute path (the server decides whether local sources are allowed).
  const from = existsSync(source) ? resolve(source) : source;
  const created = await call<{ url: string; webhookUrl: string; webhookSecret: string }>(c, 'POST', '/api/docs/repositories', { ...site(name), source: from });
  console.log(`registered ${name}: ${c.server}${created.url}`);
  console.log(`push webhook: ${created.webhookUrl.startsWith('/') ? c.server : ''}${created.webhookUrl}`);
  console.log(`webhook secret (shown once): ${created.webhookSecret}`);
  console.log(`\nNext: docs publish ${name}`);
  return 0;
}

export async function publish(c: Connection, name: string | undefined, options: { ref?: string | undefined; wait: boolean }): Promise<number> {
  const { owner, repo } = site(name);
  let build = await call<Build>(c, 'POST', `/api/docs/repositories/${owner}/${repo}/publish`, options.ref ? { ref: options.ref } : {});
  console.log(describe(build));
  if (!options.wait) return 0;
  let shown = '';
  while (build.status === 'QUEUED' || build.status === 'BUILDING') {
    await new Promise((r) => setTimeout(r, 1000));
    build = await call<Build>(c, 'GET', `/api/docs/builds/${build.id}`);
    const line = build.progress ? `${build.progress.phase}${build.progress.total ? ` ${build.progress.done ?? 0}/${build.progress.total}` : ''}` : build.status.toLowerCase();
    if (line !== shown) console.log(`  ${(shown = line)}`);
  }
  if (build.problems.length) console.error(formatProblems(build.problems));
  if (build.status === 'FAILED') {
    console.error(`Build failed: ${build.error ?? 'unknown reason'}. The last good build stays published.`);
    return 1;
  }
  const path = options.ref ? `/${owner}/${repo}~${encodeURIComponent(options.ref)}` : `/${owner}/${repo}`;
  console.log(`published ${build.pages ?? 0} pages: ${c.server}${path}`);
  return 0;
}

export async function status(c: Connection, name: string | undefined): Promise<number> {
  const { owner, repo } = site(name);
  const repository = await call<{ defaultBranch: string | null; deployments: { ref: string; url: string; wantedCommit: string; servedCommit: string | null }[]; domains: string[] }>(
    c,
    'GET',
    `/api/docs/repositories/${owner}/${repo}`,
  );
  console.log(`${owner}/${repo} (default branch: ${repository.defaultBranch ?? 'not fetched yet'})`);
  for (const d of repository.deployments) {
    const state = d.servedCommit === d.wantedCommit ? 'up to date' : d.servedCommit ? `serving ${d.servedCommit.slice(0, 12)}, ${d.wantedCommit.slice(0, 12)} pending` : 'nothing served yet';
    console.log(`  ${d.ref}  ${c.server}${d.url}  ${state}`);
  }
  for (const domain of repository.domains) console.log(`  domain: ${domain}`);
  const { builds } = await call<{ builds: Build[] }>(c, 'GET', `/api/docs/repositories/${owner}/${repo}/builds?limit=5`);
  for (const build of builds) console.log(`  ${describe(build)}${build.error ? `: ${build.error}` : ''}`);
  return 0;
}

const KEY_VARIABLES: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', google: 'GEMINI_API_KEY', mistral: 'MISTRAL_API_KEY' };

/** The provider key comes from the environment (never the command line, where it would stay in shell history). */
export async function agentCreate(c: Connection, name: string | undefined, options: { provider?: string | undefined; model?: string | undefined; keyVariable?: string | undefined }): Promise<number> {
  const provider = options.provider;
  if (!provider || !KEY_VARIABLES[provider]) throw new CliError(`docs agent create needs --provider (${Object.keys(KEY_VARIABLES).join(', ')})`);
  const variable = options.keyVariable ?? KEY_VARIABLES[provider]!;
  const apiKey = process.env[variable];
  if (!apiKey) throw new CliError(`Set ${variable} to the ${provider} API key (or name another variable with --api-key-env)`);
  const agent = await call<{ key: string }>(c, 'POST', `/api/docs/repositories/${site(name).owner}/${site(name).repo}/agents`, {
    ...site(name),
    provider,
    apiKey,
    ...(options.model ? { model: options.model } : {}),
  });
  console.log(agent.key);
  console.error(`\nPut it in docs.json as "agent": { "key": "${agent.key}" } and publish: the chat panel appears. It is shown only once.`);
  return 0;
}

export async function domain(c: Connection, action: string | undefined, hostname: string | undefined, name: string | undefined): Promise<number> {
  type Mapped = { hostname: string; verified: boolean; verification: { type: string; name: string; value: string } };
  const report = (mapped: Mapped) => {
    if (mapped.verified) return console.log(`${mapped.hostname} is verified and serves its repository: point its DNS at this server`);
    console.log(`${mapped.hostname} serves nothing until you prove it is yours. Publish this DNS record, then run docs domain verify ${mapped.hostname}:`);
    console.log(`  ${mapped.verification.name}  ${mapped.verification.type}  "${mapped.verification.value}"`);
  };
  if (action === 'add') {
    report(await call<Mapped>(c, 'POST', '/api/docs/domains', { hostname, ...site(name) }));
    return 0;
  }
  if (action === 'verify') {
    const mapped = await call<Mapped>(c, 'POST', `/api/docs/domains/${encodeURIComponent(hostname ?? '')}/verify`, {});
    report(mapped);
    return mapped.verified ? 0 : 1;
  }
  if (action === 'remove') {
    await call(c, 'DELETE', `/api/docs/domains/${encodeURIComponent(hostname ?? '')}`);
    console.log(`${hostname} no longer serves documentation`);
    return 0;
  }
  throw new CliError('docs domain add <hostname> <owner/repo> | docs domain verify <hostname> | docs domain remove <hostname>');
}
