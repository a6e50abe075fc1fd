/**
 * How a stylesheet Astro bundled is split (sites/builder/component-styles.ts): each component's scoped rules out,
 * inside the at-rules that held them; what names no component, or several, stays.
 */
import { describe, expect, it } from 'vitest';
import { splitStylesheet } from '../../sites/builder/component-styles.ts';

describe('splitStylesheet', () => {
  it('takes out the rules scoped to one component, keeping their order and their @media', () => {
    const { base, scoped } = splitStylesheet(
      '.a[data-astro-cid-x]{color:red}body{margin:0}@media (width<=50rem){.b[data-astro-cid-x]{gap:1px}.layout{display:block}.c[data-astro-cid-x]{gap:2px}}.d[data-astro-cid-y]{top:0}',
    );
    expect(base).toBe('body{margin:0}@media (width<=50rem){.layout{display:block}}');
    expect(Object.fromEntries(scoped)).toEqual({
      x: '.a[data-astro-cid-x]{color:red}@media (width<=50rem){.b[data-astro-cid-x]{gap:1px}.c[data-astro-cid-x]{gap:2px}}',
      y: '.d[data-astro-cid-y]{top:0}',
    });
  });
  it('an at-rule left empty goes; keyframes, font faces and rules naming two components stay', () => {
    const { base, scoped } = splitStylesheet(
      '@media print{.a[data-astro-cid-x]{color:red}}@keyframes spin{to{transform:rotate(1turn)}}@font-face{font-family:f;src:url(f.woff2)}.a[data-astro-cid-x] .b[data-astro-cid-y]{gap:0}',
    );
    expect(base).toBe('@keyframes spin{to{transform:rotate(1turn)}}@font-face{font-family:f;src:url(f.woff2)}.a[data-astro-cid-x] .b[data-astro-cid-y]{gap:0}');
    expect(Object.fromEntries(scoped)).toEqual({ x: '@media print{.a[data-astro-cid-x]{color:red}}' });
  });
  it('a stylesheet with no scoped rules is left as it was', () => {
    const css = ':root{--x:1}.site-header{top:0}';
    expect(splitStylesheet(css)).toEqual({ base: css, scoped: new Map() });
  });
});
