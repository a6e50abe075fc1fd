/**
 * The server as a process: data survives restarts, SIGTERM lets in-flight requests finish, and
 * `npm run org:create` prints working credentials. Runs on PGlite, or PostgreSQL with DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { asset, employee, restClient } from '../helpers/rest.ts';
import { processEnvFor } from '../helpers/server-process.ts';
import { createTestDatabase, testConfig } from '../helpers/server.ts';

const root = new URL('../..', import.meta.url).pathname;

let database: { config: DatabaseConfig; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

function run(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [script, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves with the first stdout line of a JSON log that has `field`. */
function awaitLogLine(child: ChildProcess, field: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n')) {
        try {
          const parsed = JSON.parse(line);
          if (field in parsed) resolve(parsed);
        } catch {
          // not a complete JSON line yet
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before logging "${field}"`)));
  });
}

const exitCode = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve));

describe('data survives a server restart', () => {
  it('keeps organizations, keys and resources across a stop and a start on the same database', async () => {
    const first = await startServer(testConfig(database.config), createLogger('silent'));
    const { apiKey } = await first.services.organizations.create('Persistent');
    const e = employee();
    const a = asset();
    expect((await restClient(first.url, apiKey)('POST', '/employee-resources', e)).status).toBe(201);
    expect((await restClient(first.url, apiKey)('POST', '/asset-resources', a)).status).toBe(201);
    await first.close();

    const second = await startServer(testConfig(database.config), createLogger('silent'));
    try {
      const all = await restClient(second.url, apiKey)('GET', '/all-resources');
      expect(all.status).toBe(200);
      expect(all.body.employees.map((x: any) => x.resourceId)).toContain(e.resourceId);
      expect(all.body.assets.map((x: any) => x.resourceId)).toContain(a.resourceId);
    } finally {
      await second.close();
    }
  });
});

describe('the server process', () => {
  it('org:create prints { orgId, apiKey }; SIGTERM finishes the in-flight request, then exits 0', async () => {
    const env = { ...processEnvFor(database.config), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };

    const cli = run('server/platform/organizations/org-create.ts', ['Process', 'Test'], env);
    let out = '';
    cli.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    expect(await exitCode(cli)).toBe(0);
    const credentials = JSON.parse(out.trim());
    expect(credentials).toEqual({ orgId: expect.any(String), apiKey: expect.stringMatching(/^rk_/) });

    const server = run('server/main.ts', [], env);
    const { url } = (await awaitLogLine(server, 'url')) as { url: string };
    const exited = exitCode(server);

    // Start a request, send half its body, stop the server, then send the rest.
    const body = JSON.stringify(employee());
    const response = new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
      const req = request(`${url}/employee-resources`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${credentials.apiKey}` },
      });
      req.on('response', (res) => {
        let text = '';
        const connection = res.headers.connection;
        res.on('data', (c: Buffer) => (text += c.toString())).on('end', () => resolve({ status: res.statusCode!, text, connection }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        server.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(20)), 300);
      }, 100);
    });

    const answered = await response;
    expect(answered.status, answered.text).toBe(201);
    expect(answered.connection).toBe('close'); // no keep-alive socket lingers after shutdown began
    expect(JSON.parse(answered.text).orgId).toBe(credentials.orgId);
    expect(await exited).toBe(0);

    // The resource the last request created is there after the restart.
    const restarted = run('server/main.ts', [], env);
    try {
      const { url: url2 } = (await awaitLogLine(restarted, 'url')) as { url: string };
      const list = await restClient(url2, credentials.apiKey)('GET', '/employee-resources');
      expect(list.body.map((x: any) => x.resourceId)).toContain(JSON.parse(body).resourceId);
    } finally {
      restarted.kill('SIGTERM');
      await exitCode(restarted);
    }
  }, 90_000); // three process start-ups, slow on a loaded 2-core machine
});
