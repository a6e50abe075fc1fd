#!/usr/bin/env node
/**
 * `docs`: the documentation-site CLI (sites/README.md).
 *
 *   docs init [dir] [--layout docs-page]  starter docs.json and pages (never overwrites); docs-page: pages in docs/
 *   docs check [dir] [--strict]           validate docs.json/docs.yaml, frontmatter, links, anchors, variables
 *   docs build [dir] --out <dir> [--strict] [--base /path] [--site https://origin] [--no-cache]
 *   docs dev [dir] [--port 4321] [--host 127.0.0.1]   local preview with reload
 *   docs migrate [dir] [--dry-run]        rewrite a docs.page or Mintlify configuration with this project's names
 *
 * Hosting (a running server's documentation-hosting API; --server, --api-key or DOCS_SERVER, DOCS_API_KEY):
 *   docs repo add <owner/repo> <git URL or path>      register a repository
 *   docs publish <owner/repo> [--ref <ref>] [--wait]  fetch and build a ref (default: the default branch)
 *   docs status <owner/repo>                          what each ref serves, recent builds
 *   docs agent create <owner/repo> --provider <p> [--model <m>] [--api-key-env VAR]   chat panel credential
 *   docs domain add <hostname> <owner/repo> | docs domain verify <hostname> | docs domain remove <hostname>
 *
 * Exit codes: 0 ok, 1 problems that fail (errors; any problem with --strict) or a failed call, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { cacheCompiledModules } from '../builder/cache-folders.ts';
import { keepYoungGenerationSmall } from '../builder/young-generation.ts';
import { runBuild, runCheck, runDev, runInit } from './commands.ts';

const USAGE = `Usage:
  docs init [dir] [--layout plain|docs-page]
  docs check [dir] [--strict]
  docs build [dir] --out <dir> [--strict] [--base /path] [--site https://origin] [--no-cache]
  docs dev [dir] [--port 4321] [--host 127.0.0.1]
  docs migrate [dir] [--dry-run]
  docs repo add <owner/repo> <git URL or path>
  docs publish <owner/repo> [--ref <ref>] [--wait]
  docs status <owner/repo>
  docs agent create <owner/repo> --provider openai|anthropic|google|mistral [--model <id>] [--api-key-env VAR]
  docs domain add <hostname> <owner/repo> | docs domain verify <hostname> | docs domain remove <hostname>
Hosting commands take --server <url> (DOCS_SERVER, default http://localhost:3000) and --api-key <key> (DOCS_API_KEY).`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      strict: { type: 'boolean', default: false },
      out: { type: 'string' },
      base: { type: 'string' },
      site: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      server: { type: 'string' },
      'api-key': { type: 'string' },
      'api-key-env': { type: 'string' },
      ref: { type: 'string' },
      wait: { type: 'boolean', default: false },
      provider: { type: 'string' },
      model: { type: 'string' },
      layout: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'no-cache': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, dirArg, ...extra] = positionals;
  if (values.help || command === 'help') return (console.log(USAGE), 0);
  if (command && HOSTING_COMMANDS.has(command)) return hosting(command, positionals.slice(1), values);
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra[0]}`);
  const dir = resolve(dirArg ?? '.');
  // Astro, Vite and the builder load from Node's code cache after the first run (~0.7 s of each).
  await cacheCompiledModules();
  switch (command) {
    case 'init':
      if (values.layout !== undefined && values.layout !== 'plain' && values.layout !== 'docs-page') throw new UsageError(`--layout must be plain or docs-page, not ${values.layout}`);
      return runInit(dir, { layout: values.layout ?? 'plain' });
    case 'check':
      return runCheck(dir, { strict: values.strict });
    case 'build':
      if (!values.out) throw new UsageError('docs build needs --out <dir>');
      keepYoungGenerationSmall();
      return runBuild(dir, {
        out: resolve(values.out),
        strict: values.strict,
        cache: !values['no-cache'],
        ...(values.base ? { base: values.base } : {}),
        ...(values.site ? { site: values.site } : {}),
      });
    case 'dev': {
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new UsageError(`--port must be a port number, not ${values.port}`);
      return runDev(dir, { ...(port !== undefined ? { port } : {}), ...(values.host ? { host: values.host } : {}) });
    }
    case 'migrate':
      return (await import('./migrate.ts')).runMigrate(dir, { dryRun: values['dry-run'] });
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
  }
}

const HOSTING_COMMANDS = new Set(['repo', 'publish', 'status', 'agent', 'domain']);

async function hosting(command: string, args: string[], values: Record<string, string | boolean | undefined>): Promise<number> {
  const text = (name: string) => values[name] as string | undefined;
  const [first, second, third, ...extra] = args;
  const expect = (count: number, usage: string) => {
    if (args.length !== count || extra.length > 0) throw new UsageError(`Usage: ${usage}`);
  };
  const hostingCli = await import('./hosting.ts');
  const c = () => hostingCli.connection({ server: text('server'), apiKey: text('api-key') });
  switch (command) {
    case 'repo':
      if (first !== 'add') throw new UsageError('Usage: docs repo add <owner/repo> <git URL or path>');
      expect(3, 'docs repo add <owner/repo> <git URL or path>');
      return hostingCli.repoAdd(c(), second, third);
    case 'publish':
      expect(1, 'docs publish <owner/repo> [--ref <ref>] [--wait]');
      return hostingCli.publish(c(), first, { ref: text('ref'), wait: values.wait === true });
    case 'status':
      expect(1, 'docs status <owner/repo>');
      return hostingCli.status(c(), first);
    case 'agent':
      if (first !== 'create') throw new UsageError('Usage: docs agent create <owner/repo> --provider <provider>');
      expect(2, 'docs agent create <owner/repo> --provider <provider>');
      return hostingCli.agentCreate(c(), second, { provider: text('provider'), model: text('model'), keyVariable: text('api-key-env') });
    default:
      if (first === 'add') expect(3, 'docs domain add <hostname> <owner/repo>');
      else expect(2, `docs domain ${first === 'verify' ? 'verify' : 'remove'} <hostname>`);
      return hostingCli.domain(c(), first, second, third);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // parseArgs reports unknown options with ERR_PARSE_ARGS_* codes: usage errors too.
  const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(`docs: ${(error as Error).message}`);
  if (usage) console.error(USAGE);
  process.exitCode = usage ? 2 : 1;
}
