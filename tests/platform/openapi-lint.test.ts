import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Redocly CLI's lint with its recommended rules (redocly.yaml; `npm run lint:openapi`) on the committed openapi.json:
 * 0 errors and 0 warnings. (tests/platform/openapi.test.ts checks that the file is what the routers generate.)
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const cliPackage = createRequire(import.meta.url).resolve('@redocly/cli/package.json');
const cli = join(dirname(cliPackage), (JSON.parse(readFileSync(cliPackage, 'utf8')) as { bin: Record<string, string> }).bin.redocly!);

interface Report {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

/** `redocly lint <file> --format=json` run the way npm runs it (this Node, the project folder, no telemetry). */
function lint(file: string): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'lint', file, '--format=json'],
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 << 20 },
      // Problems make the CLI exit 1: the report on stdout says what they are.
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as Report);
        } catch {
          reject(new Error(`redocly lint printed no report (${error?.message ?? 'exit 0'}): ${stderr}`));
        }
      },
    );
  });
}

const readable = (report: Report) => report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);

const scratch = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('openapi.json under Redocly CLI', () => {
  it('has 0 errors and 0 warnings with the recommended rules, nothing ignored', async () => {
    const report = await lint('openapi.json');
    expect(readable(report)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);

  it('the rules are really applied: the problems this document once had are reported', async () => {
    const doc = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8'));
    delete doc.info.license;
    delete doc.security;
    doc.servers = [{ url: 'http://localhost:3000' }];
    const file = join(scratch, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const report = await lint(file);
    const rules = new Set(report.problems.map((p) => p.ruleId));
    expect(rules).toEqual(new Set(['info-license', 'no-server-example.com', 'security-defined']));
    expect(report.totals.errors).toBeGreaterThan(0);
  }, 60_000);
});
