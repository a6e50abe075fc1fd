/**
 * Markdown that docs.page and Mintlify both support (sites/builder/markdown/), in a real build of
 * tests/fixtures/markdown-extensions: GitHub alerts as callouts, Shiki's `[!code …]` notations and meta options,
 * fence titles and line numbers, language aliases and labels, Mermaid diagrams (script only where there is one)
 * and KaTeX math (stylesheet only where there is some). The fixture builds without a single problem or warning.
 * In a browser (the diagram drawn under the page's Content-Security-Policy): markdown-browser.test.ts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lineOptionsFromMeta, titleFromMeta } from '../../sites/src/components/mdx/code-meta.ts';
import { buildFixture, type BuiltSite, type El, type Page } from '../helpers/docs.ts';
import { shikiLanguageNames } from '../../sites/builder/markdown/languages.ts';
import { looksLikePrices } from '../../sites/builder/markdown/math.ts';

let site: BuiltSite;
/** What the build wrote to the console (Shiki's "language doesn't exist" warnings would be here). */
const logged: string[] = [];

beforeAll(async () => {
  const spies = (['warn', 'error'] as const).map((level) => vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(`${level}: ${args.join(' ')}`)));
  try {
    site = await buildFixture('markdown-extensions');
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}, 180_000);
afterAll(() => vi.restoreAllMocks());

const ROUTES = ['/', '/alerts', '/code', '/diagrams', '/untrusted-diagram', '/math'];
const DIAGRAM_PAGES = ['/diagrams', '/untrusted-diagram'];
const prose = (route: string): El => site.page(route).select('.prose')!;
/** The `<pre>` of each code block of a page, in order (inside a code group too). */
const blocks = (route: string): El[] => prose(route).selectAll('pre.astro-code');
const classes = (el: El | undefined) => (el?.attr('class') ?? '').split(/\s+/).filter(Boolean);
const lines = (pre: El) => pre.selectAll('.line');
/** Module scripts a page loads from files, and the text of each file. */
const scriptFiles = (page: Page) => page.selectAll('script[src]').map((script) => ({ src: script.attr('src')!, code: site.file(script.attr('src')!) }));
const stylesheets = (page: Page) => page.selectAll('link[rel=stylesheet]').map((link) => link.attr('href')!);

describe('the fixture', () => {
  it('builds every page with no problem and nothing on the console (no warning per unknown language)', () => {
    expect(site.result.problems).toEqual([]);
    expect(logged).toEqual([]);
    expect(site.result.pages).toBe(ROUTES.length);
  });
});

describe('GitHub alerts (builder/markdown/alerts.ts)', () => {
  it('become callouts of the matching kind, with GitHub\'s label where the component\'s differs', () => {
    const callouts = prose('/alerts').selectAll('.callout');
    expect(callouts.map((c) => [c.attr('data-type'), c.select('.callout-title')?.text.trim()])).toEqual([
      ['note', 'Note'],
      ['tip', 'Tip'],
      ['info', 'Important'],
      ['warning', 'Warning'],
      ['danger', 'Caution'],
    ]);
    expect(callouts.map((c) => c.attr('role'))).toEqual(['note', 'note', 'note', 'note', 'note']);
  });
  it('keep their content (Markdown included) and lose the marker', () => {
    const [note, tip] = prose('/alerts').selectAll('.callout .callout-body');
    expect(note!.text.trim()).toBe('Useful information that users should know, even when skimming content.');
    expect(tip!.select('strong')?.text).toBe('better');
    expect(tip!.selectAll('li').map((li) => li.text)).toEqual(['a list stays inside']);
    expect(prose('/alerts').selectAll('.callout').some((c) => c.text.includes('[!'))).toBe(false);
  });
  it('leave a blockquote without a marker, with text after the marker, or with an unknown marker as it is', () => {
    expect(prose('/alerts').selectAll('blockquote').map((b) => b.text.trim().split('\n')[0])).toEqual([
      'A plain quote, with no marker.',
      '[!NOTE] with words after the marker is a plain quote, as on GitHub.',
      '[!SOMETHING]',
    ]);
    expect(prose('/').selectAll('blockquote').map((b) => b.text.trim())).toEqual(['A plain quote stays a blockquote.']);
    expect(prose('/').select('.callout')).toBeUndefined();
  });
  it('stay as written in the page\'s Markdown for agents', () => {
    expect(site.file('alerts.md')).toContain('> [!NOTE]\n> Useful information');
  });
});

describe('code notations and meta options (builder/markdown/code-notation.ts)', () => {
  it('remove every notation comment from the page, so the copied text has none', () => {
    for (const pre of blocks('/code')) expect(pre.select('code')!.text).not.toMatch(/\[!code|\/\/\s*$/m);
    expect(site.page('/code').html).not.toContain('[!code');
  });
  it('mark diff lines and their block', () => {
    const diff = blocks('/code')[0]!;
    expect(classes(diff)).toContain('has-diff');
    expect(lines(diff).map((line) => [classes(line).join(' '), line.text])).toEqual([
      ['line diff remove', 'const before = 1;'],
      ['line diff add', 'const after = 2;'],
      ['line', 'const same = 3;'],
    ]);
  });
  it('mark highlighted, focused, error and warning lines', () => {
    const pre = blocks('/code')[1]!;
    expect(classes(pre)).toEqual(expect.arrayContaining(['has-highlighted', 'has-focused']));
    expect(lines(pre).map((line) => classes(line).join(' '))).toEqual(['line highlighted', 'line focused', 'line highlighted error', 'line highlighted warning']);
  });
  it('wrap every occurrence of a `[!code word:…]` word', () => {
    const pre = blocks('/code')[2]!;
    expect(pre.selectAll('.highlighted-word').map((word) => word.text)).toEqual(['greeting', 'greeting']);
    expect(lines(pre)).toHaveLength(2); // the notation's own line is gone
  });
  it('highlight and focus lines from the meta string ({1,3}, highlight={…}, focus={…})', () => {
    const [, , , ranges, app] = blocks('/code');
    expect(lines(ranges!).map((line) => classes(line).includes('highlighted'))).toEqual([true, false, true]);
    expect(lines(app!).map((line) => classes(line).filter((c) => c !== 'line'))).toEqual([[], ['highlighted'], ['focused']]);
  });
  it('number lines with `lines` and `showLineNumbers=5` (numbers drawn by CSS, not in the text)', () => {
    const [, , , , app, five] = blocks('/code');
    expect(classes(app!)).toContain('line-numbers');
    expect(classes(five!)).toContain('line-numbers');
    expect(five!.attr('style')).toMatch(/--docs-line-start:4$/);
    expect(lines(five!).map((line) => line.text)).toEqual(['echo five', 'echo six']);
    expect(classes(blocks('/code')[3]!)).not.toContain('line-numbers');
  });
  it('reads meta strings the way docs.page and Mintlify write them', () => {
    const options = (meta: string) => {
      const o = lineOptionsFromMeta(meta);
      return { highlight: [...o.highlight], focus: [...o.focus], from: o.lineNumbersFrom };
    };
    expect(options('{1,3-4}')).toEqual({ highlight: [1, 3, 4], focus: [], from: undefined });
    expect(options('title="a {2}.ts" highlight="5" focus={1-2} lines')).toEqual({ highlight: [5], focus: [1, 2], from: 1 });
    expect(options('showLineNumbers{7}')).toEqual({ highlight: [], focus: [], from: 7 });
    expect(options('showLineNumbers=false')).toEqual({ highlight: [], focus: [], from: undefined });
    expect(titleFromMeta('"Component.tsx" lines icon="react" {2}')).toBe('Component.tsx');
    expect(titleFromMeta('app.js lines highlight={2} focus={3}')).toBe('app.js');
  });
});

describe('fence titles (builder/markdown/code-title.ts)', () => {
  it('show a plain block\'s title as a header above it', () => {
    const figures = prose('/code').selectAll('figure.code-block');
    expect(figures.map((figure) => [figure.select('figcaption.code-title')?.text, figure.select('pre')?.attr('data-title')])).toEqual([
      ['diff.ts', 'diff.ts'],
      ['app.js', 'app.js'],
    ]);
    // The caption comes first, then the block.
    expect(figures[0]!.node.children.filter((child: { type: string }) => child.type === 'element').map((child: { tagName: string }) => child.tagName)).toEqual(['figcaption', 'pre']);
  });
  it('inside <CodeGroup> are the tab labels, not headers', () => {
    const group = prose('/code').select('[data-docs-tabs]')!;
    expect(group.selectAll('[role=tab]').map((tab) => tab.text)).toEqual(['npm', 'pnpm']);
    expect(group.select('figure')).toBeUndefined();
    expect(group.select('.line.highlighted')?.text).toBe('npm install my-package');
  });
});

describe('languages (builder/markdown/languages.ts)', () => {
  const byLanguage = () => new Map(blocks('/code').map((pre) => [pre.attr('data-language'), pre]));
  it('package managers and shells are labelled by their own name and highlighted as shell', () => {
    const pres = byLanguage();
    for (const name of ['npm', 'pnpm', 'yarn', 'bun', 'sh', 'shell', 'zsh', 'console', 'curl']) expect(pres.has(name), name).toBe(true);
    // Highlighted: the command and its arguments are tokens of different colours (plain text is one token).
    const colours = (pre: El) => new Set(pre.selectAll('.line span').map((span) => span.attr('style')));
    expect(colours(pres.get('npm')!).size).toBeGreaterThan(1);
    expect(colours(pres.get('curl')!).size).toBeGreaterThan(1);
    expect(pres.get('npm')!.select('.line')!.text).toBe('npm install my-package');
  });
  it('an unknown language is plain text labelled with the name the fence wrote; a known one in capitals is highlighted', () => {
    const pres = byLanguage();
    const unknown = pres.get('hcl-nonsense')!;
    expect(unknown.selectAll('.line span')).toHaveLength(1);
    expect(unknown.text).toContain('this language does not exist');
    expect(pres.has('json')).toBe(true);
    expect(pres.has('plaintext')).toBe(false);
  });
  it('knows exactly the languages of the Shiki Astro highlights with', async () => {
    const names = await shikiLanguageNames();
    for (const name of ['ts', 'typescript', 'bash', 'sh', 'zsh', 'shellscript', 'console', 'json', 'python', 'mermaid']) expect(names.has(name), name).toBe(true);
    expect(names.has('npm')).toBe(false);
  });
});

describe('Mermaid diagrams (builder/markdown/mermaid.ts, components/layout/MermaidDiagrams.astro)', () => {
  it('a diagram is a figure with its source kept as text, and the page loads the diagram script from the site itself', () => {
    const page = site.page('/diagrams');
    const figures = page.selectAll('.prose figure.mermaid-diagram[data-mermaid]');
    expect(figures).toHaveLength(2);
    expect(figures.map((figure) => figure.select('details.mermaid-source > summary')?.text)).toEqual(Array(2).fill('Diagram source (Mermaid)'));
    expect(figures[0]!.select('details pre code')?.text).toBe('graph TD\n  A[Write docs] --> B{Diagram?}\n  B -->|yes| C[Mermaid]\n  B -->|no| D[Text]\n');
    expect(page.selectAll('script[src*="MermaidDiagrams"]')).toHaveLength(1);
    // Markup in a diagram's source is text until mermaid (strict) reads it.
    const untrusted = prose('/untrusted-diagram').select('figure[data-mermaid]')!;
    expect(untrusted.select('img')).toBeUndefined();
    expect(untrusted.select('code')?.text).toContain('<img src=x onerror=window.__xss=1>');
    const scripts = scriptFiles(page);
    const mermaid = scripts.filter((script) => /mermaid/i.test(script.code));
    expect(mermaid.map((script) => script.src)).toEqual([expect.stringMatching(/^\/_astro\/MermaidDiagrams\.astro_astro_type_script_index_0_lang\.[\w-]+\.js$/)]);
    expect(page.select('script[type=module][src^="/_astro/MermaidDiagrams"]')).toBeDefined();
    // Bundled into the site's own files: no URL of another origin in the loader.
    expect(mermaid[0]!.code).not.toMatch(/https?:\/\/(?:cdn|unpkg|esm\.sh)/);
  });
  it('no other page loads mermaid, or any script that imports it', () => {
    for (const route of ROUTES.filter((r) => !DIAGRAM_PAGES.includes(r))) {
      const page = site.page(route);
      expect(page.select('figure[data-mermaid]'), route).toBeUndefined();
      for (const script of scriptFiles(page)) {
        const imports = [...script.code.matchAll(/from\s*"(\.\/[^"]+)"|import\("(\.\/[^"]+)"\)/g)].map((m) => m[1] ?? m[2]);
        const files = [script.code, ...imports.map((path) => site.file(join('_astro', path!)))];
        expect(files.some((code) => /mermaid/i.test(code)), `${route} ${script.src}`).toBe(false);
      }
    }
  });
});

describe('math (builder/markdown/math.ts, components/layout/MathStyles.astro)', () => {
  it('inline and block math are KaTeX markup at build time, the TeX source kept for assistive technology', () => {
    const math = prose('/math');
    expect(math.selectAll('p .katex')).toHaveLength(3);
    expect(math.selectAll('.katex-display')).toHaveLength(2); // $$…$$ and ```math
    expect(math.selectAll('annotation[encoding="application/x-tex"]').map((a) => a.text)).toEqual([
      'E = mc^2',
      '\\mathbb{R}^{n \\times m}',
      '\\int_0^1 x^2 \\, dx = \\frac{1}{3}',
      'a^2 + b^2 = c^2',
      '\\href{javascript:alert(1)}{x}',
    ]);
    expect(math.selectAll('.katex-html').every((html) => html.attr('aria-hidden') === 'true' && html.has('data-pagefind-ignore'))).toBe(true);
    expect(math.select('math')?.has(':xmlns')).toBe(false);
  });
  it('never links or runs what math asks for (KaTeX without trust)', () => {
    const math = prose('/math');
    expect(math.selectAll('a')).toEqual([]);
    expect(site.page('/math').html).not.toMatch(/href="javascript:/i);
    expect(math.select('.katex .mord.text')?.text).toBe('\\href');
  });
  it('KaTeX\'s stylesheet and fonts come from the site itself, on the math page only', () => {
    const [katex, ...others] = stylesheets(site.page('/math')).filter((href) => /katex/.test(href));
    expect(others).toEqual([]);
    expect(katex).toMatch(/^\/_astro\/katex\.min\.[\w-]+\.css$/);
    const css = site.file(katex!);
    const fonts = [...css.matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]!.replace(/^["']|["']$/g, ''));
    expect(fonts.length).toBeGreaterThan(20);
    for (const font of fonts) {
      expect(font, font).not.toMatch(/^(?:https?:)?\/\//);
      expect(site.exists(join('_astro', font.replace(/^\.\//, '').replace(/^\/_astro\//, ''))), font).toBe(true);
    }
    for (const route of ROUTES.filter((r) => r !== '/math')) expect(stylesheets(site.page(route)).filter((href) => /katex/.test(href)), route).toEqual([]);
  });
  it('prices are not math (Pandoc\'s rule), and an escaped dollar shows as one', () => {
    expect(prose('/').select('.katex, .katex-error')).toBeUndefined();
    expect(prose('/').select('p')?.text).toBe('Neither a diagram nor math here: the price is $5 and $10 is written escaped.');
    expect([looksLikePrices('5 and ', '10'), looksLikePrices('5 and \\', '10'), looksLikePrices('x', ' and'), looksLikePrices(' x', '')]).toEqual([true, true, false, true]);
  });
});

describe('safety and policy', () => {
  it('every page keeps its Content-Security-Policy: scripts from the site itself, no inline script but the layout\'s', () => {
    for (const route of ROUTES) {
      const page = site.page(route);
      const policy = page.select('meta[http-equiv=Content-Security-Policy]')?.attr('content') ?? '';
      expect(policy, route).toMatch(/script-src 'self'/);
      for (const script of page.selectAll('script[src]')) expect(script.attr('src'), route).toMatch(/^\/_astro\//);
    }
  });
});
