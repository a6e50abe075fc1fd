import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../../routers/index.ts';
import { buildOpenApiDocument } from '../../server/platform/http/openapi.ts';

/**
 * Stoplight Spectral with its `spectral:oas` ruleset (the recommended rules, as `extends: spectral:oas` gives them)
 * on the document the routers generate now (buildOpenApiDocument: what `npm run openapi` writes to openapi.json, and,
 * with PUBLIC_BASE_URL, what a deployment serves at /openapi.json): 0 errors and 0 warnings. Infos and hints are
 * allowed (and printed). Spectral runs in-process: @stoplight/spectral-core with the ruleset of
 * @stoplight/spectral-rulesets, the same code as `spectral lint`, offline (the document has only local $refs).
 * (Redocly's rules: openapi-lint.test.ts; openapi.json is what the routers generate: openapi.test.ts.)
 */

// Spectral's packages are CommonJS.
const require = createRequire(import.meta.url);
const { Spectral, Document } = require('@stoplight/spectral-core') as typeof import('@stoplight/spectral-core');
const { Json } = require('@stoplight/spectral-parsers') as typeof import('@stoplight/spectral-parsers');
const { oas } = require('@stoplight/spectral-rulesets') as typeof import('@stoplight/spectral-rulesets');

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;
/** As `npm run openapi` writes it. */
const generated = `${JSON.stringify(buildOpenApiDocument(appRouter), null, 2)}\n`;
/** As a deployment with PUBLIC_BASE_URL serves it. */
const served = JSON.stringify(buildOpenApiDocument(appRouter, 'https://api.example.com'));

interface Finding {
  severity: (typeof SEVERITY)[number];
  line: string;
}

/** A JSON pointer (RFC 6901) to a place in the document. */
const pointer = (path: readonly (string | number)[]) => (path.length ? path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') : '/');

async function lint(text: string): Promise<Finding[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [oas as never] });
  const results = await spectral.run(new Document(text, Json, 'openapi.json'));
  return results.map((r) => ({
    severity: SEVERITY[r.severity]!,
    line: `${SEVERITY[r.severity]} ${r.code} at ${pointer(r.path)}: ${r.message}`,
  }));
}

describe('openapi.json under Spectral (spectral:oas)', () => {
  it.each([
    ['as npm run openapi writes it', generated],
    ['as a server with PUBLIC_BASE_URL serves it', served],
  ])('has 0 errors and 0 warnings, %s', async (_, text) => {
    const findings = await lint(text);
    const notes = findings.filter((f) => f.severity === 'info' || f.severity === 'hint');
    if (notes.length) console.log(`[spectral] ${notes.length} info/hint:\n${notes.map((f) => f.line).join('\n')}`);
    expect(findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.line)).toEqual([]);
  }, 60_000);

  it('the rules are really applied: problems put into a copy of the document are reported', async () => {
    const doc = JSON.parse(generated);
    delete doc.info.contact;
    const [path, item] = Object.entries(doc.paths as Record<string, Record<string, { description?: string; tags?: string[] }>>)[0]!;
    const [method, operation] = Object.entries(item)[0]!;
    delete operation.description;
    operation.tags = ['NoSuchTag'];
    const lines = (await lint(JSON.stringify(doc))).map((f) => f.line);
    const at = pointer(['paths', path, method]).replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^warning info-contact at \/info:/),
        expect.stringMatching(new RegExp(`^warning operation-description at ${at}:`)),
        expect.stringMatching(new RegExp(`^warning operation-tag-defined at ${at}/tags/0:`)),
      ]),
    );
  }, 60_000);
});
