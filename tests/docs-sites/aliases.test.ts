/**
 * Other tools' names for our configuration keys (sites/config/aliases.ts; docs/docs-site-config.md, "Keys from
 * docs.page and Mintlify"): each one behaves like our key, the notes `docs check` prints about them, our key wins
 * over an alias, /schema.json lists them as deprecated, and vendor configurations build with no warnings.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { aliasMessage, splitKey, VENDOR_KEYS, type VendorKey } from '../../sites/config/aliases.ts';
import { docsJsonSchemaText } from '../../sites/config/json-schema.ts';
import { loadConfig, validateFrontmatter } from '../../sites/config/load.ts';
import { formatProblem, formatSummary, shouldFail, type Problem } from '../../sites/config/problems.ts';
import { docsConfigSchema, type DocsConfig } from '../../sites/config/schema/index.ts';
import { buildFixture, FIXTURES, parseHtml, runDocsCli } from '../helpers/docs.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-aliases-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A site folder with these files. */
function site(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The configuration and problems of a docs.json holding `config`. */
async function load(config: unknown, files: Record<string, string> = {}): Promise<{ config: DocsConfig; problems: Problem[]; lines: string[] }> {
  const loaded = await loadConfig(site({ 'docs.json': JSON.stringify(config, null, 2), ...files }));
  return { config: loaded.config, problems: loaded.problems, lines: loaded.problems.map(formatProblem) };
}

const docs = runDocsCli;

/** `{ a: { b: value } }` for `a.b`. */
const nest = (key: string, value: unknown): Record<string, unknown> => splitKey(key).reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), value) as Record<string, unknown>;
const DEFAULTS = docsConfigSchema.parse({});

/** A value for each of our keys an alias stands for (not its default, so that the alias visibly does something). */
const SAMPLES: Record<string, unknown> = {
  'scripts.vendorTagManager': 'GTM-SAMPLE',
  'scripts.vendorAnalytics': 'G-SAMPLE',
  'scripts.vendorSiteVerification': 'verification-token',
  'scripts.altAnalytics': 'https://plausible.example.com',
  'header.showCodeHostCard': false,
  'header.showName': false,
  'header.showThemeToggle': false,
  'og.codeHost': false,
  'logo.light': '/logo.svg',
  'logo.dark': '/logo-dark.svg',
  'seo.noindex': true,
  'content.headerDepth': 4,
  'content.zoomImages': true,
  'content.automaticallyInferNextPrevious': false,
  'search.docsearch': { appId: 'APP', apiKey: 'search-key', indexName: 'acme' },
  'theme.primary': '#123456',
  'theme.primaryDark': '#234567',
  'theme.backgroundLight': '#fafafa',
  'theme.backgroundDark': '#0a0a0a',
  'theme.defaultTheme': 'dark',
  'banner.message': 'Version 2 is out',
};
const sample = (ours: string) => (ours.startsWith('social.') ? `https://example.com/${ours.slice(7)}` : SAMPLES[ours]);

/** Keys whose value is the same here: a rename (a `when` shape names a key ours also has, so it moves it). */
const RENAMES = VENDOR_KEYS.filter((entry) => entry.ours !== undefined && (entry.convert === undefined || entry.convert === 'hex') && !entry.ours.includes(', '));
const IGNORED = VENDOR_KEYS.filter((entry) => entry.ours === undefined);

/** The smallest file holding `entry` with `value`, and where its key is (line 3 of a pretty-printed nesting). */
const where = (entry: VendorKey) => `docs.json:${splitKey(entry.key).length + 1}:${2 * splitKey(entry.key).length + 1}  info  ${entry.key}`;

describe('a key of docs.page or Mintlify behaves like ours', () => {
  it.each(RENAMES.map((entry) => [`${entry.vendor} ${entry.key}`, entry] as const))('%s', async (_name, entry) => {
    const value = sample(entry.ours!);
    expect(value, `a sample value for ${entry.ours}`).toBeDefined();
    const theirs = await load(nest(entry.key, value));
    const ours = await load(nest(entry.ours!, value));
    expect(ours.lines).toEqual([]);
    expect(theirs.config).toEqual(ours.config);
    expect(theirs.config).not.toEqual(DEFAULTS);
    expect(theirs.lines).toEqual([`${where(entry)}  ${aliasMessage(entry)}`]);
  });

  it('the note is exactly: `<their key>` is <tool>\'s name for `<ours>`: rename it (or run `docs migrate`)', async () => {
    const { lines } = await load({ social: { github: 'https://github.com/acme' }, integrations: { gtm: { tagId: 'GTM-1' } } });
    expect(lines).toEqual([
      "docs.json:3:5  info  social.github  `social.github` is docs.page's name for `social.codeHost`: rename it (or run `docs migrate`)",
      "docs.json:7:7  info  integrations.gtm.tagId  `integrations.gtm.tagId` is Mintlify's name for `scripts.vendorTagManager`: rename it (or run `docs migrate`)",
    ]);
  });

  it.each(IGNORED.map((entry) => [`${entry.vendor} ${entry.key}`, entry] as const))('%s: no equivalent, one note saying what it does there, ignored', async (_name, entry) => {
    const value = entry.when === 'notColour' ? 'mint' : entry.when === 'styleObject' ? { items: 'container' } : { anything: true };
    const { config, lines } = await load(nest(entry.key, value));
    expect(config).toEqual(DEFAULTS);
    expect(lines).toEqual([`${where(entry)}  ${aliasMessage(entry)}`]);
  });

  it('ignored: `<key>` is <tool>\'s setting for <what it does>; nothing here does that (ignored)', async () => {
    const { lines } = await load({ theme: 'mint', fonts: { family: 'Inter' }, errors: { 404: { redirect: false } } });
    expect(lines).toEqual([
      "docs.json:2:3  info  theme  `theme` is Mintlify's setting for the layout theme, such as `mint` or `maple`; nothing here does that (ignored)",
      "docs.json:3:3  info  fonts  `fonts` is Mintlify's setting for custom fonts; nothing here does that (ignored)",
      "docs.json:6:3  info  errors  `errors` is Mintlify's setting for the 404 page; a `404.mdx` page is the 404 page here (ignored)",
    ]);
  });

  it('an object of several keys: one note per key used, the rest reported once', async () => {
    const { config, lines } = await load({ integrations: { gtm: { tagId: 'GTM-1' }, ga4: { measurementId: 'G-1' }, posthog: { apiKey: 'phc_1' }, intercom: { appId: 'abcdef' } } });
    expect(config.scripts).toEqual({ vendorTagManager: 'GTM-1', vendorAnalytics: 'G-1' });
    expect(lines.map((line) => line.split('  ')[2])).toEqual(['integrations', 'integrations.gtm.tagId', 'integrations.ga4.measurementId']);
    expect(lines[0]).toBe("docs.json:2:3  info  integrations  `integrations` is Mintlify's setting for other analytics, chat and consent integrations; nothing here does that (ignored)");
  });

  it('a problem with a moved value is reported at the key as written', async () => {
    const { lines } = await load({ footer: { socials: { github: 'javascript:alert(1)' } } });
    expect(lines).toContain('docs.json:4:7  warning  footer.socials.github  Must be a path or an http(s), mailto, irc or xmpp URL (ignored)');
  });
});

describe('values written differently there', () => {
  const cases: [string, unknown, (config: DocsConfig) => unknown, unknown][] = [
    ['appearance.strict: the opposite of header.showThemeToggle', { appearance: { strict: true } }, (c) => c.header.showThemeToggle, false],
    ['modeToggle.isHidden (mint.json): the opposite of header.showThemeToggle', { modeToggle: { isHidden: true } }, (c) => c.header.showThemeToggle, false],
    ['appearance.default: dark', { appearance: { default: 'dark' } }, (c) => c.theme.defaultTheme, 'dark'],
    ['appearance.default: system is the default here', { appearance: { default: 'system' } }, (c) => c.theme, {}],
    ['colors.primary: #abc is #aabbcc', { colors: { primary: '#abc' } }, (c) => c.theme.primary, '#aabbcc'],
    ['theme as a colour (docs.page v1): theme.primary', { theme: '00bcd4' }, (c) => c.theme.primary, '#00bcd4'],
    ['banner.color { light, dark }: the light one', { banner: { content: 'Hi', color: { light: '#111111', dark: '#222222' } } }, (c) => c.banner, { message: 'Hi', backgroundColor: '#111111' }],
    ['social.github: a profile name is a GitHub URL', { social: { github: 'acme' } }, (c) => c.social.codeHost, 'https://github.com/acme'],
    ['social.x: @name is an X URL', { social: { x: '@acme' } }, (c) => c.social.microblog, 'https://x.com/acme'],
    ['social.slack: a workspace name', { social: { slack: 'acme' } }, (c) => c.social.workspaceChat, 'https://acme.slack.com'],
    ['social.discord: a URL stays', { social: { discord: 'https://discord.gg/acme' } }, (c) => c.social.communityChat, 'https://discord.gg/acme'],
    ['twitter (docs.page v1)', { twitter: 'acme' }, (c) => c.social.microblog, 'https://x.com/acme'],
    ['redirects: a list of { source, destination }', { redirects: [{ source: '/old', destination: '/new', permanent: true }] }, (c) => c.redirects, { '/old': '/new' }],
    ['integrations.plausible: the hosted script', { integrations: { plausible: { domain: 'docs.acme.example' } } }, (c) => c.scripts.altAnalytics, true],
    ['integrations.plausible: a self-hosted server', { integrations: { plausible: { domain: 'docs.acme.example', server: 'plausible.acme.example' } } }, (c) => c.scripts.altAnalytics, 'https://plausible.acme.example'],
    ['plausibleAnalytics with plausibleAnalyticsScript (docs.page v1)', { plausibleAnalytics: true, plausibleAnalyticsScript: 'https://p.acme.example/js/script.js' }, (c) => c.scripts.altAnalytics, 'https://p.acme.example/js/script.js'],
    ['seo.metatags.robots: noindex', { seo: { metatags: { robots: 'noindex, nofollow' } } }, (c) => c.seo.noindex, true],
    ['metadata.google-site-verification (mint.json)', { metadata: { 'google-site-verification': 'token' } }, (c) => c.scripts.vendorSiteVerification, 'token'],
    [
      'navbar: links and the primary button',
      { navbar: { links: [{ label: 'Support', href: 'mailto:hi@acme.example' }, { type: 'github', href: 'https://github.com/acme' }], primary: { type: 'button', label: 'Sign up', href: 'https://app.acme.example' } } },
      (c) => c.header.links,
      [
        { title: 'Support', href: 'mailto:hi@acme.example', cta: false },
        { title: 'GitHub', href: 'https://github.com/acme', cta: false },
        { title: 'Sign up', href: 'https://app.acme.example', cta: true },
      ],
    ],
    [
      'topbarLinks and topbarCtaButton (mint.json)',
      { topbarLinks: [{ name: 'Support', url: 'mailto:hi@acme.example' }], topbarCtaButton: { name: 'Sign up', url: 'https://app.acme.example' } },
      (c) => c.header.links,
      [
        { title: 'Support', href: 'mailto:hi@acme.example', cta: false },
        { title: 'Sign up', href: 'https://app.acme.example', cta: true },
      ],
    ],
    ['footerSocials as an object (mint.json)', { footerSocials: { x: 'https://x.com/acme', github: 'https://github.com/acme' } }, (c) => c.social, { microblog: 'https://x.com/acme', codeHost: 'https://github.com/acme' }],
    ['footerSocials as a list (mint.json)', { footerSocials: [{ type: 'discord', url: 'https://discord.gg/acme' }] }, (c) => c.social, { communityChat: 'https://discord.gg/acme' }],
    ['anchors with link (docs.page v1)', { anchors: [{ icon: 'book', title: 'Blog', link: 'https://blog.acme.example' }] }, (c) => c.anchors, [{ icon: 'book', title: 'Blog', href: 'https://blog.acme.example' }]],
    ['anchors as { name, url } (mint.json)', { anchors: [{ name: 'Changelog', url: 'changelog' }] }, (c) => c.anchors, [{ icon: 'link', title: 'Changelog', href: '/changelog' }]],
    [
      'sidebar as [title, href] pairs (docs.page v1)',
      { sidebar: [['Home', '/'], ['Guides', [['Start', '/start']]]] },
      (c) => c.sidebar,
      [{ pages: [{ title: 'Home', href: '/' }] }, { group: 'Guides', pages: [{ title: 'Start', href: '/start' }] }],
    ],
  ];
  it.each(cases)('%s', async (_name, config, pick, expected) => {
    const loaded = await load(config);
    expect(pick(loaded.config)).toEqual(expected);
    expect(loaded.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });

  it('the note says how the value is written here', async () => {
    const { lines } = await load({ social: { github: 'acme' }, appearance: { strict: true }, redirects: [{ source: '/a', destination: '/b' }] });
    expect(lines).toEqual([
      "docs.json:3:5  info  social.github  `social.github` is docs.page's name for `social.codeHost` (a profile name, here `https://github.com/<name>`): run `docs migrate` to rewrite it",
      "docs.json:6:5  info  appearance.strict  `appearance.strict` is Mintlify's name for `header.showThemeToggle` (the opposite value): run `docs migrate` to rewrite it",
      "docs.json:8:3  info  redirects  `redirects` is written Mintlify's way (a list of `{ source, destination }`): run `docs migrate` to rewrite it",
    ]);
  });

  it('what a conversion leaves out is a note too', async () => {
    const { config, lines } = await load({ redirects: [{ source: '/blog/:slug*', destination: '/news/:slug*' }, { source: '/a', destination: '/b' }], seo: { metatags: { robots: 'index' } } });
    expect(config.redirects).toEqual({ '/a': '/b' });
    expect(config.seo.noindex).toBe(false);
    expect(lines).toContain("docs.json:2:3  info  redirects  `redirects`: redirects with wildcards or parameters (`/blog/:slug*`) are left out: keys here are exact paths");
    expect(lines).toContain("docs.json:14:7  info  seo.metatags.robots  `seo.metatags.robots`: only `noindex` has an equivalent (`seo.noindex`); `index` is ignored");
  });

  it("Mintlify's navigation: tabs, groups, nested groups, pages titled from their files, anchors", async () => {
    const { config, problems } = await load(
      {
        navigation: {
          global: { anchors: [{ anchor: 'Blog', icon: 'newspaper', href: 'https://blog.acme.example' }] },
          tabs: [
            { tab: 'Guides', groups: [{ group: 'Start', icon: 'rocket', pages: ['index', 'quickstart', { group: 'More', pages: ['guides/deep'] }] }] },
            { tab: 'API', pages: ['api/intro', 'GET /users'] },
            { tab: 'Status', href: 'https://status.acme.example' },
          ],
        },
      },
      { 'quickstart.mdx': '---\ntitle: Quick start\nsidebarTitle: Quickstart\nicon: bolt\n---\n\nGo.\n', 'index.mdx': '# Welcome home\n' },
    );
    expect(config.tabs).toEqual([
      { id: 'guides', title: 'Guides', href: '/' },
      { id: 'api', title: 'API', href: '/api/intro' },
      { id: 'status', title: 'Status', href: 'https://status.acme.example' },
    ]);
    expect(config.sidebar).toEqual([
      {
        group: 'Start',
        tab: 'guides',
        icon: 'rocket',
        pages: [
          { title: 'Welcome home', href: '/' },
          { title: 'Quickstart', href: '/quickstart', icon: 'bolt' },
          { group: 'More', pages: [{ title: 'Deep', href: '/guides/deep' }] },
        ],
      },
      { tab: 'api', pages: [{ title: 'Intro', href: '/api/intro' }] },
    ]);
    expect(config.anchors).toEqual([{ icon: 'newspaper', title: 'Blog', href: 'https://blog.acme.example' }]);
    expect(problems.map((p) => p.message)).toContain('`navigation`: OpenAPI endpoint pages (`GET /users`) have no page here: they are left out of the sidebar');
  });

  it("Mintlify's languages: a locale-keyed sidebar", async () => {
    const { config } = await load({
      navigation: {
        languages: [
          { language: 'en', groups: [{ group: 'Start', pages: ['en/index'] }] },
          { language: 'fr', groups: [{ group: 'Démarrer', pages: ['fr/index'] }] },
        ],
      },
    });
    expect(config.sidebar).toEqual({
      en: [{ group: 'Start', pages: [{ title: 'En', href: '/en' }] }],
      fr: [{ group: 'Démarrer', pages: [{ title: 'Fr', href: '/fr' }] }],
    });
  });

  it("mint.json's navigation and tabs: each tab owns the groups under its folder, the rest are in a first tab", async () => {
    const { config } = await load({
      primaryTab: { name: 'Guides' },
      tabs: [{ name: 'API Reference', url: 'api-reference' }],
      navigation: [
        { group: 'Get Started', pages: ['introduction'] },
        { group: 'Endpoints', pages: ['api-reference/overview'] },
      ],
    });
    expect(config.tabs).toEqual([
      { id: 'guides', title: 'Guides', href: '/introduction' },
      { id: 'api-reference', title: 'API Reference', href: '/api-reference/overview' },
    ]);
    expect(config.sidebar).toEqual([
      { group: 'Get Started', tab: 'guides', pages: [{ title: 'Introduction', href: '/introduction' }] },
      { group: 'Endpoints', tab: 'api-reference', pages: [{ title: 'Overview', href: '/api-reference/overview' }] },
    ]);
  });

  it('a repository with only mint.json builds from it: its navigation, and `/` redirecting to its first page as Mintlify shows it', { timeout: 120_000 }, async () => {
    const site = await buildFixture('config-mint-json', { files: { 'logo/light.svg': SVG, 'logo/dark.svg': SVG, 'favicon.svg': SVG }, strict: true });
    const notes = site.result.problems.map((p) => `${p.file} ${p.severity} ${p.message}`);
    expect(notes.filter((note) => !note.startsWith('mint.json info'))).toEqual([]);
    expect(notes).toContain("mint.json info `mint.json` is Mintlify's former configuration file: it is read as `docs.json` (run `docs migrate` to write one)");
    expect(notes).toContain('mint.json info `navigation`: there is no `index.mdx`: `/` redirects to the first page of the navigation, `/introduction`, as Mintlify shows that page at `/`');
    expect(JSON.parse(site.file('_redirects.json'))).toEqual({ '/': '/introduction', '/start': '/quickstart' });
    expect(site.page('/introduction').selectAll('.sidebar-nav a').map((a) => a.attr('href'))).toEqual(expect.arrayContaining(['/introduction', '/quickstart']));
    // With a home page of its own, `/` is that page.
    const withHome = await buildFixture('config-mint-json', { files: { 'index.mdx': '# Home\n', 'logo/light.svg': SVG, 'logo/dark.svg': SVG, 'favicon.svg': SVG } });
    expect(JSON.parse(withHome.file('_redirects.json'))).toEqual({ '/start': '/quickstart' });
    expect(withHome.page('/').select('h1')?.text).toBe('Home');
    expect(withHome.result.problems.map((p) => p.message).join('\n')).not.toContain('redirects to the first page');
  });

  it('a broken link of the navigation is reported at its entry in the file', async () => {
    const dir = site({ 'docs.json': JSON.stringify({ navigation: { groups: [{ group: 'Start', pages: ['index', 'missing'] }] } }, null, 2), 'index.mdx': '# Home\n' });
    const { stderr } = await docs('check', dir);
    expect(stderr).toContain('docs.json:8:11  warning  navigation.groups[0].pages[1]');
  });
});

describe('our key wins over an alias', () => {
  it('both set: ours is used, and a warning says the alias is ignored', async () => {
    const { config, problems, lines } = await load({ social: { github: 'https://github.com/alias', codeHost: 'https://gitlab.com/ours' } });
    expect(config.social).toEqual({ codeHost: 'https://gitlab.com/ours' });
    expect(lines).toEqual([
      "docs.json:3:5  warning  social.github  `social.github` is docs.page's name for `social.codeHost`, which is set too: `social.codeHost` wins and `social.github` is ignored",
    ]);
    expect(shouldFail(problems, { strict: true })).toBe(true);
  });

  it('whatever the order in the file', async () => {
    const { config } = await load({ scripts: { vendorTagManager: 'GTM-OURS', googleTagManager: 'GTM-ALIAS' } });
    expect(config.scripts).toEqual({ vendorTagManager: 'GTM-OURS' });
  });

  it('two aliases of one key: the first in the table wins', async () => {
    const { config, lines } = await load({ social: { twitter: 'https://twitter.com/second', x: 'https://x.com/first' } });
    expect(config.social).toEqual({ microblog: 'https://x.com/first' });
    expect(lines).toContain(
      "docs.json:3:5  warning  social.twitter  `social.twitter` is docs.page's name for `social.microblog`, which `social.x` sets too: `social.x` wins and `social.twitter` is ignored",
    );
  });
});

describe('notes (info) never fail', () => {
  const note: Problem = { severity: 'info', file: 'docs.json', line: 1, column: 1, path: 'social.github', message: 'x' };
  it('not even with --strict', () => {
    expect(shouldFail([note], { strict: true })).toBe(false);
    expect(shouldFail([note, { ...note, severity: 'warning' }], { strict: true })).toBe(true);
  });
  it('the summary counts them apart', () => {
    expect(formatSummary([note, note])).toBe('no problems, 2 notes');
    expect(formatSummary([note, { ...note, severity: 'warning' }])).toBe('1 warning, 1 note');
  });
});

describe('/schema.json', () => {
  const schema = JSON.parse(docsJsonSchemaText()) as Record<string, unknown>;
  const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(schema);
  /** The schema of a key, through `anyOf` options (a vendor shape of one of our keys). */
  const schemaOf = (key: string): Record<string, any> | undefined => {
    let node: any = schema;
    for (const segment of splitKey(key)) {
      const objects = [node, ...(node?.anyOf ?? [])].filter((n: any) => n?.properties);
      node = objects.map((n: any) => n.properties[segment]).find(Boolean);
    }
    return node;
  };

  it.each(VENDOR_KEYS.map((entry) => [`${entry.vendor} ${entry.key}`, entry] as const))('%s is there, deprecated, its description naming ours', (_name, entry) => {
    const node = schemaOf(entry.key)!;
    const described = entry.when ? node.anyOf.find((option: any) => option.deprecated && String(option.description).includes(aliasMessage(entry))) : node;
    expect(described?.deprecated).toBe(true);
    expect(described?.description).toContain(aliasMessage(entry));
  });

  it('accepts the configuration files of docs.page and Mintlify', () => {
    for (const file of ['config-docs-page/docs.json', 'config-mintlify/docs.json', 'config-mint-json/mint.json']) {
      const config = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
      expect(validate(config), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('still refuses what is neither ours nor theirs', () => {
    expect(validate({ social: { myspace: 'x' } })).toBe(false);
    expect(validate({ tabs: [{ title: 'A', href: '/a' }] })).toBe(false);
    expect(validate({ theme: 42 })).toBe(false);
  });
});

describe('docs/docs-site-config.md', () => {
  it('lists every key of the table', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'docs-site-config.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Keys from docs.page and Mintlify'));
    for (const entry of VENDOR_KEYS) expect(section, entry.key).toContain(`| ${entry.vendor} | \`${entry.key}\``);
  });
});

describe('vendor configurations build with no warnings', () => {
  const build = async (fixture: string) => {
    const out = join(tempDir(), 'out');
    const result = await docs('build', join(FIXTURES, fixture), '--out', out, '--strict');
    return { ...result, out, page: (route: string) => parseHtml(readFileSync(join(out, route === '/' ? 'index.html' : `${route.slice(1)}/index.html`), 'utf8')) };
  };

  it("docs.page's names (tests/fixtures/config-docs-page): --strict builds; the social links and the code-host link render", async () => {
    const { code, stderr, page } = await build('config-docs-page');
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/ (warning|error) /);
    expect(stderr).toMatch(/\nno problems, 8 notes\n$/);
    const home = page('/');
    const social = home.selectAll('footer a[data-social]').map((a) => [a.attr('data-social'), a.attr('href')]);
    expect(social).toEqual([
      ['website', 'https://acme.example'],
      ['microblog', 'https://x.com/acme'],
      ['codeHost', 'https://github.com/acme'],
      ['communityChat', 'https://discord.gg/acme'],
    ]);
    expect(home.select('a[data-code-host]')?.attr('href')).toBe('https://github.com/acme');
  });

  it("Mintlify's docs.json (tests/fixtures/config-mintlify): --strict builds; tabs, sidebar, header links, anchors and redirects render", async () => {
    const { code, stderr, out, page } = await build('config-mintlify');
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/ (warning|error) /);
    const api = page('/api/overview');
    expect(api.selectAll('nav.site-tabs a').map((a) => [a.text, a.attr('href'), a.has('aria-current')])).toEqual([
      ['Guides', '/', false],
      ['API reference', '/api/overview', true],
    ]);
    const home = page('/');
    expect(home.selectAll('#docs-sidebar a[href="/quickstart"]').map((a) => a.text.trim())).toEqual(['Quickstart']);
    expect(home.selectAll('header a.header-link').map((a) => a.text.trim())).toEqual(['Support', 'Dashboard', 'acme']);
    expect(home.select('header a.cta')?.attr('href')).toBe('https://app.acme.example');
    expect(home.select('footer a[data-social="microblog"]')?.attr('href')).toBe('https://x.com/acme');
    expect(home.selectAll('a').some((a) => a.attr('href') === 'https://blog.acme.example')).toBe(true);
    expect(JSON.parse(readFileSync(join(out, '_redirects.json'), 'utf8'))).toEqual({ '/start': '/quickstart' });
  });
});

describe('docs migrate', () => {
  /** A copy of a fixture (or these files) to migrate. */
  const copy = (fixture: string) => {
    const dir = join(tempDir(), fixture);
    cpSync(join(FIXTURES, fixture), dir, { recursive: true });
    return dir;
  };
  const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

  it("rewrites docs.page's docs.json with our names, printing each change, keeping its indentation", async () => {
    const dir = copy('config-docs-page');
    const { code, stdout } = await docs('migrate', dir);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "$schema: removed (it named docs.page's schema)",
        'header.showGitHubCard -> header.showCodeHostCard',
        'social.github -> social.codeHost ("https://github.com/acme")',
        'social.x -> social.microblog ("https://x.com/acme")',
        'social.discord -> social.communityChat',
        'scripts.googleTagManager -> scripts.vendorTagManager',
        'scripts.googleAnalytics -> scripts.vendorAnalytics',
        'scripts.plausible -> scripts.altAnalytics',
        'og.github -> og.codeHost',
        '',
        'Rewrote docs.json.',
        '',
      ].join('\n'),
    );
    expect(read(dir, 'docs.json')).toBe(
      `{
  "name": "Acme",
  "description": "Acme widgets, documented for docs.page.",
  "theme": {
    "primary": "#0e7490"
  },
  "header": {
    "showCodeHostCard": true,
    "links": [
      {
        "title": "Get started",
        "href": "/quickstart",
        "cta": true
      }
    ]
  },
  "sidebar": [
    {
      "group": "Getting started",
      "pages": [
        {
          "title": "Introduction",
          "href": "/"
        },
        {
          "title": "Quickstart",
          "href": "/quickstart"
        }
      ]
    }
  ],
  "social": {
    "website": "https://acme.example",
    "codeHost": "https://github.com/acme",
    "microblog": "https://x.com/acme",
    "communityChat": "https://discord.gg/acme"
  },
  "scripts": {
    "vendorTagManager": "GTM-ABC123",
    "vendorAnalytics": "G-ABC123",
    "altAnalytics": true
  },
  "og": {
    "codeHost": false
  }
}
`,
    );
    const check = await docs('check', dir, '--strict');
    expect(check.stdout).toContain('No problems found.');
    expect(check.code).toBe(0);
  });

  it('keeps a docs.yaml YAML, with its comments and order', async () => {
    const dir = site({
      'docs.yaml': `# Acme (docs.page)
name: Acme
scripts:
  # Google Tag Manager
  googleTagManager: GTM-ABC123 # the container
social:
  github: acme # the organisation
  website: https://acme.example
header:
  showGitHubCard: false
`,
    });
    const { code, stdout } = await docs('migrate', dir);
    expect(code).toBe(0);
    expect(stdout).toBe(
      ['scripts.googleTagManager -> scripts.vendorTagManager', 'social.github -> social.codeHost ("https://github.com/acme")', 'header.showGitHubCard -> header.showCodeHostCard', '', 'Rewrote docs.yaml.', ''].join('\n'),
    );
    expect(read(dir, 'docs.yaml')).toBe(`# Acme (docs.page)
name: Acme
scripts:
  # Google Tag Manager
  vendorTagManager: GTM-ABC123 # the container
social:
  codeHost: https://github.com/acme # the organisation
  website: https://acme.example
header:
  showCodeHostCard: false
`);
  });

  it("rewrites Mintlify's docs.json: keys moved where ours are, keys with no equivalent removed", async () => {
    const dir = copy('config-mintlify');
    const { code, stdout } = await docs('migrate', dir);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "$schema: removed (it named Mintlify's schema)",
        "theme: removed (Mintlify's setting for the layout theme, such as `mint` or `maple`; nothing here does that)",
        'colors.primary -> theme.primary ("#0D9373")',
        'colors.light -> theme.primaryDark ("#07C983")',
        "colors.dark: removed (Mintlify's setting for the colour of buttons and hover states; nothing here does that)",
        'logo -> logo.light ("/logo.svg")',
        'navigation -> tabs, sidebar, anchors',
        'navbar -> header.links',
        'footer.socials.x -> social.microblog ("https://x.com/acme")',
        'footer.socials.github -> social.codeHost ("https://github.com/acme")',
        'integrations.gtm.tagId -> scripts.vendorTagManager ("GTM-ABC123")',
        'redirects: rewritten (a list of `{ source, destination }`)',
        "fonts: removed (Mintlify's setting for custom fonts; nothing here does that)",
        "search.prompt: removed (Mintlify's setting for the placeholder of the search box; nothing here does that)",
        '',
        'Rewrote docs.json.',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(read(dir, 'docs.json'))).toEqual({
      theme: { primary: '#0D9373', primaryDark: '#07C983' },
      name: 'Acme',
      logo: { light: '/logo.svg' },
      favicon: '/favicon.svg',
      tabs: [
        { id: 'guides', title: 'Guides', href: '/' },
        { id: 'api-reference', title: 'API reference', href: '/api/overview' },
      ],
      sidebar: [
        { group: 'Get started', tab: 'guides', pages: [{ title: 'Welcome', href: '/' }, { title: 'Quickstart', href: '/quickstart' }] },
        { group: 'Endpoints', tab: 'api-reference', pages: [{ title: 'API overview', href: '/api/overview' }] },
      ],
      anchors: [{ icon: 'newspaper', title: 'Blog', href: 'https://blog.acme.example' }],
      header: {
        links: [
          { title: 'Support', href: 'mailto:support@acme.example' },
          { title: 'Dashboard', href: 'https://app.acme.example', cta: true },
        ],
      },
      social: { microblog: 'https://x.com/acme', codeHost: 'https://github.com/acme' },
      scripts: { vendorTagManager: 'GTM-ABC123' },
      redirects: { '/start': '/quickstart' },
    });
    expect(read(dir, 'docs.json')).toMatch(/^\{\n {2}"theme": \{\n {4}"primary"/);
    const check = await docs('check', dir, '--strict');
    expect(check.stdout).toContain('No problems found.');
  });

  it('migrates a mint.json without docs.json into docs.json, leaving mint.json as it was', async () => {
    const dir = copy('config-mint-json');
    const before = read(dir, 'mint.json');
    const { code, stdout } = await docs('migrate', dir);
    expect(code).toBe(0);
    expect(stdout.split('\n').slice(0, 3)).toEqual(['mint.json -> docs.json', "$schema: removed (it named Mintlify's schema)", 'colors.primary -> theme.primary ("#0D9373")']);
    expect(stdout).toContain('tabs: rewritten (`{ name, url }` with `url` a folder)\n');
    expect(stdout).toContain('footerSocials -> social.microblog, social.codeHost\n');
    expect(stdout).toMatch(/\nWrote docs\.json \(mint\.json is left as it was: delete it once `docs check` is happy\)\.\n$/);
    expect(read(dir, 'mint.json')).toBe(before);
    expect(read(dir, 'docs.json')).toBe(`{
  "name": "Acme",
  "logo": {
    "light": "/logo/light.svg",
    "dark": "/logo/dark.svg"
  },
  "favicon": "/favicon.svg",
  "theme": {
    "primary": "#0D9373",
    "primaryDark": "#07C983",
    "backgroundDark": "#0a0a0a",
    "defaultTheme": "dark"
  },
  "header": {
    "links": [
      {
        "title": "Support",
        "href": "mailto:support@acme.example"
      },
      {
        "title": "Dashboard",
        "href": "https://app.acme.example",
        "cta": true
      }
    ]
  },
  "tabs": [
    {
      "id": "documentation",
      "title": "Documentation",
      "href": "/introduction"
    },
    {
      "id": "api-reference",
      "title": "API Reference",
      "href": "/api-reference/overview"
    }
  ],
  "anchors": [
    {
      "icon": "discord",
      "title": "Community",
      "href": "https://discord.gg/acme"
    }
  ],
  "sidebar": [
    {
      "group": "Get Started",
      "tab": "documentation",
      "pages": [
        {
          "title": "Introduction",
          "href": "/introduction"
        },
        {
          "title": "Quickstart",
          "href": "/quickstart"
        }
      ]
    },
    {
      "group": "Endpoints",
      "tab": "api-reference",
      "pages": [
        {
          "title": "API overview",
          "href": "/api-reference/overview"
        }
      ]
    }
  ],
  "social": {
    "microblog": "https://x.com/acme",
    "codeHost": "https://github.com/acme"
  },
  "scripts": {
    "vendorAnalytics": "G-ABC123"
  },
  "redirects": {
    "/start": "/quickstart",
    "/": "/introduction"
  }
}
`);
  });

  it('--dry-run prints the same changes and writes nothing', async () => {
    const docsPage = copy('config-docs-page');
    const mint = copy('config-mint-json');
    const before = read(docsPage, 'docs.json');
    const dry = await docs('migrate', docsPage, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^\$schema: removed \(it named docs\.page's schema\)\nheader\.showGitHubCard -> header\.showCodeHostCard\n/);
    expect(dry.stdout).toMatch(/\n--dry-run: docs\.json was not written\.\n$/);
    expect(read(docsPage, 'docs.json')).toBe(before);
    const dryMint = await docs('migrate', mint, '--dry-run');
    expect(dryMint.stdout).toMatch(/^mint\.json -> docs\.json\n/);
    expect(existsSync(join(mint, 'docs.json'))).toBe(false);
  });

  it('says so when there is nothing to migrate, and fails without a configuration file', async () => {
    const dir = site({ 'docs.json': '{ "name": "Acme" }\n' });
    const nothing = await docs('migrate', dir);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe("Nothing to migrate: docs.json already uses this project's names.\n");
    const none = await docs('migrate', tempDir());
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^docs migrate: no docs\.json, docs\.yaml, docs\.yml or mint\.json in /);
  });

  it('docs check suggests it when it sees another tool\'s names', async () => {
    const { code, stderr } = await docs('check', join(FIXTURES, 'config-docs-page'), '--strict');
    expect(code).toBe(0);
    expect(stderr).toContain("docs.json:7:5  info  header.showGitHubCard  `header.showGitHubCard` is docs.page's name for `header.showCodeHostCard`: rename it (or run `docs migrate`)");
  });
});

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>';

describe("pages written for Mintlify: their frontmatter keys", () => {
  it('og:image is read as image; keys nothing here does are one note each, never a warning', () => {
    const page = [
      '---',
      'title: Quickstart',
      'sidebarTitle: Start',
      'icon: rocket',
      'mode: wide',
      '"og:image": /images/cover.png',
      '"og:title": Quick',
      '---',
      '# Quickstart',
      '',
    ].join('\n');
    const { data, problems } = validateFrontmatter('quickstart.mdx', page);
    expect(data).toEqual({ title: 'Quickstart', image: '/images/cover.png' });
    expect(problems.map(formatProblem)).toEqual([
      "quickstart.mdx:3:1  info  sidebarTitle  `sidebarTitle` is Mintlify's setting for the page's title in the sidebar: read when docs.json's navigation is Mintlify's (a sidebar of ours sets the entry's `title`)",
      "quickstart.mdx:4:1  info  icon  `icon` is Mintlify's setting for the page's icon in the sidebar: read when docs.json's navigation is Mintlify's (a sidebar of ours sets the entry's `icon`)",
      "quickstart.mdx:5:1  info  mode  `mode` is Mintlify's setting for the page's layout (wide, custom, center, frame); nothing here does that (ignored)",
      "quickstart.mdx:6:1  info  og:image  `og:image` is Mintlify's name for `image`: rename it",
      "quickstart.mdx:7:1  info  og:title  `og:title` is Mintlify's setting for a meta tag of the page (set by the site here); nothing here does that (ignored)",
    ]);
    expect(shouldFail(problems, { strict: true })).toBe(false);
  });

  it('our own key wins over its Mintlify name; an unknown key is still a warning', () => {
    const { data, problems } = validateFrontmatter('a.mdx', '---\nimage: /ours.png\n"og:image": /theirs.png\nsidebarTitel: x\n---\n');
    expect(data).toEqual({ image: '/ours.png' });
    expect(problems.map((p) => `${p.severity} ${p.message}`)).toEqual([
      "info `og:image` is Mintlify's name for `image`: rename it (ignored: `image` is set)",
      expect.stringMatching(/^warning Unknown key `sidebarTitel` \(ignored\)/),
    ]);
  });
});
