#!/usr/bin/env node
/**
 * `docs`: the documentation-site CLI (sites/README.md).
 *
 *   docs init [dir]                       starter docs.json and pages (never overwrites)
 *   docs check [dir] [--strict]           validate docs.json/docs.yaml, frontmatter, links, anchors, variables
 *   docs build [dir] --out <dir> [--strict] [--base /path] [--site https://origin]
 *   docs dev [dir] [--port 4321] [--host 127.0.0.1]   local preview with reload
 *
 * Exit codes: 0 ok, 1 problems that fail (errors; any problem with --strict), 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { runBuild, runCheck, runDev, runInit } from './commands.ts';

const USAGE = `Usage:
  docs init [dir]
  docs check [dir] [--strict]
  docs build [dir] --out <dir> [--strict] [--base /path] [--site https://origin]
  docs dev [dir] [--port 4321] [--host 127.0.0.1]`;

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
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, dirArg, ...extra] = positionals;
  if (values.help || command === 'help') return (console.log(USAGE), 0);
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra[0]}`);
  const dir = resolve(dirArg ?? '.');
  switch (command) {
    case 'init':
      return runInit(dir);
    case 'check':
      return runCheck(dir, { strict: values.strict });
    case 'build':
      if (!values.out) throw new UsageError('docs build needs --out <dir>');
      return runBuild(dir, {
        out: resolve(values.out),
        strict: values.strict,
        ...(values.base ? { base: values.base } : {}),
        ...(values.site ? { site: values.site } : {}),
      });
    case 'dev': {
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new UsageError(`--port must be a port number, not ${values.port}`);
      return runDev(dir, { ...(port !== undefined ? { port } : {}), ...(values.host ? { host: values.host } : {}) });
    }
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
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
