/**
 * Content checks of a documentation site (`docs check`): links of docs.json/docs.yaml and frontmatter that name
 * no page, broken links and anchors in page bodies; with page preparation (sites/content/mdx.ts), `{{ variables }}`
 * with no value, MDX that does not parse, page code that building removes. The broken fixtures pin every problem
 * line: file, line, column, path, message.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSite, extractHeadings, headingSlugs, redirectChainEnds, REDIRECT_LOOP, resolveHref, type SourcePage } from '../../sites/check/index.ts';
import { substituteVariables } from '../../sites/content/variables.ts';
import { loadConfig, MAX_CONFIG_BYTES, validateFrontmatter } from '../../sites/config/load.ts';
import { MAX_REDIRECTS } from '../../sites/config/schema/redirects.ts';
import { formatProblem, sortProblems, type Problem } from '../../sites/config/problems.ts';
import { prepareSite } from '../../sites/builder/index.ts';
import { routeOfFile } from '../../sites/config/routes.ts';

const fixture = (name: string) => new URL(`../fixtures/${name}/`, import.meta.url).pathname;

/** What `docs check` does: load the config, read every page's frontmatter, check the site. */
async function check(dir: string, options: { withLocate?: boolean } = { withLocate: true }): Promise<{ problems: Problem[]; pages: SourcePage[] }> {
  const loaded = await loadConfig(dir);
  const problems = [...loaded.problems];
  const pages: SourcePage[] = [];
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.mdx'))
    .map((file) => file.replace(/\\/g, '/'))
    .sort();
  for (const file of files) {
    const page = validateFrontmatter(file, readFileSync(join(dir, file), 'utf8'));
    problems.push(...page.problems);
    pages.push({ file, route: routeOfFile(file), frontmatter: page.data, body: page.body, bodyLine: page.bodyLine });
  }
  problems.push(...checkSite(dir, { config: loaded.config, pages, ...(options.withLocate ? { locate: loaded.locate } : {}) }));
  return { problems: sortProblems(problems), pages };
}
const lines = (problems: Problem[]) => problems.map(formatProblem);

const dirs: string[] = [];
function site(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-check-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('a broken site with docs.json (tests/fixtures/docs-broken)', () => {
  const expected = [
    'docs.json:3:3  warning  bannr  Unknown key `bannr` (ignored); did you mean `banner`?',
    'docs.json:4:14  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)',
    'docs.json:4:33  warning  theme.preset  Unknown preset `ocaen` (the default preset is used); presets: default, zinc, slate, ocean, forest, sunset, violet, rose; did you mean `ocean`?',
    'docs.json:5:35  warning  logo.dark  No file `/logo-dark.svg` in the site folder',
    'docs.json:6:16  warning  content.headerDepth  Must be at most 6 (the default `3` is used)',
    'docs.json:10:36  warning  tabs[1].href  No page at `/api/overview`',
    'docs.json:15:7  warning  sidebar[0].tab  No tab has the id `guide`; did you mean `guides`?',
    'docs.json:18:9  warning  sidebar[0].pages[1]  Missing required `href` (the item is dropped)',
    'docs.json:19:28  warning  sidebar[0].pages[2].href  No page at `/guides/gone`',
    'docs.json:20:31  warning  sidebar[0].pages[3].href  No heading `#instal` on `guides/start.mdx`; did you mean `install`?',
    'docs.json:25:47  warning  header.links[0].href  No page at `/support`',
    'docs.json:26:18  warning  redirects["/old"]  No page at `/gone`',
    'docs.json:26:35  warning  redirects["/older"]  `/old` is itself redirected: redirect to `/gone` directly',
    'docs.json:26:53  warning  redirects["/guides/start"]  `guides/start.mdx` exists at this path, so this redirect is never used (a page redirects with its frontmatter `redirect`)',
    'docs.json:26:84  warning  redirects["/a"]  Redirect loop: `/b` is redirected back (never reaches a page)',
    'docs.json:26:96  warning  redirects["/b"]  Redirect loop: `/a` is redirected back (never reaches a page)',
    'guides/start.mdx:3:1  warning  descripton  Unknown key `descripton` (ignored); did you mean `description`?',
    'guides/start.mdx:4:1  warning  previous  No page at `/nowhere`',
    'guides/start.mdx:8:1  warning  noindex  Must be `true` or `false`, not a string (ignored)',
    'guides/start.mdx:17:46  warning  Broken link `#instal`: no heading `#instal` on this page; did you mean `install`?',
    'guides/start.mdx:17:74  warning  Broken link `../index#nope`: no heading `#nope` on `index.mdx`',
    'guides/start.mdx:19:19  warning  Broken link `/api/overview`: no page at `/api/overview`',
  ];

  it('reports every problem with its file, line, column, path and message', async () => {
    expect(lines((await check(fixture('docs-broken'))).problems)).toEqual(expected);
  });

  it('finds the same positions when it has to read docs.json again (no locate given)', async () => {
    expect(lines((await check(fixture('docs-broken'), { withLocate: false })).problems)).toEqual(expected);
  });

  it('`docs check` (prepareSite: exactly what a build reports) reports all of the above and placeholders with no value, MDX that does not parse and removed code', async () => {
    const { problems } = await prepareSite({ source: fixture('docs-broken') });
    const fromPages = [
      'guides/broken.mdx:7:1  error  not valid MDX, the page shows a notice instead: Expected a closing tag for `<Card>` (line 7, column 1) (mdx-jsx:unexpected-character)',
      'guides/start.mdx:13:26  warning  variable `version.major` is not a string; the placeholder is shown as is',
      'guides/start.mdx:13:51  warning  variable `product.name` is not defined; the placeholder is shown as is',
      "guides/start.mdx:23:1  warning  `import`/`export` statements are not run; removed: import Chart from './chart.js'",
      'guides/start.mdx:25:1  warning  JavaScript expression `{1 + 1}` is not run; removed',
    ];
    expect(lines(problems).sort()).toEqual([...expected, ...fromPages].sort());
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.file)).toEqual(['guides/broken.mdx']);
  });
});

describe('a broken site with docs.yaml and a locale-keyed sidebar (tests/fixtures/docs-broken-yaml)', () => {
  it('reports every problem with its file, line, column, path and message', async () => {
    expect(lines((await check(fixture('docs-broken-yaml'))).problems)).toEqual([
      'docs.yaml:3:3  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)',
      'docs.yaml:7:5  warning  tabs[0].href  No page at `/guides`',
      'docs.yaml:8:5  warning  tabs[0].locale  No sidebar locale `de` (locales: en, fr)',
      'docs.yaml:15:11  warning  sidebar.en[0].pages[1].title  Must be a string, not a number (so `sidebar.en[0].pages[1]` is dropped)',
      'docs.yaml:26:11  warning  sidebar.fr[0].pages[1].href  No page at `/fr/absent`',
      'docs.yaml:28:3  warning  seo.noindex  Must be `true` or `false`, not a string (the default `false` is used)',
      'docs.yaml:29:3  warning  seo.nofollow  Unknown key `nofollow` (ignored)',
      'fr/index.mdx:3:1  error  Invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
      'index.mdx:3:1  warning  image  Must be a string, not null (ignored)',
    ]);
  });
});

describe('many redirects', () => {
  /** A docs.json with one redirect a line: `redirects` opens on line 3, so entry i is on line i + 4. */
  const docsJson = (redirects: Record<string, string>) => JSON.stringify({ name: 'Moved', redirects }, null, 2);
  const home = { 'index.mdx': '# Home\n' };

  it('a chain and a loop of 5,000 each: every redirect reported once, with where its chain ends, on its own line', async () => {
    const redirects: Record<string, string> = {};
    for (let i = 0; i < 5_000; i++) redirects[`/chain/${i}`] = i < 4_999 ? `/chain/${i + 1}` : '/';
    for (let i = 0; i < 5_000; i++) redirects[`/loop/${i}`] = `/loop/${(i + 1) % 5_000}`;
    const { problems } = await check(site({ 'docs.json': docsJson(redirects), ...home }));
    expect(problems).toHaveLength(9_999); // the chain's last redirect goes to a page
    expect(lines(problems.filter((p) => ['redirects["/chain/0"]', 'redirects["/chain/4998"]', 'redirects["/loop/0"]', 'redirects["/loop/4999"]'].includes(p.path)))).toEqual([
      'docs.json:4:5  warning  redirects["/chain/0"]  `/chain/1` is itself redirected: redirect to `/` directly',
      'docs.json:5002:5  warning  redirects["/chain/4998"]  `/chain/4999` is itself redirected: redirect to `/` directly',
      'docs.json:5004:5  warning  redirects["/loop/0"]  Redirect loop: `/loop/1` is redirected back (never reaches a page)',
      'docs.json:10003:5  warning  redirects["/loop/4999"]  Redirect loop: `/loop/0` is redirected back (never reaches a page)',
    ]);
    expect(problems.map((p) => p.line)).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 4).filter((line) => line !== 5_003));
  });

  it('each redirected path is followed once, however many chains go through it', () => {
    const active = new Map<string, string>();
    for (let i = 0; i < 10_000; i++) active.set(`/a/${i}`, i < 9_999 ? `/a/${i + 1}` : 'https://example.com/');
    for (let i = 0; i < 100; i++) active.set(`/into-loop/${i}`, i < 99 ? `/into-loop/${i + 1}` : '/into-loop/50');
    let followed = 0;
    const counted = { get: (route: string) => (followed++, active.get(route)), has: (route: string) => active.has(route) } as ReadonlyMap<string, string>;
    const end = redirectChainEnds(counted);
    for (let i = 9_999; i >= 0; i--) expect(end(`/a/${i}`)).toBe('https://example.com/');
    for (let i = 0; i < 100; i++) expect(end(`/into-loop/${i}`)).toBe(REDIRECT_LOOP);
    expect(followed).toBe(10_100);
  });

  it('more than 10,000 redirects: an error, and only the first 10,000 are used', async () => {
    const redirects: Record<string, string> = {};
    for (let i = 0; i <= MAX_REDIRECTS; i++) redirects[`/old/${i}`] = '/';
    const loaded = await loadConfig(site({ 'docs.json': docsJson(redirects), ...home }));
    expect(lines(loaded.problems)).toEqual(['docs.json:3:3  error  redirects  10,001 redirects: a site may have at most 10,000 (only the first 10,000 are used)']);
    expect(Object.keys(loaded.config.redirects)).toHaveLength(MAX_REDIRECTS);
    expect(loaded.config.redirects[`/old/${MAX_REDIRECTS - 1}`]).toBe('/');
  });

  it('a configuration file over 2 MB: an error, and it is not read', async () => {
    const text = docsJson({ '/old': '/' }).replace('"Moved"', JSON.stringify('x'.repeat(MAX_CONFIG_BYTES)));
    for (const file of ['docs.json', 'docs.yaml']) {
      const loaded = await loadConfig(site({ [file]: text, ...home }));
      expect(lines(loaded.problems)).toEqual([`${file}:1:1  error  The file is 2.0 MB: a configuration file may have at most 2.0 MB (not read: every setting has its default)`]);
      expect(loaded.config.redirects).toEqual({});
    }
  });
});

describe('a correct site', () => {
  it('has no problems: pages, anchors, relative links, redirects, static files, variables, comments', async () => {
    const dir = site({
      'docs.json': JSON.stringify({
        logo: { light: 'logo.svg' },
        variables: { product: 'Widget', links: { api: '/api' } },
        tabs: [{ id: 'guides', title: 'Guides', href: '/guides/' }],
        sidebar: [{ group: 'Guides', tab: 'guides', href: '/guides', pages: [{ title: 'Start', href: '/guides/start#first-steps' }, { title: 'Ext', href: 'https://example.com' }] }],
        anchors: [{ icon: 'book', title: 'API', href: '/api' }],
        redirects: { '/old': '/guides/start', '/older': 'https://example.com/' },
      }),
      'logo.svg': '<svg/>',
      'public/diagram.png': 'png',
      'index.mdx': '---\ntitle: Home\nnext: /guides/start\n---\n# {{ product }}\n\n[Start](guides/start#first-steps) [API]({{ links.api }}) [old](/old) [mail](mailto:a@b.c)\n',
      'guides/index.mdx': '# Guides\n\n[start](./start) [home](../) [diagram](/diagram.png)\n',
      'guides/start.mdx':
        '---\nprevious: { title: Home, href: / }\n---\n# Start\n\n## First steps\n\n## First steps\n\n[again](#first-steps-1) <a href="#start">top</a> <Card href="/api#endpoints" cols={2} />\n\n{/* a comment */}\n\n```js\nconst x = {{ not.a.variable }};\n```\n'.replace(
          '{{ not.a.variable }}',
          '1',
        ),
      'api.mdx': '# API\n\n## Endpoints\n\n<div id="custom">x</div>\n\n[custom](#custom)\n',
    });
    expect(lines((await check(dir)).problems)).toEqual([]);
  });
});

describe('pages with math', () => {
  it('read TeX braces as math, not code, and still check the links around them', async () => {
    const dir = site({
      'docs.json': '{}',
      'index.mdx': '# Home\n\nA matrix $A \\in \\mathbb{R}^{n \\times m}$ and\n\n$$\n\\sum_{i=1}^{n} x_i\n$$\n\n[gone](/nowhere) [here](#home)\n',
    });
    expect(lines((await check(dir)).problems)).toEqual(['index.mdx:9:1  warning  Broken link `/nowhere`: no page at `/nowhere`']);
  });
});

describe('heading slugs (the ids the renderer gives headings)', () => {
  it('are GitHub-style, repeated ones numbered', () => {
    expect(headingSlugs('# Hello World\n\n## Hello World\n\n## `code` & Things\n\n### Ünïcode Title!\n\n#### Emoji 🚀 here\n')).toEqual([
      'hello-world',
      'hello-world-1',
      'code--things',
      'ünïcode-title',
      'emoji--here',
    ]);
  });

  it('are read with the compiler\'s smart punctuation: `--` is a dash, as in the rendered id (`#setup--quick`)', () => {
    expect(headingSlugs('## Setup -- quick\n\n## Don\'t "panic"...\n')).toEqual(['setup--quick', 'dont-panic']);
  });

  it('use the substituted variables and ignore headings in code', () => {
    expect(extractHeadings('# {{ product }} guide\n\n```md\n# not a heading\n```\n', { product: 'Widget' }).map((h) => [h.depth, h.text, h.slug])).toEqual([[1, 'Widget guide', 'widget-guide']]);
  });

  it('of a heading with a placeholder left as written are the rendered ones, and links after it point where the author typed them', async () => {
    // `-missing--guide` is the id a build gives this heading.
    expect(headingSlugs('## {{ missing }} guide\n')).toEqual(['-missing--guide']);
    const dir = site({ 'docs.json': '{}', 'index.mdx': '# Home\n\n## {{ missing }} guide\n\n{{ missing }} [a](#-missing--guide) [b](#nope)\n' });
    expect(lines((await check(dir)).problems)).toEqual(['index.mdx:5:37  warning  Broken link `#nope`: no heading `#nope` on this page; did you mean `home`?']);
  });
});

describe('resolveHref', () => {
  it.each([
    ['/guides/start', 'index.mdx', '/guides/start', null],
    ['/guides/start/', 'index.mdx', '/guides/start', null],
    ['guides/start#install', 'index.mdx', '/guides/start', 'install'],
    ['./other', 'guides/start.mdx', '/guides/other', null],
    ['../api?x=1#get', 'guides/start.mdx', '/api', 'get'],
    ['../../../too-far', 'guides/start.mdx', '/too-far', null],
    ['#top', 'guides/start.mdx', '/guides/start', 'top'],
    ['other.mdx', 'guides/index.mdx', '/guides/other', null],
    ['/guides/index', 'index.mdx', '/guides', null],
    ['/caf%C3%A9', 'index.mdx', '/café', null],
  ])('%s from %s -> %s #%s', (href, from, route, hash) => {
    expect(resolveHref(href, from)).toMatchObject({ route, hash });
  });

  it.each(['https://example.com/x', 'http://example.com', '//cdn.example.com/x', 'mailto:a@b.c', ''])('%s is not internal', (href) => {
    expect(resolveHref(href, 'index.mdx')).toBeNull();
  });
});

describe('substituteVariables', () => {
  it('replaces string leaves by dotted path, leaves the others as written, and maps offsets back', () => {
    const text = 'A {{ product }} and {{version.major}} and {{ count }} and {{ missing }}.';
    const result = substituteVariables(text, { product: 'Widget', version: { major: '2' }, count: 3 }, 'literal');
    expect(result.text).toBe('A Widget and 2 and {{ count }} and {{ missing }}.');
    expect(result.unresolved.map((p) => [p.path, p.offset])).toEqual([
      ['count', text.indexOf('{{ count }}')],
      ['missing', text.indexOf('{{ missing }}')],
    ]);
    expect(result.toSource(result.text.indexOf('and {{ count'))).toBe(text.indexOf('and {{ count'));
    expect(result.toSource(result.text.indexOf('Widget') + 3)).toBe(text.indexOf('{{ product }}'));
    // For the compiler, placeholders left become longer tokens: offsets after them still map back.
    const tokens = substituteVariables(text, { product: 'Widget' }, 'token');
    expect(tokens.text).toMatch(/^A Widget and zzdocsvar[0-9a-f]+zz and/);
    expect(tokens.toSource(tokens.text.lastIndexOf('.'))).toBe(text.lastIndexOf('.'));
    expect(tokens.toSource(tokens.text.indexOf('zzdocsvar') + 5)).toBe(text.indexOf('{{version.major}}'));
  });

  it('does not read inherited properties', () => {
    expect(substituteVariables('{{ constructor }} {{ __proto__.x }}', {}, 'literal').unresolved.map((p) => p.path)).toEqual(['constructor', '__proto__.x']);
  });
});
