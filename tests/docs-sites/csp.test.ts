/** The Content-Security-Policy a build writes into each page (sites/builder/csp.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withContentSecurityPolicy } from '../../sites/builder/csp.ts';
import { CONDITION_END, conditionStart, resolveHosted } from '../../sites/builder/hosted.ts';

const mark = 'f'.repeat(32);
const hash = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
const policyOf = (html: string) => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';

describe('the page policy', () => {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>T</title><script data-docs-own="${mark}">own()</script><script>injected()</script></head><body><script data-x="1" data-docs-own="${mark}" data-y="2">late()</script><script data-docs-own="other">guess()</script></body></html>`;
  // Computed in each test (not when the file is collected), so each run of the policy is a test's.
  const built = () => withContentSecurityPolicy(page, mark);

  it("lists the hash of each script the layout marked with this build's mark, and of no other", () => {
    const out = built();
    const scripts = /script-src ([^;]*)/.exec(policyOf(out))![1]!.split(' ');
    expect(scripts).toEqual(["'self'", "'wasm-unsafe-eval'", hash('own()'), hash('late()')]);
  });
  it('removes the mark and keeps every other attribute', () => {
    const out = built();
    expect(out).not.toContain(`data-docs-own="${mark}"`);
    expect(out).toContain('<script>own()</script>');
    expect(out).toContain('<script data-x="1" data-y="2">late()</script>');
    expect(out).toContain('<script data-docs-own="other">guess()</script>');
    // Nothing else changes: the page is the same, less the marks, plus the policy.
    expect(out.replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, '')).toBe(page.replaceAll(` data-docs-own="${mark}"`, ''));
  });
  it('comes right after the charset, before anything it governs, and closes the usual holes', () => {
    const out = built();
    expect(out.indexOf('Content-Security-Policy')).toBe(out.indexOf('<meta charset="utf-8">') + '<meta charset="utf-8">'.length + '<meta http-equiv="'.length);
    expect(policyOf(out).split('; ')).toEqual([
      "default-src 'self'",
      `script-src 'self' 'wasm-unsafe-eval' ${hash('own()')} ${hash('late()')}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' https: data:",
      "media-src 'self' https:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "frame-src 'none'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ]);
    // A page without a charset meta gets it first in <head>.
    expect(withContentSecurityPolicy('<html><head><title>x</title></head></html>', mark)).toMatch(/^<html><head><meta http-equiv="Content-Security-Policy" content="default-src/);
  });
  it('allows the origins of the analytics the configuration turns on, and no origin a page holds', () => {
    const google = ['https://www.googletagmanager.com', 'https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com'];
    const plausible = policyOf(withContentSecurityPolicy('<head></head>', mark, { origins: ['https://plausible.example'] }));
    expect(plausible).toContain("script-src 'self' 'wasm-unsafe-eval' https://plausible.example;");
    expect(plausible).toContain("img-src 'self' https: data: https://plausible.example;");
    expect(plausible).toContain("connect-src 'self' https://plausible.example;");
    const gtm = policyOf(withContentSecurityPolicy(`<head><script data-docs-own="${mark}" data-analytics="tag-manager">gtm()</script></head>`, mark, { origins: google }));
    expect(gtm).toContain(`script-src 'self' 'wasm-unsafe-eval' ${hash('gtm()')} ${google.join(' ')};`);
    // What a page holds adds nothing: a script's origin, a tag-manager mark, a frame mark of an unknown player.
    const injected = '<head><script src="https://evil.example/x.js"></script><div data-analytics="tag-manager" data-docs-frame="https://evil.example"></div></head>';
    expect(policyOf(withContentSecurityPolicy(injected, mark))).not.toMatch(/evil|google/);
  });
  it("frames only the built-in players a page's media components mark, each once; none elsewhere", () => {
    const frameSrc = (body: string) => /frame-src ([^;]*)/.exec(policyOf(withContentSecurityPolicy(`<head></head><body>${body}</body>`, mark)))![1];
    const players = '<div data-docs-frame="https://www.youtube-nocookie.com"></div><div data-docs-frame="https://player.vimeo.com"></div><div data-docs-frame="https://www.youtube-nocookie.com"></div>';
    expect(frameSrc(players)).toBe('https://www.youtube-nocookie.com https://player.vimeo.com');
    expect(frameSrc('<div data-docs-frame="https://evil.example"></div><div xdata-docs-frame="https://player.vimeo.com"></div>')).toBe("'none'");
    expect(frameSrc('')).toBe("'none'");
  });
  it('in a hosted build, keeps the origins between the markers of where the scripts are served', () => {
    const hosted = policyOf(withContentSecurityPolicy('<head></head>', mark, { origins: ['https://plausible.example'], condition: 'default-branch+custom-domain' }));
    const kept = `${conditionStart('default-branch+custom-domain')} https://plausible.example${CONDITION_END}`;
    expect(hosted).toContain(`script-src 'self' 'wasm-unsafe-eval'${kept};`);
    expect(hosted).toContain(`connect-src 'self'${kept};`);
    const served = (defaultBranch: boolean, customDomain: boolean) => resolveHosted(hosted, { base: '', origin: 'https://docs.example.com', defaultBranch, customDomain });
    expect(served(true, true)).toContain("script-src 'self' 'wasm-unsafe-eval' https://plausible.example;");
    for (const [defaultBranch, customDomain] of [[true, false], [false, true], [false, false]] as const) {
      expect(served(defaultBranch, customDomain)).not.toContain('plausible');
      expect(served(defaultBranch, customDomain)).toContain("script-src 'self' 'wasm-unsafe-eval';");
    }
  });
});

describe('a built site', () => {
  it('the HTML files rendered get their policy; other files are left alone; each build has a mark of its own', async () => {
    const { mkdtempSync, mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { applyContentSecurityPolicy, newOwnScriptMark } = await import('../../sites/builder/csp.ts');
    const out = mkdtempSync(join(tmpdir(), 'csp-'));
    mkdirSync(join(out, 'guide'));
    const own = newOwnScriptMark();
    expect(own).toMatch(/^[0-9a-f]{32}$/);
    expect(newOwnScriptMark()).not.toBe(own);
    writeFileSync(join(out, 'index.html'), `<head><meta charset="utf-8"><script data-docs-own="${own}">a()</script></head>`);
    writeFileSync(join(out, 'guide', 'index.html'), '<head><meta charset="utf-8"></head>');
    writeFileSync(join(out, 'app.js'), '<head><meta charset="utf-8"></head>');
    await applyContentSecurityPolicy(out, own, ['index.html', 'guide/index.html']);
    expect(policyOf(readFileSync(join(out, 'index.html'), 'utf8'))).toContain(hash('a()'));
    expect(readFileSync(join(out, 'guide', 'index.html'), 'utf8')).toContain('Content-Security-Policy');
    expect(readFileSync(join(out, 'app.js'), 'utf8')).toBe('<head><meta charset="utf-8"></head>');
  });
});
