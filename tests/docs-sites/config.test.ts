/**
 * docs.json / docs.yaml (docs/docs-site-config.md): the JSON Schema served at /schema.json, the
 * defaults of `{}`, loading with fallback to defaults (each problem with its line and column), unknown keys with
 * a suggestion, checks visible from the configuration alone, and page frontmatter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, validateFrontmatter } from '../../sites/config/load.ts';
import { formatProblem, formatProblems, formatSummary, shouldFail } from '../../sites/config/problems.ts';
import { isInternal, normalizeRoute, pathAnswer, routeOfFile } from '../../sites/config/routes.ts';
import { docsConfigSchema, type DocsConfig } from '../../sites/config/schema/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** Every documented key, with valid values. */
const FULL_CONFIG = {
  $schema: 'https://docs.example.com/schema.json',
  name: 'Acme',
  description: 'Acme documentation',
  socialPreview: false,
  logo: { light: '/logo.svg', dark: '/logo-dark.svg' },
  favicon: { light: '/favicon.svg', dark: '/favicon-dark.svg' },
  banner: { message: 'v2 is out', href: '/changelog', backgroundColor: '#000000', foregroundColor: 'white' },
  theme: { preset: 'ocean', primary: '#0A66C2', primaryLight: '#0A66C2', primaryDark: '#58A6FF', backgroundLight: '#FFFFFF', backgroundDark: '#0D1117', defaultTheme: 'dark' },
  header: { showName: false, showThemeToggle: false, showCodeHostCard: false, links: [{ title: 'Sign in', href: 'https://app.example.com', cta: true, locale: 'en' }] },
  tabs: [
    { id: 'guides', title: 'Guides', href: '/guides', locale: 'en' },
    { id: 'api', title: 'API', href: '/api' },
  ],
  sidebar: {
    en: [
      {
        group: 'Guides',
        tab: ['guides'],
        href: '/guides',
        icon: 'book',
        pages: [{ title: 'Start', href: '/guides/start', icon: 'rocket' }, { group: 'Nested', tab: 'guides', pages: [{ title: 'Deep', href: '/guides/deep' }] }],
      },
    ],
    default: [{ pages: [{ title: 'Home', href: '/' }] }],
  },
  anchors: [{ icon: 'github', title: 'GitHub', href: 'https://github.com/acme', locale: 'en', tab: 'guides' }],
  content: { headerDepth: 4, zoomImages: true, automaticallyInferNextPrevious: false, showPageTitle: false, showPageImage: false },
  seo: { noindex: true },
  variables: { product: 'Acme', version: { major: '2' }, count: 3 },
  redirects: { '/old': '/guides/start', '/gone/': 'https://example.com/' },
  search: { docsearch: { appId: 'APPID', apiKey: 'search-only-key', indexName: 'acme' } },
  scripts: { vendorTagManager: 'GTM-XXXX', vendorAnalytics: 'G-XXXX', vendorSiteVerification: 'abc123', altAnalytics: true },
  social: {
    website: 'https://acme.example',
    microblog: 'https://micro.example/acme',
    video: 'https://video.example/acme',
    socialNetwork: 'https://social.example/acme',
    photoSharing: 'https://photos.example/acme',
    professionalNetwork: 'https://pro.example/acme',
    codeHost: 'https://github.com/acme',
    workspaceChat: 'https://chat.example/acme',
    communityChat: 'https://community.example/acme',
    preview: 'https://acme.example/preview.png',
  },
  og: { logo: '/og-logo.png', codeHost: false },
  agent: {
    key: 'agent-key',
    models: { openai: 'gpt-x', anthropic: 'claude-x', google: 'gemini-x', mistral: 'mistral-x' },
    placeholder: 'Ask anything',
    questions: ['How do I start?'],
    limits: { ip: 50, repo: Number.MAX_SAFE_INTEGER },
  },
  mcp: { enabled: false },
};

const dirs: string[] = [];
/** A site folder with these files. */
function site(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-config-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The formatted problems of loading a site with these files. */
async function problemsOf(files: Record<string, string>): Promise<string[]> {
  return (await loadConfig(site(files))).problems.map(formatProblem);
}
const json = (value: unknown) => JSON.stringify(value, null, 2);

describe('GET /schema.json', () => {
  let server: TestServer;
  let response: Response;
  let schema: Record<string, unknown>;
  let validate: ReturnType<Ajv2020['compile']>;
  beforeAll(async () => {
    server = await startTestServer();
    response = await fetch(`${server.url}/schema.json`);
    schema = (await response.json()) as Record<string, unknown>;
    validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(schema);
  });
  afterAll(() => server?.destroy());

  it('returns the JSON Schema (draft 2020-12) as a cacheable schema+json document', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/schema+json');
    expect(response.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('/schema.json');
    expect(schema.type).toBe('object');
  });

  it('an empty object is a valid configuration', () => {
    expect(validate({})).toBe(true);
  });

  it('a configuration using every key is valid (and loads without problems)', async () => {
    expect(validate(FULL_CONFIG), JSON.stringify(validate.errors)).toBe(true);
    expect(docsConfigSchema.safeParse(FULL_CONFIG).success).toBe(true);
  });

  it('treats name and description as optional, each a non-empty string when present', () => {
    expect(validate({ name: 'x', description: 'y' })).toBe(true);
    expect(validate({ name: '' })).toBe(false);
    expect(validate({ description: '' })).toBe(false);
  });

  it('accepts a flat sidebar of groups with nested groups', () => {
    expect(validate({ sidebar: [{ group: 'A', pages: [{ title: 'x', href: '/x' }, { group: 'B', pages: [] }] }] })).toBe(true);
  });

  it.each([
    ['an unknown top-level key', { nmae: 'x' }],
    ['a colour that is not #RRGGBB', { theme: { primary: 'blue' } }],
    ['defaultTheme other than light or dark', { theme: { defaultTheme: 'sepia' } }],
    ['socialPreview true', { socialPreview: true }],
    ['a sidebar page without href', { sidebar: [{ pages: [{ title: 'x' }] }] }],
    ['a sidebar group without pages', { sidebar: [{ group: 'A' }] }],
    ['a locale-keyed sidebar whose value is not an array', { sidebar: { en: { pages: [] } } }],
    ['a tab without id', { tabs: [{ title: 'A', href: '/a' }] }],
    ['an anchor without icon', { anchors: [{ title: 'A', href: '/a' }] }],
    ['a header link with an empty title', { header: { links: [{ title: '', href: '/a' }] } }],
    ['headerDepth as a string', { content: { headerDepth: '3' } }],
    ['a redirect to a number', { redirects: { '/a': 1 } }],
    ['docsearch without indexName', { search: { docsearch: { appId: 'a', apiKey: 'b' } } }],
    ['an agent limit of 0', { agent: { limits: { ip: 0 } } }],
    ['an agent limit above 9007199254740991', { agent: { limits: { repo: 9007199254740992 } } }],
    ['a fractional agent limit', { agent: { limits: { ip: 1.5 } } }],
    ['a model for an unknown provider', { agent: { models: { acme: 'x' } } }],
    ['an empty starter question', { agent: { questions: [''] } }],
    ['mcp.enabled as a string', { mcp: { enabled: 'no' } }],
    ['an unknown social key', { social: { myspace: 'x' } }],
  ])('rejects %s', (_name, config) => {
    expect(validate(config)).toBe(false);
  });

  it('documents the defaults', () => {
    const properties = schema.properties as Record<string, { default?: unknown; properties?: Record<string, { default?: unknown }> }>;
    expect(properties.name?.default).toBe('Documentation');
    expect(properties.content?.properties?.headerDepth?.default).toBe(3);
    expect(properties.mcp?.default).toEqual({ enabled: true });
  });
});

describe('defaults of an empty configuration', () => {
  let config: DocsConfig;
  beforeAll(async () => {
    config = (await loadConfig(site({ 'docs.json': '{}' }))).config;
  });

  it('name: Documentation', () => expect(config.name).toBe('Documentation'));
  it('description: none', () => expect(config.description).toBeUndefined());
  it('$schema: none', () => expect(config.$schema).toBeUndefined());
  it('socialPreview: none', () => expect(config.socialPreview).toBeUndefined());
  it('logo: {}', () => expect(config.logo).toEqual({}));
  it('favicon: none', () => expect(config.favicon).toBeUndefined());
  it('banner: {}', () => expect(config.banner).toEqual({}));
  it('theme: {}', () => expect(config.theme).toEqual({}));
  it('header.showName: true', () => expect(config.header.showName).toBe(true));
  it('header.showThemeToggle: true', () => expect(config.header.showThemeToggle).toBe(true));
  it('header.showCodeHostCard: true', () => expect(config.header.showCodeHostCard).toBe(true));
  it('header.links: []', () => expect(config.header.links).toEqual([]));
  it('tabs: []', () => expect(config.tabs).toEqual([]));
  it('sidebar: {}', () => expect(config.sidebar).toEqual({}));
  it('anchors: []', () => expect(config.anchors).toEqual([]));
  it('content.headerDepth: 3', () => expect(config.content.headerDepth).toBe(3));
  it('content.zoomImages: false', () => expect(config.content.zoomImages).toBe(false));
  it('content.automaticallyInferNextPrevious: true', () => expect(config.content.automaticallyInferNextPrevious).toBe(true));
  it('content.showPageTitle: true', () => expect(config.content.showPageTitle).toBe(true));
  it('content.showPageImage: true', () => expect(config.content.showPageImage).toBe(true));
  it('seo: { noindex: false }', () => expect(config.seo).toEqual({ noindex: false }));
  it('variables: {}', () => expect(config.variables).toEqual({}));
  it('redirects: {}', () => expect(config.redirects).toEqual({}));
  it('search: {}', () => expect(config.search).toEqual({}));
  it('scripts: {}', () => expect(config.scripts).toEqual({}));
  it('social: {}', () => expect(config.social).toEqual({}));
  it('og: { codeHost: true }', () => expect(config.og).toEqual({ codeHost: true }));
  it('agent.limits.ip: 200', () => expect(config.agent.limits.ip).toBe(200));
  it('agent.limits.repo: 10000', () => expect(config.agent.limits.repo).toBe(10_000));
  it('agent.key: none (chat panel disabled)', () => expect(config.agent.key).toBeUndefined());
  it('mcp: { enabled: true }', () => expect(config.mcp).toEqual({ enabled: true }));
  it('header link cta: false', () => {
    expect(docsConfigSchema.parse({ header: { links: [{ title: 'A', href: '/a' }] } }).header.links[0]?.cta).toBe(false);
  });
});

describe('loadConfig: finding the file', () => {
  it('without docs.json or docs.yaml every setting has its default and nothing is reported', async () => {
    const loaded = await loadConfig(site({ 'index.mdx': '# Hi' }));
    expect(loaded).toMatchObject({ file: null, problems: [], config: docsConfigSchema.parse({}) });
  });

  it('reads docs.yaml', async () => {
    const loaded = await loadConfig(site({ 'docs.yaml': 'name: From YAML\n' }));
    expect(loaded.file).toBe('docs.yaml');
    expect(loaded.config.name).toBe('From YAML');
    expect(loaded.problems).toEqual([]);
  });

  it('with both docs.json and docs.yaml, uses docs.json and says so', async () => {
    const dir = site({ 'docs.json': '{ "name": "JSON" }', 'docs.yaml': 'name: YAML\n' });
    const loaded = await loadConfig(dir);
    expect(loaded.config.name).toBe('JSON');
    expect(loaded.problems.map(formatProblem)).toEqual(['docs.yaml:1:1  warning  Both docs.json and docs.yaml exist: docs.json is used, docs.yaml is ignored']);
  });

  it('reads docs.yml too, with a warning to rename it', async () => {
    const loaded = await loadConfig(site({ 'docs.yml': 'name: YML\n' }));
    expect(loaded.config.name).toBe('YML');
    expect(loaded.problems.map(formatProblem)).toEqual(['docs.yml:1:1  warning  The configuration file is named docs.yaml (docs.yml is read too): rename it']);
  });

  it('an empty file is every default, with a warning', async () => {
    expect(await problemsOf({ 'docs.yaml': '\n' })).toEqual(['docs.yaml:1:1  warning  The file is empty: every setting has its default']);
  });

  it('a file that is not an object is an error, and every default', async () => {
    const dir = site({ 'docs.json': '[1, 2]' });
    const loaded = await loadConfig(dir);
    expect(loaded.problems.map(formatProblem)).toEqual(['docs.json:1:1  error  Must be an object of settings, not an array (every setting has its default)']);
    expect(loaded.config).toEqual(docsConfigSchema.parse({}));
  });
});

describe('loadConfig: syntax errors', () => {
  it.each([
    ['a trailing comma', '{\n  "name": "x",\n  "theme": {\n    "primary": "#123456",\n  }\n}\n', 'docs.json:4:25  error  Invalid JSON: Trailing comma before `}`'],
    ['a missing comma', '{\n  "name": "x"\n  "logo": {}\n}\n', 'docs.json:3:3  error  Invalid JSON: Expected `,` or `}` after the property value, found `"`'],
    ['a single-quoted key', "{\n  'name': 'x'\n}\n", "docs.json:2:3  error  Invalid JSON: Expected a property name in double quotes, found `'`"],
    ['a bad literal', '{ "seo": { "noindex": tru } }', 'docs.json:1:23  error  Invalid JSON: Invalid value `tru`'],
    ['an unterminated string', '{\n  "name": "x\n}', 'docs.json:2:11  error  Invalid JSON: Unterminated string'],
    ['a truncated file', '{ "name": "x"', 'docs.json:1:14  error  Invalid JSON: Expected `,` or `}` after the property value, found the end of the file'],
  ])('JSON with %s: an error at its line and column, every default', async (_name, text, expected) => {
    const loaded = await loadConfig(site({ 'docs.json': text }));
    expect(loaded.problems.map(formatProblem)).toEqual([expected]);
    expect(loaded.config).toEqual(docsConfigSchema.parse({}));
  });

  it('YAML that does not parse: an error at its line and column, every default', async () => {
    const loaded = await loadConfig(site({ 'docs.yaml': 'name: x\ntheme:\n  primary: "#123456\n' }));
    expect(loaded.problems.map(formatProblem)).toEqual(['docs.yaml:4:1  error  Invalid YAML: Missing closing "quote']);
    expect(loaded.config.name).toBe('Documentation');
  });

  it('a duplicate key is a warning; the last one is used (as JSON.parse does)', async () => {
    const loaded = await loadConfig(site({ 'docs.json': '{\n  "name": "first",\n  "name": "second"\n}' }));
    expect(loaded.config.name).toBe('second');
    expect(loaded.problems.map(formatProblem)).toEqual(['docs.json:2:3  warning  name  Duplicate key `name`: the last one is used']);
  });
});

describe('loadConfig: invalid values fall back to their defaults', () => {
  const broken = {
    name: '',
    theme: { primary: 'teal', primaryDark: '#58A6FF' },
    content: { headerDepth: 9, zoomImages: 'yes' },
    sidebar: [{ group: 'Start', pages: [{ title: 'Home', href: '/' }, { title: 'No link' }, { title: 'Kept', href: '/kept', icon: '' }, { group: 'Bad', pages: 'oops' }] }],
    agent: { limits: { ip: 0, repo: 5 } },
    favicon: 3,
  };

  it('docs.json: each invalid value is a warning at its key, with what is used instead', async () => {
    expect(await problemsOf({ 'docs.json': json(broken) })).toEqual([
      'docs.json:2:3  warning  name  Must not be empty (the default `"Documentation"` is used)',
      'docs.json:4:5  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)',
      'docs.json:8:5  warning  content.headerDepth  Must be at most 6 (the default `3` is used)',
      'docs.json:9:5  warning  content.zoomImages  Must be `true` or `false`, not a string (the default `false` is used)',
      'docs.json:19:9  warning  sidebar[0].pages[1]  Missing required `href` (the item is dropped)',
      'docs.json:25:11  warning  sidebar[0].pages[2].icon  Must not be empty (ignored)',
      'docs.json:29:11  warning  sidebar[0].pages[3].pages  Must be an array, not a string (so `sidebar[0].pages[3]` is dropped)',
      'docs.json:36:7  warning  agent.limits.ip  Must be greater than 0 (the default `200` is used)',
      'docs.json:40:3  warning  favicon  Must be a string or an object, not a number (ignored)',
    ]);
  });

  it('the rest of the configuration is kept', async () => {
    const { config } = await loadConfig(site({ 'docs.json': json(broken) }));
    expect(config.name).toBe('Documentation');
    expect(config.theme).toEqual({ primaryDark: '#58A6FF' });
    expect(config.content).toMatchObject({ headerDepth: 3, zoomImages: false });
    expect(config.sidebar).toEqual([{ group: 'Start', pages: [{ title: 'Home', href: '/' }, { title: 'Kept', href: '/kept' }] }]);
    expect(config.agent.limits).toEqual({ ip: 200, repo: 5 });
    expect(config.favicon).toBeUndefined();
  });

  it('locate() maps paths of the loaded config back to the file, past dropped items', async () => {
    const loaded = await loadConfig(site({ 'docs.json': json(broken) }));
    // sidebar[0].pages[1] of the loaded config is the file's sidebar[0].pages[2] ("Kept").
    expect(loaded.locate(['sidebar', 0, 'pages', 1, 'href'])).toEqual({ file: 'docs.json', line: 24, column: 11, path: 'sidebar[0].pages[2].href' });
  });

  it('docs.yaml: the same, at YAML lines and columns', async () => {
    const yaml = [
      'name: Docs',
      'theme:',
      '  primary: "#12345"',
      'sidebar:',
      '  en:',
      '    - group: Start',
      '      pages:',
      '        - title: Home',
      '          href: /',
      '        - title: 5',
      '          href: /five',
      '  fr: nope',
      'seo:',
      '  noindex: "yes"',
      '',
    ].join('\n');
    const loaded = await loadConfig(site({ 'docs.yaml': yaml }));
    expect(loaded.problems.map(formatProblem)).toEqual([
      'docs.yaml:3:3  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)',
      'docs.yaml:10:11  warning  sidebar.en[0].pages[1].title  Must be a string, not a number (so `sidebar.en[0].pages[1]` is dropped)',
      'docs.yaml:12:3  warning  sidebar.fr  Must be an array, not a string (ignored)',
      'docs.yaml:14:3  warning  seo.noindex  Must be `true` or `false`, not a string (the default `false` is used)',
    ]);
    expect(loaded.config.sidebar).toEqual({ en: [{ group: 'Start', pages: [{ title: 'Home', href: '/' }] }] });
  });

  it('strict does not change loading; shouldFail decides (errors always, any problem with strict)', async () => {
    const dir = site({ 'docs.json': json({ theme: { primary: 'teal' } }) });
    const lenient = await loadConfig(dir);
    const strict = await loadConfig(dir, { strict: true });
    expect(strict.problems).toEqual(lenient.problems);
    expect(shouldFail(strict.problems, { strict: true })).toBe(true);
    expect(shouldFail(lenient.problems)).toBe(false);
    expect(shouldFail([{ severity: 'error', file: 'docs.json', line: 1, column: 1, path: '', message: 'x' }])).toBe(true);
  });
});

describe('loadConfig: links and images that could run code', () => {
  // Every hosted site shares one origin: a `javascript:` link in one repository's docs.json would run on all of them.
  const hostile = {
    header: { links: [{ title: 'Sign in', href: 'javascript:alert(1)' }, { title: 'Ok', href: 'https://app.example.com' }] },
    tabs: [{ id: 'a', title: 'A', href: 'java\tscript:alert(1)' }],
    anchors: [{ icon: 'x', title: 'X', href: 'vbscript:msgbox' }],
    sidebar: [{ group: 'G', href: 'JAVASCRIPT:void(0)', pages: [{ title: 'P', href: 'data:text/html,<script>alert(1)</script>' }, { title: 'Mail', href: 'mailto:a@example.com' }] }],
    banner: { message: 'Hi', href: 'javascript:alert(1)' },
    social: { website: 'javascript:alert(1)', codeHost: 'https://github.com/acme' },
    redirects: { '/old': 'javascript:alert(1)', '/kept': '//cdn.example.com/x' },
    logo: { light: 'javascript:alert(1)', dark: 'images/dark.svg' },
    favicon: 'data:image/svg+xml,<svg onload=alert(1)>',
    og: { logo: 'javascript:x' },
    socialPreview: 'vbscript:x',
  };

  it('are dropped with a warning each: only paths and http(s), mailto, irc(s), xmpp links; paths and http(s) images', async () => {
    const { config, problems } = await loadConfig(site({ 'docs.json': json(hostile) }));
    expect(problems.map((p) => p.path)).toEqual([
      'header.links[0].href',
      'tabs[0].href',
      'anchors[0].href',
      'sidebar[0].href',
      'sidebar[0].pages[0].href',
      'banner.href',
      'social.website',
      'redirects["/old"]',
      'logo.light',
      'favicon',
      'og.logo',
      'socialPreview',
    ]);
    expect(problems.every((p) => p.severity === 'warning' && /^Must be a path/.test(p.message))).toBe(true);
    expect(JSON.stringify(config)).not.toMatch(/script:|data:/i);
    expect(config.header.links).toEqual([{ title: 'Ok', href: 'https://app.example.com', cta: false }]);
    expect(config.sidebar).toEqual([{ group: 'G', pages: [{ title: 'Mail', href: 'mailto:a@example.com' }] }]);
    expect(config.redirects).toEqual({ '/kept': '//cdn.example.com/x' });
    expect(config.logo).toEqual({ dark: 'images/dark.svg' });
    expect(config.social).toEqual({ codeHost: 'https://github.com/acme' });
  });

  it('in frontmatter too: redirect, previous, next and image', () => {
    const source = ['---', 'redirect: javascript:alert(1)', 'previous: javascript:alert(2)', 'next: { title: Go, href: "data:text/html,x" }', 'image: javascript:x', 'title: Kept', '---', 'Body'].join('\n');
    const result = validateFrontmatter('a.mdx', source);
    expect(result.problems.map((p) => `${p.line} ${p.path}`)).toEqual(['2 redirect', '3 previous', '4 next.href', '5 image']);
    expect(result.data).toEqual({ title: 'Kept' });
  });
});

describe('loadConfig: unknown keys', () => {
  it('are dropped with a warning, suggesting the closest known key when it is a likely typo', async () => {
    const text = json({ nmae: 'Docs', theme: { primry: '#123456', colour: '#123456' }, content: { HeaderDepth: 2 }, sidebar: [{ grop: 'A', pages: [] }], completelyDifferent: 1 });
    const loaded = await loadConfig(site({ 'docs.json': text }));
    expect(loaded.problems.map(formatProblem)).toEqual([
      'docs.json:2:3  warning  nmae  Unknown key `nmae` (ignored); did you mean `name`?',
      'docs.json:4:5  warning  theme.primry  Unknown key `primry` (ignored); did you mean `primary`?',
      'docs.json:5:5  warning  theme.colour  Unknown key `colour` (ignored)',
      'docs.json:8:5  warning  content.HeaderDepth  Unknown key `HeaderDepth` (ignored); did you mean `headerDepth`?',
      'docs.json:12:7  warning  sidebar[0].grop  Unknown key `grop` (ignored); did you mean `group`?',
      'docs.json:16:3  warning  completelyDifferent  Unknown key `completelyDifferent` (ignored)',
    ]);
    expect(loaded.problems[0]?.suggestion).toBe('name');
    expect(loaded.config.name).toBe('Documentation');
    expect(loaded.config.content.headerDepth).toBe(3);
  });
});

describe('loadConfig: problems visible from the configuration alone', () => {
  it('names that refer to nothing, redirects to themselves, misused values', async () => {
    const text = json({
      theme: { preset: 'ocaen' },
      tabs: [
        { id: 'guides', title: 'Guides', href: '/guides', locale: 'de' },
        { id: 'guides', title: 'Again', href: '/again' },
      ],
      sidebar: { en: [{ tab: 'guide', pages: [{ group: 'Nested', tab: ['guides', 'apis'], pages: [] }] }] },
      anchors: [{ icon: 'x', title: 'X', href: '/x', tab: 'nope', locale: 'en' }],
      redirects: { '/loop/': 'loop', 'https://old.example/a': '/a' },
      scripts: { vendorSiteVerification: '<meta name="google-site-verification" content="abc123" />' },
      search: { docsearch: { appId: 'A', apiKey: '', indexName: 'i' } },
    });
    const loaded = await loadConfig(site({ 'docs.json': text }));
    expect(loaded.problems.map(formatProblem)).toEqual([
      'docs.json:3:5  warning  theme.preset  Unknown preset `ocaen` (the default preset is used); presets: default, zinc, slate, ocean, forest, sunset, violet, rose; did you mean `ocean`?',
      'docs.json:10:7  warning  tabs[0].locale  No sidebar locale `de` (locales: en)',
      'docs.json:13:7  warning  tabs[1].id  Duplicate tab id `guides` (the first tab with it is used)',
      'docs.json:21:9  warning  sidebar.en[0].tab  No tab has the id `guide`; did you mean `guides`?',
      'docs.json:27:15  warning  sidebar.en[0].pages[0].tab[1]  No tab has the id `apis`',
      'docs.json:40:7  warning  anchors[0].tab  No tab has the id `nope`',
      'docs.json:45:5  warning  redirects["/loop/"]  Redirects to itself',
      'docs.json:46:5  warning  redirects["https://old.example/a"]  Redirect keys are doc paths such as `/old-page`, not URLs (never matched)',
      'docs.json:49:5  warning  scripts.vendorSiteVerification  Only the meta tag\'s content value belongs here (`abc123` is used)',
      'docs.json:54:7  warning  search.docsearch.apiKey  DocSearch needs `appId`, `apiKey` and `indexName`; `apiKey` is empty (the built-in search is used)',
    ]);
    expect(loaded.config.theme.preset).toBeUndefined();
    expect(loaded.config.scripts.vendorSiteVerification).toBe('abc123');
    expect(loaded.config.search).toEqual({});
  });
  it('sidebar and anchor icons that draw nothing, with the closest names (images, URLs and known names pass)', async () => {
    const text = json({
      sidebar: [{ group: 'A', icon: 'rocet', pages: [{ title: 'P', href: '/p', icon: 'docker' }, { group: 'B', icon: 'fa-brands fa-githbu', pages: [] }] }],
      anchors: [{ icon: 'boook', title: 'Blog', href: '/blog' }, { icon: '/logo.svg', title: 'Logo', href: '/' }],
    });
    const loaded = await loadConfig(site({ 'docs.json': text }));
    expect(loaded.problems.map(formatProblem)).toEqual([
      expect.stringMatching(/^docs\.json:5:7 {2}warning {2}sidebar\[0\]\.icon {2}unknown icon `rocet`: .*did you mean `rocket`/),
      expect.stringMatching(/ {2}sidebar\[0\]\.pages\[1\]\.icon {2}unknown icon `fa-brands fa-githbu`: .*did you mean `github`/),
      expect.stringMatching(/ {2}anchors\[0\]\.icon {2}unknown icon `boook`: .*did you mean `book`/),
    ]);
  });
});

describe('problem formats', () => {
  const problem = { severity: 'warning' as const, file: 'docs.json', line: 12, column: 5, path: 'theme.primary', message: 'Must be a colour in the form #RRGGBB (ignored)' };
  it('one line: file:line:column, severity, path, message', () => {
    expect(formatProblem(problem)).toBe('docs.json:12:5  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)');
    expect(formatProblem({ ...problem, path: '', severity: 'error', message: 'Invalid JSON' })).toBe('docs.json:12:5  error  Invalid JSON');
  });
  it('a summary counts errors and warnings', () => {
    expect(formatSummary([])).toBe('no problems');
    expect(formatSummary([problem, problem, { ...problem, severity: 'error' }])).toBe('1 error, 2 warnings');
    expect(formatProblems([{ ...problem, file: 'a.mdx', line: 1 }, problem])).toBe(
      'docs.json:12:5  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)\na.mdx:1:5  warning  theme.primary  Must be a colour in the form #RRGGBB (ignored)\n2 warnings',
    );
  });
});

describe('validateFrontmatter', () => {
  it('without frontmatter the whole source is the body', () => {
    expect(validateFrontmatter('a.mdx', '# Hi\n')).toEqual({ data: {}, body: '# Hi\n', bodyLine: 1, problems: [] });
  });

  it('splits valid frontmatter off and says where the body starts', () => {
    const result = validateFrontmatter('a.mdx', '---\ntitle: Start\nnoindex: true\nnext: false\nprevious:\n  title: Home\n  href: /\n---\n# Start\n');
    expect(result).toEqual({ data: { title: 'Start', noindex: true, next: false, previous: { title: 'Home', href: '/' } }, body: '# Start\n', bodyLine: 9, problems: [] });
  });

  it('handles CRLF line ends and a byte-order mark', () => {
    const result = validateFrontmatter('a.mdx', '\uFEFF---\r\ntitle: Start\r\n---\r\nBody\r\n');
    expect(result).toMatchObject({ data: { title: 'Start' }, body: 'Body\r\n', bodyLine: 4, problems: [] });
  });

  it('invalid values and unknown keys are warnings at the lines of the MDX file; the rest is kept', () => {
    const source = ['---', 'title: Start', 'descripton: typo', 'noindex: maybe', 'image: ""', 'previous: 3', 'next:', '  title: Home', '---', '', 'Body'].join('\n');
    const result = validateFrontmatter('guides/start.mdx', source);
    expect(result.problems.map(formatProblem)).toEqual([
      'guides/start.mdx:3:1  warning  descripton  Unknown key `descripton` (ignored); did you mean `description`?',
      'guides/start.mdx:4:1  warning  noindex  Must be `true` or `false`, not a string (ignored)',
      'guides/start.mdx:5:1  warning  image  Must not be empty (ignored)',
      'guides/start.mdx:6:1  warning  previous  Must be `false`, a string or an object, not a number (ignored)',
      'guides/start.mdx:7:1  warning  next  Missing required `href` (ignored)',
    ]);
    expect(result.data).toEqual({ title: 'Start' });
    expect(result.bodyLine).toBe(10);
  });

  it('YAML that does not parse is an error, and no frontmatter is used', () => {
    const result = validateFrontmatter('a.mdx', '---\ntitle: [unclosed\ndescription: x\n---\nBody\n');
    expect(result.problems.map(formatProblem)).toEqual(['a.mdx:3:1  error  Invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]']);
    expect(result).toMatchObject({ data: {}, body: 'Body\n', bodyLine: 5 });
  });

  it('an unclosed frontmatter is an error; the whole file is the body', () => {
    const result = validateFrontmatter('a.mdx', '---\ntitle: x\n\n# Hi\n');
    expect(result.problems.map(formatProblem)).toEqual(['a.mdx:1:1  error  The frontmatter opened by `---` is never closed by another `---` line (no frontmatter is read)']);
    expect(result.bodyLine).toBe(1);
  });

  it('frontmatter that is not keys and values is an error', () => {
    expect(validateFrontmatter('a.mdx', '---\n- a\n---\n').problems.map(formatProblem)).toEqual(['a.mdx:2:1  error  Frontmatter must be keys and values, not an array (ignored)']);
  });
});

describe('redirect precedence (pathAnswer: the rule docs check, the build and hosting share)', () => {
  it('a page with a frontmatter `redirect` governs its own path, over its file and a `redirects` entry', () => {
    expect(pathAnswer({ pageRedirect: '/new', file: 'old/index.html', redirect: '/elsewhere' })).toEqual({ by: 'page-redirect', to: '/new' });
  });

  it('a file at the path is served: a `redirects` entry never shadows it', () => {
    expect(pathAnswer({ file: 'guide/index.html', redirect: '/elsewhere' })).toEqual({ by: 'file', file: 'guide/index.html' });
  });

  it('a `redirects` entry applies only where there is no file', () => {
    expect(pathAnswer({ redirect: '/elsewhere' })).toEqual({ by: 'redirects', to: '/elsewhere' });
    expect(pathAnswer({})).toBeUndefined();
  });
});

describe('site paths (normalizeRoute, routeOfFile, isInternal)', () => {
  it('tolerates slashes, drops `.md`/`.mdx`, a final `/index`, the query and the fragment', () => {
    expect(['guides/start/', '/guides//start', '/guides/start.mdx', '/guides/start.MD', '/guides/start/index', '/guides/start?x=1#top'].map(normalizeRoute)).toEqual(
      Array(6).fill('/guides/start'),
    );
    expect(['', '/', 'index', '/index.mdx', '#top'].map(normalizeRoute)).toEqual(Array(5).fill('/'));
  });

  it('only a whole suffix or segment is dropped: `.md` inside a name and `/indexing` stay', () => {
    expect(normalizeRoute('/v1.md-notes')).toBe('/v1.md-notes');
    expect(normalizeRoute('/indexing')).toBe('/indexing');
    expect(normalizeRoute('/guides/index-of-terms')).toBe('/guides/index-of-terms');
  });

  it('decodes percent-encoded paths, and keeps a malformed escape as written', () => {
    expect(normalizeRoute('/caf%C3%A9')).toBe('/café');
    expect(normalizeRoute('/100%')).toBe('/100%');
  });

  it('routes page files, with either slash', () => {
    expect(['guides/start.mdx', 'guides\\start.mdx'].map(routeOfFile)).toEqual(['/guides/start', '/guides/start']);
    expect(['index.mdx', 'guides/index.mdx'].map(routeOfFile)).toEqual(['/', '/guides']);
  });

  it('tells links that stay on the site from external ones', () => {
    expect(['/guide', 'guide', '#top', '../x'].map(isInternal)).toEqual([true, true, true, true]);
    expect(['https://example.com', '//cdn.example.com/x', 'mailto:a@example.com'].map(isInternal)).toEqual([false, false, false]);
  });
});
