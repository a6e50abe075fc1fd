/** The Content-Security-Policy a build writes into each page (sites/builder/csp.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withContentSecurityPolicy } from '../../sites/builder/csp.ts';

const mark = 'f'.repeat(32);
const hash = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
const policyOf = (html: string) => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';

describe('the page policy', () => {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>T</title><script data-docs-own="${mark}">own()</script><script>injected()</script></head><body><script data-x="1" data-docs-own="${mark}" data-y="2">late()</script><script data-docs-own="other">guess()</script></body></html>`;
  const out = withContentSecurityPolicy(page, mark);

  it("lists the hash of each script the layout marked with this build's mark, and of no other", () => {
    const scripts = /script-src ([^;]*)/.exec(policyOf(out))![1]!.split(' ');
    expect(scripts).toEqual(["'self'", "'wasm-unsafe-eval'", hash('own()'), hash('late()')]);
  });
  it('removes the mark and keeps every other attribute', () => {
    expect(out).not.toContain(`data-docs-own="${mark}"`);
    expect(out).toContain('<script>own()</script>');
    expect(out).toContain('<script data-x="1" data-y="2">late()</script>');
    expect(out).toContain('<script data-docs-own="other">guess()</script>');
  });
  it('comes right after the charset, before anything it governs, and closes the usual holes', () => {
    expect(out.indexOf('Content-Security-Policy')).toBe(out.indexOf('<meta charset="utf-8">') + '<meta charset="utf-8">'.length + '<meta http-equiv="'.length);
    expect(policyOf(out)).toContain("default-src 'self'; ");
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-src 'none'", "form-action 'self'", "connect-src 'self'"]) expect(policyOf(out)).toContain(directive);
  });
  it("allows the origins of the analytics the page loads, and Google's for a tag manager", () => {
    const plausible = withContentSecurityPolicy('<head><script defer src="https://plausible.example/js/script.js"></script></head>', mark);
    expect(policyOf(plausible)).toContain("script-src 'self' 'wasm-unsafe-eval' https://plausible.example;");
    expect(policyOf(plausible)).toContain("connect-src 'self' https://plausible.example");
    const gtm = withContentSecurityPolicy(`<head><script data-docs-own="${mark}" data-analytics="tag-manager">gtm()</script></head>`, mark);
    expect(policyOf(gtm)).toContain('https://www.googletagmanager.com https://*.googletagmanager.com https://*.google-analytics.com');
    expect(policyOf(withContentSecurityPolicy('<head></head>', mark))).not.toContain('google');
  });
});
