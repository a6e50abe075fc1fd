/**
 * Another team's project using the SDK: the package packed as `npm publish` would pack it (prepack builds dist/),
 * installed from that tarball into a fresh directory outside the repository, run by the system's Node, and
 * type-checked against nothing but what was installed. Its sources are consumer/ (outside the repository's
 * tsconfig: they compile only against the installed package).
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sdkDir = join(root, 'client-sdk');
const fixtures = fileURLToPath(new URL('consumer', import.meta.url));
const execFileAsync = promisify(execFile);

export interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a failure is a status, not an exception. */
export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<Ran> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return { status: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message };
  }
}

async function mustRun(command: string, args: string[], cwd: string): Promise<void> {
  const ran = await run(command, args, cwd);
  if (ran.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${ran.status}:\n${ran.stdout}\n${ran.stderr}`);
}

/** The environment without what an enclosing `npm test` exports (npm_config_*, npm_package_*...), as a fresh shell has it. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The Node another project runs on: SYSTEM_NODE, else the first `node` on PATH outside any node_modules/.bin (the
 * repository's is its `node` devDependency, Node 24, which npm scripts and npx put first).
 */
export function systemNode(): string {
  if (process.env.SYSTEM_NODE) return process.env.SYSTEM_NODE;
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !dir.split(sep).includes('node_modules'));
  const found = dirs.map((dir) => join(dir, 'node')).find(isExecutable);
  if (!found) throw new Error('No node on PATH outside node_modules: set SYSTEM_NODE to the Node a consumer would use');
  return found;
}

export interface ConsumerProject {
  dir: string;
  /** Runs one of the consumer/ scripts with the system Node and parses the JSON it prints. */
  runScript<T>(script: string, env: Record<string, string>): Promise<T>;
  remove(): void;
}

/**
 * `npm pack` in client-sdk/, then a new project (an ES module package) that installs the tarball and `packages`,
 * with the consumer/ fixtures copied in.
 */
export async function createConsumerProject(packages: string[]): Promise<ConsumerProject> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
  try {
    await mustRun('npm', ['pack', '--pack-destination', dir], sdkDir);
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack left no tarball in ${dir}`);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
    await mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, tarball), ...packages], dir);
    cpSync(fixtures, dir, { recursive: true });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const node = systemNode();
  return {
    dir,
    async runScript<T>(script: string, env: Record<string, string>) {
      const ran = await run(node, [script], dir, { ...cleanEnv(), ...env });
      if (ran.status !== 0) throw new Error(`${script} exited ${ran.status}:\n${ran.stderr}`);
      return JSON.parse(ran.stdout) as T;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The repository's tsc over the project's tsconfig.json: its whole output (empty when there is no error). */
export async function typeCheck(dir: string, compilerOptions: Record<string, unknown>, files: string[]): Promise<Ran> {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
  return run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(dir, 'tsconfig.json')], dir);
}
