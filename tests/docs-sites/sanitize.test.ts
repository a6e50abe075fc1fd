/**
 * The MDX sanitizer's rules one by one (sites/content/sanitize.ts), without a build: each page is compiled by the
 * same MDX compiler Astro uses, with the sanitizer plugin, and evaluated with a JSX runtime that returns plain
 * objects, so a test reads the elements and props a page would render. `auditTree` (what `docs check` and the
 * build report) is checked on the same sources.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { evaluate, mdxToMdast } from 'satteri';
import { afterAll, describe, expect, it } from 'vitest';
import { auditTree, checkUrl, createSanitizePlugin, MDX_COMPONENT_NAMES, type SanitizeOptions } from '../../sites/content/sanitize.ts';
import { MDX_FEATURES } from '../../sites/content/mdx.ts';
import { encodeToken } from '../../sites/content/variables.ts';

const sourceDir = mkdtempSync(join(tmpdir(), 'sanitize-'));
mkdirSync(join(sourceDir, 'guide', 'images'), { recursive: true });
writeFileSync(join(sourceDir, 'guide', 'images', 'shot.png'), '');
writeFileSync(join(sourceDir, 'logo.png'), '');
afterAll(() => rmSync(sourceDir, { recursive: true, force: true }));

const defaults: SanitizeOptions = { base: '/acme/widgets', zoomImages: false, sourceDir };

interface Element {
  type: string;
  props: Record<string, unknown>;
}

/** Compiles and runs a page; returns every element it renders, in document order (the root fragment first). */
function render(source: string, file = 'guide/page.mdx', options: Partial<SanitizeOptions> = {}): Element[] {
  const elements: Element[] = [];
  const jsx = (type: unknown, props: unknown): Element => ({ type: String(type), props: props as Record<string, unknown> });
  const module = evaluate(source, {
    Fragment: 'Fragment',
    jsx,
    jsxs: jsx,
    features: MDX_FEATURES,
    fileURL: pathToFileURL(join(sourceDir, file)),
    mdastPlugins: [createSanitizePlugin({ ...defaults, ...options })],
  }) as Record<string, (props: unknown) => Element>;
  const components = Object.fromEntries(MDX_COMPONENT_NAMES.map((name) => [name, name]));
  const collect = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (node === null || typeof node !== 'object') return;
    const element = node as Element;
    elements.push(element);
    collect(element.props.children);
  };
  collect(module.default!({ components }));
  return elements;
}

const find = (elements: Element[], type: string) => elements.filter((element) => element.type === type);
const one = (source: string, type: string, file?: string, options?: Partial<SanitizeOptions>) => {
  const found = find(render(source, file, options), type);
  expect(found, `one <${type}> in ${source}`).toHaveLength(1);
  return found[0]!.props;
};
/** The text of the whole page, in order. */
const text = (elements: Element[]) => {
  const of = (node: unknown): string =>
    typeof node === 'string' ? node : Array.isArray(node) ? node.map(of).join('') : node && typeof node === 'object' ? of((node as Element).props.children) : '';
  return of(elements[0]);
};
const types = (elements: Element[]) => elements.slice(1).map((element) => element.type);

/** The findings `docs check` reports for a page: `line:column message`. */
function audit(source: string, file = 'guide/page.mdx', options: Partial<SanitizeOptions> = {}): string[] {
  return auditTree(mdxToMdast(source, { features: MDX_FEATURES }), { ...defaults, ...options }, file)
    .filter((finding) => finding.message !== '')
    .map((finding) => `${finding.line}:${finding.column} ${finding.message}`);
}

describe('URLs', () => {
  const page = (pageDir: string, options: Partial<SanitizeOptions> = {}) => ({ options: { ...defaults, ...options }, pageDir });
  it('allows the link schemes of the spec and refuses the rest, whatever their case or hidden whitespace', () => {
    for (const url of ['https://example.com', 'http://example.com', 'mailto:a@example.com', 'irc://irc.example.com', 'ircs://x', 'xmpp:a@b']) {
      expect(checkUrl(url, 'link', page(''))).toEqual({ ok: true, url });
    }
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,x', 'vbscript:x']) {
      const verdict = checkUrl(url, 'link', page(''));
      expect(verdict.ok, url).toBe(false);
    }
    expect(checkUrl('javascript:alert(1)', 'link', page(''))).toEqual({ ok: false, message: 'a `javascript:` URL is not allowed' });
  });
  it('media takes http(s) only', () => {
    expect(checkUrl('https://cdn.example.com/a.png', 'media', page(''))).toEqual({ ok: true, url: 'https://cdn.example.com/a.png' });
    expect(checkUrl('mailto:a@example.com', 'media', page(''))).toEqual({ ok: false, message: 'a `mailto:` URL is not allowed' });
  });
  it('keeps empty, protocol-relative, fragment and query URLs as written (trimmed)', () => {
    expect(checkUrl('  ', 'link', page('guide'))).toEqual({ ok: true, url: '' });
    expect(checkUrl(' //cdn.example.com/x ', 'link', page('guide'))).toEqual({ ok: true, url: '//cdn.example.com/x' });
    expect(checkUrl('#install', 'link', page('guide'))).toEqual({ ok: true, url: '#install' });
    expect(checkUrl('?tab=2', 'link', page('guide'))).toEqual({ ok: true, url: '?tab=2' });
  });
  it('puts the base path before root-relative paths', () => {
    expect(checkUrl('/start', 'link', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/start' });
    expect(checkUrl('/start', 'link', page('guide', { base: '' }))).toEqual({ ok: true, url: '/start' });
  });
  it('resolves page links against the page folder, dropping `.mdx` and `index`, keeping the fragment and query', () => {
    expect(checkUrl('setup.mdx#step-2', 'link', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/guide/setup#step-2' });
    expect(checkUrl('../intro?x=1', 'link', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/intro?x=1' });
    expect(checkUrl('index.mdx', 'link', page(''))).toEqual({ ok: true, url: '/acme/widgets/' });
    expect(checkUrl('deep/index.mdx', 'link', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/guide/deep' });
    expect(checkUrl('.', 'link', page(''))).toEqual({ ok: true, url: '/acme/widgets/' });
    expect(checkUrl('reindex', 'link', page(''))).toEqual({ ok: true, url: '/acme/widgets/reindex' });
    // A folder's link with its slash: the folder's page.
    expect(checkUrl('../', 'link', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/' });
    expect(checkUrl('./', 'link', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/guide' });
    expect(checkUrl('deep/#top', 'link', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/guide/deep#top' });
  });
  it('refuses relative paths that leave the docs folder', () => {
    expect(checkUrl('../secret', 'link', page(''))).toEqual({ ok: false, message: '`../secret` points outside the docs folder' });
    expect(checkUrl('../../x.png', 'media', page('guide'))).toEqual({ ok: false, message: '`../../x.png` points outside the docs folder' });
    expect(checkUrl('..', 'link', page(''))).toMatchObject({ ok: false });
  });
  it('turns relative media into base-absolute paths and says when the file is missing', () => {
    expect(checkUrl('images/shot.png', 'media', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/guide/images/shot.png' });
    expect(checkUrl('../logo.png', 'media', page('guide'))).toEqual({ ok: true, url: '/acme/widgets/logo.png' });
    expect(checkUrl('images/gone.png', 'media', page('guide'))).toEqual({
      ok: true,
      url: '/acme/widgets/guide/images/gone.png',
      message: '`images/gone.png` does not exist',
    });
  });
});

describe('code never runs', () => {
  it('removes import/export and expressions, each reported with its first line; comments go silently', () => {
    const longLine = `export const long = "${'x'.repeat(80)}"`;
    const source = [
      'import Evil from "./evil.js"',
      '',
      longLine,
      '',
      'Answer: {6 * 7}.',
      '',
      '{/* a note to the author */}',
      '',
      '{globalThis.steal(\n  document.cookie)}',
    ].join('\n');
    expect(text(render(source))).toBe('Answer: .');
    expect(audit(source)).toEqual([
      '1:1 `import`/`export` statements are not run; removed: import Evil from "./evil.js"',
      `3:1 \`import\`/\`export\` statements are not run; removed: ${longLine.slice(0, 57)}…`,
      '5:9 JavaScript expression `{6 * 7}` is not run; removed',
      '9:1 JavaScript expression `{globalThis.steal(}` is not run; removed',
    ]);
  });
  it('marks removed code for the Markdown output, silent removals included', () => {
    const source = 'Hi {1 + 1} there\n\n{/* note */}\n';
    const removed = auditTree(mdxToMdast(source, { features: MDX_FEATURES }), defaults, 'page.mdx').map((finding) => finding.removed);
    expect(removed).toEqual([
      { start: 3, end: 10 },
      { start: 18, end: 30 },
    ]);
  });
  it('removes active elements with their content and unwraps unknown ones', () => {
    const source = [
      '<script>window.hacked = 1</script>',
      '',
      '<iframe src="https://evil.example"></iframe>',
      '',
      '<svg><text>drawn</text></svg>',
      '',
      '<input value="x" />',
      '',
      '<video>Video text</video>',
      '',
      '<Evil>Unknown content</Evil>',
      '',
      '<Evil.Part>Dotted content</Evil.Part>',
      '',
      '<>Fragment content</>',
    ].join('\n');
    const elements = render(source);
    expect(types(elements)).toEqual([]);
    expect(text(elements)).toBe('Video text\nUnknown content\nDotted content\nFragment content');
    expect(audit(source)).toEqual([
      '1:1 <script> is not allowed; removed with its content',
      '3:1 <iframe> is not allowed; removed with its content',
      '5:1 <svg> is not allowed; removed with its content',
      '7:1 <input> is not allowed; removed with its content',
      '9:1 <video> is not allowed; its content is kept',
      '11:1 unknown component <Evil>: its content is shown without it',
      '13:1 unknown component <Evil.Part>: its content is shown without it',
    ]);
  });
  it('keeps our components and the allowed HTML tags untouched', () => {
    const source = '<Note title="Heads up">Careful</Note>\n\n<figure><mark>m</mark><figcaption>c</figcaption></figure>\n\n<details><summary>S</summary>D</details>';
    const elements = render(source);
    expect(types(elements)).toEqual(['Note', 'figure', 'mark', 'figcaption', 'details', 'summary']);
    expect(find(elements, 'Note')[0]!.props).toEqual({ title: 'Heads up', children: 'Careful' });
    expect(audit(source)).toEqual([]);
  });
});

describe('attributes', () => {
  it('removes event handlers, style, srcdoc and formaction from HTML tags', () => {
    const source = '<p onClick="a()" style="color:red" class="x">P</p>\n\n<img srcdoc="<b>" formAction="/x" alt="a" />';
    expect(one(source, 'p')).toEqual({ class: 'x', children: 'P' });
    expect(one(source, 'img')).toEqual({ alt: 'a' });
    expect(audit(source)).toEqual([
      '1:1 attribute `onClick` removed from <p>',
      '1:1 attribute `style` removed from <p>',
      '3:1 attribute `srcdoc` removed from <img>',
      '3:1 attribute `formAction` removed from <img>',
    ]);
  });
  it('components keep the props they document and nothing else: no Astro directive, handler or style', () => {
    const source = [
      '<Note title="T" set:html="<img src=x onerror=alert(1)>" set:text="x" is:raw client:load="x" server:defer define:vars="x" class:list="x" onmouseover="b()" style="x">N</Note>',
      '',
      '<Card title="C" href="/next" icon="rocket" color="#16a34a" cols="2" class="x">C</Card>',
      '',
      '<AccordionGroup title="S">s</AccordionGroup>',
    ].join('\n');
    const elements = render(source);
    expect(find(elements, 'Note')[0]!.props).toEqual({ title: 'T', children: 'N' });
    expect(find(elements, 'Card')[0]!.props).toEqual({ title: 'C', href: '/acme/widgets/next', icon: 'rocket', color: '#16a34a', children: 'C' });
    expect(find(elements, 'AccordionGroup')[0]!.props).toEqual({ children: 's' });
    const props = (name: string, line: number) => `${line}:1 \`${name}\` is not a prop of <${line === 1 ? 'Note' : 'Card'}> and was removed (its props: ${line === 1 ? 'title' : 'title, href, icon, iconType, color, horizontal, img, cta, arrow, type'})`;
    expect(audit(source)).toEqual([
      ...['set:html', 'set:text', 'is:raw', 'client:load', 'server:defer', 'define:vars', 'class:list', 'onmouseover', 'style'].map((name) => props(name, 1)),
      props('cols', 3),
      props('class', 3),
      '5:1 `title` is not a prop of <AccordionGroup> and was removed (it takes none)',
    ]);
  });
  it('on HTML tags keeps global, data-, aria- and the tag\'s own attributes only', () => {
    const source =
      '<p id="i" className="c" data-x="1" aria-label="l" accept-charset="utf-8" lang="en" align="left" href="/nope" target="_top">P</p>\n\n' +
      '<img src="https://e.com/a.png" alt="A" width="10" loading="lazy" decoding="async" action="/x" />';
    expect(one(source, 'p')).toEqual({ id: 'i', className: 'c', 'data-x': '1', 'aria-label': 'l', 'accept-charset': 'utf-8', lang: 'en', align: 'left', children: 'P' });
    expect(one(source, 'img')).toEqual({ src: 'https://e.com/a.png', alt: 'A', width: '10', loading: 'lazy', decoding: 'async' });
    expect(audit(source)).toEqual([
      '1:1 attribute `href` is not allowed on <p> and was removed',
      '1:1 attribute `target` is not allowed on <p> and was removed',
      '3:1 attribute `action` is not allowed on <img> and was removed',
    ]);
  });
  it('keeps literal expression values and removes spreads and other expressions', () => {
    const source = '<Accordion title={"x"} description={\'y\'} defaultOpen={true}>A</Accordion>\n\n<CardGroup cols={-1.5}>G</CardGroup>\n\n<Card title={null} href={stolen} {...props}>C</Card>';
    expect(one(source, 'Accordion')).toEqual({ title: 'x', description: 'y', defaultOpen: true, children: 'A' });
    expect(one(source, 'CardGroup')).toEqual({ cols: -1.5, children: 'G' });
    expect(one(source, 'Card')).toEqual({ title: null, children: 'C' });
    expect(audit(source)).toEqual([
      '5:1 expression attribute `href={stolen}` removed from <Card>',
      '5:1 spread attribute `{...props}` removed from <Card>',
    ]);
    expect(audit('<Card title={"a" + x}>C</Card>')).toEqual(['1:1 expression attribute `title={"a" + x}` removed from <Card>']);
  });
  it('judges a literal value as the same attribute written with quotes: handlers, directives, script URLs and style go', () => {
    const source = [
      '<img src={"javascript:alert(1)"} onerror={"alert(1)"} onLoad={\'alert(1)\'} alt={"a"} width={10} />',
      '<a href={ "/guide" } title={"t"} style={"color:red"}>x</a>',
      '<div set:html={\'<script src="https://evil.example/x.js"></script>\'} is:raw={true} data-docs-frame={"https://www.youtube-nocookie.com"}>d</div>',
      '<Card title={"c"} href={"javascript:alert(1)"} img={1}>C</Card>',
    ].join('\n\n');
    expect(one(source, 'img')).toEqual({ alt: 'a', width: 10 });
    expect(one(source, 'a')).toEqual({ href: '/acme/widgets/guide', title: 't', children: 'x' });
    expect(one(source, 'div')).toEqual({ children: 'd' });
    expect(one(source, 'Card')).toEqual({ title: 'c', children: 'C' });
    expect(audit(source)).toEqual([
      '1:1 attribute `src` removed from <img>: a `javascript:` URL is not allowed',
      '1:1 attribute `onerror` removed from <img>',
      '1:1 attribute `onLoad` removed from <img>',
      '3:1 attribute `style` removed from <a>',
      '5:1 attribute `set:html` is not allowed on <div> and was removed',
      '5:1 attribute `is:raw` is not allowed on <div> and was removed',
      '5:1 attribute `data-docs-frame` is not allowed on <div> and was removed',
      '7:1 attribute `href` removed from <Card>: a `javascript:` URL is not allowed',
      '7:1 attribute `img` removed from <Card>: a URL must be a string',
    ]);
  });
  it('reads the data literals the vendors document (Tabs values, tags, pre/post, actions) as strings, and nothing else', () => {
    const source = [
      "<Tabs values={[{ label: 'JavaScript', value: 'js' }, { label: \"Dart\", value: 'dart', },]}>T</Tabs>",
      '',
      '<Update label="v1" tags={["Feature", "Fix"]}>U</Update>',
      '',
      '<ResponseField name="id" pre={["beta", 2]} post={[]}>R</ResponseField>',
      '',
      '<Prompt actions={["copy", "cursor"]}>P</Prompt>',
    ].join('\n');
    expect(one(source, 'Tabs')).toEqual({ values: '[{"label":"JavaScript","value":"js"},{"label":"Dart","value":"dart"}]', children: 'T' });
    expect(one(source, 'Update')).toEqual({ label: 'v1', tags: 'Feature, Fix', children: 'U' });
    expect(one(source, 'ResponseField')).toEqual({ name: 'id', pre: 'beta, 2', post: '', children: 'R' });
    expect(one(source, 'Prompt')).toEqual({ actions: 'copy, cursor', children: 'P' });
    expect(audit(source)).toEqual([]);
    // Code, the wrong shape, or a data literal on another prop is removed like any expression.
    const refused = [
      '<Tabs values={[{ label: fetch("/x"), value: "js" }]}>T</Tabs>',
      '',
      '<Update tags={[{ a: 1 }]}>U</Update>',
      '',
      '<Tabs values={[{ label: "JS" }]}>T</Tabs>',
      '',
      '<Card title={["a"]}>C</Card>',
      '',
      `<Update tags={[${'"x",'.repeat(3000)}]}>U</Update>`,
      '',
      '<Tabs values={[{ value: "js" }]}>T</Tabs>',
    ].join('\n');
    const elements = render(refused);
    expect(find(elements, 'Tabs').map((element) => element.props)).toEqual([{ children: 'T' }, { children: 'T' }, { children: 'T' }]);
    expect(find(elements, 'Update').map((element) => element.props)).toEqual([{ children: 'U' }, { children: 'U' }]);
    expect(one(refused, 'Card')).toEqual({ children: 'C' });
    expect(audit(refused).map((message) => message.slice(0, 40))).toEqual([
      '1:1 expression attribute `values={[{ lab',
      '3:1 expression attribute `tags={[{ a: 1 ',
      '5:1 expression attribute `values={[{ lab',
      '7:1 expression attribute `title={["a"]}`',
      '9:1 expression attribute `tags={["x","x"',
      '11:1 expression attribute `values={[{ va',
    ]);
    // A data literal of 10,000 characters is read; a longer one is not (the one above).
    const longest = `["${'x'.repeat(10_000 - 4)}"]`;
    expect(one(`<Update tags={${longest}}>U</Update>`, 'Update').tags).toBe('x'.repeat(10_000 - 4));
  });
  it('checks and rewrites URL attributes: href and cite as links, the rest as media', () => {
    const source = [
      '<a href="setup.mdx" title="t">ok</a>',
      '',
      '<a href="javascript:alert(1)">bad</a>',
      '',
      '<blockquote cite="mailto:a@example.com">q</blockquote>',
      '',
      '<img src="mailto:a@example.com" alt="m" />',
      '',
      '<img src="images/missing.png" alt="gone" />',
    ].join('\n');
    const elements = render(source);
    expect(find(elements, 'a').map((element) => element.props)).toEqual([{ href: '/acme/widgets/guide/setup', title: 't', children: 'ok' }, { children: 'bad' }]);
    expect(find(elements, 'blockquote')[0]!.props).toMatchObject({ cite: 'mailto:a@example.com' });
    expect(find(elements, 'img').map((element) => element.props)).toEqual([{ alt: 'm' }, { src: '/acme/widgets/guide/images/missing.png', alt: 'gone' }]);
    expect(audit(source)).toEqual([
      '3:1 attribute `href` removed from <a>: a `javascript:` URL is not allowed',
      '7:1 attribute `src` removed from <img>: a `mailto:` URL is not allowed',
      '9:1 <img src>: `images/missing.png` does not exist',
    ]);
  });
  it('checks every candidate of a srcset', () => {
    expect(one('<picture><source srcset="images/shot.png 1x,  https://e.com/b.png 2x" /></picture>', 'source')).toEqual({
      srcset: '/acme/widgets/guide/images/shot.png 1x, https://e.com/b.png 2x',
    });
    const bad = '<picture><source srcset="a.png 1x, javascript:x 2x" /></picture>';
    expect(one(bad, 'source')).toEqual({});
    expect(audit(bad)).toEqual(['1:10 attribute `srcset` removed from <source>: a URL is not allowed']);
    expect(audit('<img srcset="a.png 1x" alt="a" />')).toEqual(['1:1 attribute `srcset` is not allowed on <img> and was removed']);
  });
  it('treats a component icon with a path as a media URL and an icon name as a name', () => {
    expect(one('<Card icon="images/shot.png">C</Card>', 'Card').icon).toBe('/acme/widgets/guide/images/shot.png');
    expect(one('<Card icon="/logo.png">C</Card>', 'Card').icon).toBe('/acme/widgets/logo.png');
    expect(one('<Card icon="evil.js:x">C</Card>', 'Card').icon).toBeUndefined();
  });
  it('says what a component cannot show: an icon name that draws nothing (a prop of its own, or an <Icon> name), a live service', () => {
    const source = [
      '<Card title="c" icon="no-such-icon-xyz">C</Card>',
      '<Icon name="no-such-icon-xyz" />',
      '<Icon icon="rocket" name="no-such-icon-xyz" />',
      '<Step title="s" icon={"no-such-icon-xyz"}>S</Step>',
      '<Zapp id="abc" />',
      '<Card title="c" icon="rocket">C</Card>',
      '<p title="no-such-icon-xyz">text</p>',
    ].join('\n\n');
    const found = audit(source);
    expect(found.map((line) => line.split(' ')[0])).toEqual(['1:1', '3:1', '7:1', '9:1']);
    expect(found.slice(0, 3).every((line) => line.includes('no-such-icon-xyz'))).toBe(true);
    expect(found[3]).toMatch(/^9:1 <Zapp> needs a live service: /);
  });
  it('puts unresolved `{{ variables }}` back as written in attribute values and text', () => {
    const token = encodeToken('{{ version }}');
    const source = `<Note title="v${token}">Install ${token}</Note>\n\n\`npm i x@${token}\`\n\n\`\`\`sh\nnpm i x@${token}\n\`\`\``;
    const elements = render(source);
    expect(find(elements, 'Note')[0]!.props.title).toBe('v{{ version }}');
    expect(text(elements)).toContain('Install {{ version }}');
    expect(JSON.stringify(elements)).not.toContain('zzdocsvar');
    expect(audit(source)).toEqual([]);
  });
  it('adds click-to-zoom to images when the site asks for it, without overriding the author', () => {
    expect(one('<img src="https://e.com/a.png" alt="a" />', 'img', undefined, { zoomImages: true })).toEqual({ src: 'https://e.com/a.png', alt: 'a', 'data-zoom': 'true' });
    expect(one('<img src="https://e.com/a.png" alt="a" data-zoom="false" />', 'img', undefined, { zoomImages: true })).toEqual({
      src: 'https://e.com/a.png',
      alt: 'a',
      'data-zoom': 'false',
    });
    expect(one('![a](https://e.com/a.png)', 'img', undefined, { zoomImages: true })).toMatchObject({ 'data-zoom': 'true' });
    expect(one('![a](https://e.com/a.png)', 'img')).not.toHaveProperty('data-zoom');
  });
});

describe('media written as HTML (Mintlify)', () => {
  it('a YouTube or Vimeo iframe is read as the YouTube or Vimeo facade; other iframes stay refused', () => {
    const source = [
      '<iframe className="w-full aspect-video" src="https://www.youtube.com/embed/4KzFe50RQkQ" title="YouTube video player" frameBorder="0" allowFullScreen></iframe>',
      '',
      '<iframe src="https://player.vimeo.com/video/253989945?h=1" width="640"></iframe>',
      '',
      '<iframe src="https://www.youtube.com.evil.example/embed/4KzFe50RQkQ"></iframe>',
      '',
      '<iframe src="https://www.loom.com/embed/abc"></iframe>',
    ].join('\n');
    const elements = render(source);
    expect(types(elements)).toEqual(['YouTube', 'Vimeo']);
    expect(find(elements, 'YouTube')[0]!.props).toEqual({ id: 'https://www.youtube.com/embed/4KzFe50RQkQ', title: 'YouTube video player' });
    expect(find(elements, 'Vimeo')[0]!.props).toEqual({ id: 'https://player.vimeo.com/video/253989945?h=1' });
    expect(audit(source)).toEqual(['5:1 <iframe> is not allowed; removed with its content', '7:1 <iframe> is not allowed; removed with its content']);
  });
  it('a <video> is read as the Video component (its own src or its first <source>), its URL checked like any', () => {
    const source = [
      '<video autoPlay muted loop playsInline className="w-full" src="/clip.mp4" poster="https://e.com/p.png"></video>',
      '',
      '<video controls>',
      '  <source src="https://cdn.example.com/demo.webm" type="video/webm" />',
      '  Your browser cannot play this video.',
      '</video>',
      '',
      '<video src="javascript:alert(1)" autoplay></video>',
    ].join('\n');
    const videos = find(render(source), 'Video').map((element) => element.props);
    expect(videos).toEqual([
      { autoPlay: true, muted: true, loop: true, playsInline: true, src: '/acme/widgets/clip.mp4', poster: 'https://e.com/p.png' },
      { controls: true, src: 'https://cdn.example.com/demo.webm', type: 'video/webm' },
      { autoPlay: true },
    ]);
    expect(audit(source)).toEqual(['8:1 attribute `src` removed from <Video>: a `javascript:` URL is not allowed']);
  });
});

describe('Markdown links and images', () => {
  it('unwraps links and drops images and definitions whose URL is refused', () => {
    const source = '[Bad](javascript:alert(1)) and [ok][ref] and ![x](data:image/png;base64,AAAA)\n\n[ref]: vbscript:x\n\n[good]: setup.mdx';
    const elements = render(source);
    expect(find(elements, 'a')).toEqual([]);
    expect(find(elements, 'img')).toEqual([]);
    expect(text(elements)).toContain('Bad and');
    expect(audit(source)).toEqual([
      '1:1 link removed: a `javascript:` URL is not allowed',
      '1:46 image removed: a `data:` URL is not allowed',
      '3:1 link definition removed: a `vbscript:` URL is not allowed',
    ]);
  });
  it('rewrites page links, references and images for the base path', () => {
    const source = '[Setup](setup.mdx#a) [Home](/) [Ref][r] ![Shot {{x}}](images/shot.png)\n\n[r]: ../intro.mdx';
    const elements = render(source.replace('{{x}}', encodeToken('{{x}}')));
    expect(find(elements, 'a').map((element) => element.props.href)).toEqual(['/acme/widgets/guide/setup#a', '/acme/widgets/', '/acme/widgets/intro']);
    expect(one(source.replace('{{x}}', encodeToken('{{x}}')), 'img')).toEqual({ src: '/acme/widgets/guide/images/shot.png', alt: 'Shot {{x}}' });
    expect(audit('![gone](gone.png)')).toEqual(['1:1 image `gone.png` does not exist']);
  });
  it('resolves against the page folder from the compiled file, and from the root for a file elsewhere', () => {
    expect(one('[a](b.mdx)', 'a', 'guide/deep folder/page.mdx').href).toBe('/acme/widgets/guide/deep%20folder/b');
    expect(one('[a](b.mdx)', 'a', 'index.mdx').href).toBe('/acme/widgets/b');
    expect(one('[a](b.mdx)', 'a', '../outside/page.mdx').href).toBe('/acme/widgets/b');
  });
  it('leaves a page with nothing to change as it is', () => {
    const source = '# Title\n\nSome *text* with [a link](https://example.com) and `code`.';
    expect(audit(source)).toEqual([]);
    expect(one(source, 'a')).toEqual({ href: 'https://example.com', children: 'a link' });
  });
});


describe('edges', () => {
  it('drops `.mdx` and `/index` only at the end of a page link', () => {
    expect(one('[a](notes.mdxt)', 'a').href).toBe('/acme/widgets/guide/notes.mdxt');
    expect(one('[a](indexes/intro)', 'a').href).toBe('/acme/widgets/guide/indexes/intro');
    expect(one('[a](a.mdx.bak)', 'a').href).toBe('/acme/widgets/guide/a.mdx.bak');
  });
  it('keeps a bare attribute (`<Accordion defaultOpen>`) as the compiler gives it', () => {
    expect(one('<Accordion title="A" defaultOpen>x</Accordion>', 'Accordion')).toEqual({ title: 'A', defaultOpen: true, children: 'x' });
  });
  it('treats only URL attributes and component icons as URLs: a dot or slash elsewhere is text', () => {
    expect(one('<p title="v1.2 and a/b">p</p>', 'p').title).toBe('v1.2 and a/b');
    expect(one('<Card title="Version 1.2/3">c</Card>', 'Card').title).toBe('Version 1.2/3');
  });
  it('keeps the spacing rules of srcset descriptors', () => {
    expect(one('<picture><source srcset="images/shot.png   2x" /></picture>', 'source').srcset).toBe('/acme/widgets/guide/images/shot.png 2x');
  });
  it('adds click-to-zoom to images only', () => {
    expect(one('<p>x</p>', 'p', undefined, { zoomImages: true })).toEqual({ children: 'x' });
  });
  it('judges inline elements as block ones', () => {
    const source = 'Some <span onClick="x()" style="color:red" class="c">inline</span> text <Evil>kept</Evil> and <script>bad()</script>.';
    expect(one(source, 'span')).toEqual({ class: 'c', children: 'inline' });
    expect(text(render(source))).toBe('Some inline text kept and .');
    expect(audit(source)).toEqual([
      '1:6 attribute `onClick` removed from <span>',
      '1:6 attribute `style` removed from <span>',
      '1:73 unknown component <Evil>: its content is shown without it',
      '1:95 <script> is not allowed; removed with its content',
    ]);
  });
  it('a lower-case tag with capitals inside is an HTML tag, not a component', () => {
    expect(audit('<fooBar>x</fooBar>')).toEqual(['1:1 <fooBar> is not allowed; its content is kept']);
  });
  it('keeps mailto and other link schemes in Markdown links', () => {
    expect(one('[mail](mailto:a@example.com)', 'a').href).toBe('mailto:a@example.com');
  });
  it('shows a first line of exactly 60 characters whole', () => {
    const line = `export const x = "${'y'.repeat(41)}"`;
    expect(line).toHaveLength(60);
    expect(audit(line)).toEqual([`1:1 \`import\`/\`export\` statements are not run; removed: ${line}`]);
  });
  it('marks only removed nodes for the Markdown output, not unwrapped ones', () => {
    const findings = auditTree(mdxToMdast('<Evil>kept</Evil>\n\n<video>also</video>', { features: MDX_FEATURES }), defaults, 'page.mdx');
    expect(findings.map((finding) => finding.removed)).toEqual([undefined, undefined]);
  });
  it('cleans the content of a link it rewrites', () => {
    const elements = render('[<span onClick="x()">label</span>](setup.mdx)');
    expect(find(elements, 'a')[0]!.props.href).toBe('/acme/widgets/guide/setup');
    expect(find(elements, 'span')[0]!.props).toEqual({ children: 'label' });
  });
});
