import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { pathToString, type Location, type PathSegment, type Problem } from './problems.ts';

/**
 * Other tools' names for our configuration keys (docs/docs-site-config.md, "Keys from docs.page and Mintlify").
 *
 * Repositories written for docs.page or Mintlify name keys their way (`social.github`, `colors.primary`,
 * `integrations.gtm.tagId`, Mintlify's `navigation`). `VENDOR_KEYS` is the table: for each of their keys, our key
 * (the value goes there and behaves exactly as if written so), or what it does there when nothing here does the
 * same (it is ignored). `applyAliases` applies the table to a parsed file before validation; `docs check` reports
 * each use as a note (`info`, which never fails a build, not even `--strict`), `/schema.json` lists the keys as
 * deprecated, and `docs migrate` rewrites a file with our names.
 *
 * The table is data. A value that is not written the same way (a list of redirects, a profile name instead of a
 * URL, Mintlify's navigation) names one of the few conversions in `CONVERSIONS`.
 */

/** The shapes a vendor key is recognised by when one of our keys has the same name (`theme`: our object, Mintlify's string). */
export type Shape =
  /** A string. */
  | 'string'
  /** `#RRGGBB` or `RRGGBB` (docs.page version 1's `theme`). */
  | 'colour'
  /** A string that is not a colour (Mintlify's `theme`: `mint`, `maple`...). */
  | 'notColour'
  /** An array (Mintlify's `redirects`). */
  | 'array'
  /** An array of `{ name, url }` objects (mint.json's `tabs`, `anchors`). */
  | 'nameUrlItems'
  /** An array of anchors with `link` (docs.page version 1). */
  | 'linkItems'
  /** `[title, href]` / `[title, [[title, href], ...]]` tuples, or an object of locales to them (docs.page version 1). */
  | 'tuples'
  /** An object of strings (mint.json's `sidebar: { items: "container" }`). */
  | 'styleObject';

/** Conversions that leave most values as they are (`#abc` -> `#aabbcc`): a rename unless the value changed. */
const VALUE_FIXES: ReadonlySet<ConversionName> = new Set(['hex']);

export type ConversionName =
  | 'not'
  | 'hex'
  | 'appearance'
  | 'redirects'
  | 'plausible'
  | 'robots'
  | 'bannerColor'
  | 'navbar'
  | 'topbarLinks'
  | 'topbarCta'
  | 'footerSocials'
  | 'navigation'
  | 'nameUrlTabs'
  | 'nameUrlAnchors'
  | 'tupleSidebar'
  | 'linkAnchors'
  | 'v1Plausible'
  | 'consumed';

export interface VendorKey {
  /** The tool, as the notes name it: `docs.page`, `docs.page v1` (its first format), `Mintlify`, `mint.json` (Mintlify's first format). */
  vendor: string;
  /** Where the key is in that tool's file: a dotted path (`social.github`, `seo.metatags.robots`). */
  key: string;
  /** Our key (or keys, `tabs, sidebar, anchors`) the value goes to. Absent: nothing here does the same; ignored. */
  ours?: string;
  /** How the value is written our way (`CONVERSIONS`); absent: as it is. */
  convert?: ConversionName;
  /** A profile name (`acme`) becomes this URL (`{name}`: the value, `{handle}`: without a leading `@`); URLs stay. */
  profile?: string;
  /** Only values of this shape are this tool's key (our key of the same name takes the others). */
  when?: Shape;
  /**
   * What it does in that tool, a noun phrase (`custom fonts`): for ignored keys, and for values written
   * differently (`the opposite value`).
   */
  does?: string;
  /** For ignored keys: what happens here instead (default: nothing here does that). */
  instead?: string;
}

/** Mintlify's footer social networks -> our `social` keys (the networks with no place here are ignored). */
export const MINTLIFY_NETWORKS: Readonly<Record<string, string>> = {
  website: 'website',
  'earth-americas': 'website',
  x: 'microblog',
  twitter: 'microblog',
  'x-twitter': 'microblog',
  youtube: 'video',
  facebook: 'socialNetwork',
  instagram: 'photoSharing',
  linkedin: 'professionalNetwork',
  github: 'codeHost',
  slack: 'workspaceChat',
  discord: 'communityChat',
};
const MINTLIFY_NETWORKS_WITHOUT_PLACE = ['bluesky', 'threads', 'reddit', 'telegram', 'medium', 'hacker-news', 'podcast'];

const DOCS_PAGE = 'docs.page';
const DOCS_PAGE_V1 = 'docs.page v1';
const MINTLIFY = 'Mintlify';
const MINT_JSON = 'mint.json';

/**
 * The table, in the order it is applied: a key's specific entries before the entry for what is left of it
 * (`seo.metatags.robots` before `seo.metatags`), shapes before the keys they share a name with.
 */
export const VENDOR_KEYS: readonly VendorKey[] = [
  // docs.page: the same configuration file as ours, with vendors' names in four places.
  { vendor: DOCS_PAGE, key: 'scripts.googleTagManager', ours: 'scripts.vendorTagManager' },
  { vendor: DOCS_PAGE, key: 'scripts.googleAnalytics', ours: 'scripts.vendorAnalytics' },
  { vendor: DOCS_PAGE, key: 'scripts.plausible', ours: 'scripts.altAnalytics' },
  { vendor: DOCS_PAGE, key: 'header.showGitHubCard', ours: 'header.showCodeHostCard' },
  { vendor: DOCS_PAGE, key: 'og.github', ours: 'og.codeHost' },
  { vendor: DOCS_PAGE, key: 'social.x', ours: 'social.microblog', profile: 'https://x.com/{handle}' },
  { vendor: DOCS_PAGE, key: 'social.twitter', ours: 'social.microblog', profile: 'https://x.com/{handle}' },
  { vendor: DOCS_PAGE, key: 'social.youtube', ours: 'social.video', profile: 'https://www.youtube.com/{name}' },
  { vendor: DOCS_PAGE, key: 'social.facebook', ours: 'social.socialNetwork', profile: 'https://www.facebook.com/{handle}' },
  { vendor: DOCS_PAGE, key: 'social.instagram', ours: 'social.photoSharing', profile: 'https://www.instagram.com/{handle}' },
  { vendor: DOCS_PAGE, key: 'social.linkedin', ours: 'social.professionalNetwork', profile: 'https://www.linkedin.com/company/{handle}' },
  { vendor: DOCS_PAGE, key: 'social.github', ours: 'social.codeHost', profile: 'https://github.com/{handle}' },
  { vendor: DOCS_PAGE, key: 'social.slack', ours: 'social.workspaceChat', profile: 'https://{handle}.slack.com' },
  { vendor: DOCS_PAGE, key: 'social.discord', ours: 'social.communityChat', profile: 'https://discord.gg/{handle}' },

  // docs.page's first configuration format (still read by docs.page): flat keys.
  { vendor: DOCS_PAGE_V1, key: 'logoDark', ours: 'logo.dark' },
  { vendor: DOCS_PAGE_V1, key: 'theme', when: 'colour', ours: 'theme.primary', convert: 'hex', does: 'the primary colour' },
  { vendor: DOCS_PAGE_V1, key: 'twitter', ours: 'social.microblog', profile: 'https://x.com/{handle}' },
  { vendor: DOCS_PAGE_V1, key: 'noindex', ours: 'seo.noindex' },
  { vendor: DOCS_PAGE_V1, key: 'headerDepth', ours: 'content.headerDepth' },
  { vendor: DOCS_PAGE_V1, key: 'zoomImages', ours: 'content.zoomImages' },
  { vendor: DOCS_PAGE_V1, key: 'automaticallyInferNextPrevious', ours: 'content.automaticallyInferNextPrevious' },
  { vendor: DOCS_PAGE_V1, key: 'automaticallyDisplayName', ours: 'header.showName' },
  { vendor: DOCS_PAGE_V1, key: 'googleTagManager', ours: 'scripts.vendorTagManager' },
  { vendor: DOCS_PAGE_V1, key: 'googleAnalytics', ours: 'scripts.vendorAnalytics' },
  { vendor: DOCS_PAGE_V1, key: 'plausibleAnalytics', ours: 'scripts.altAnalytics', convert: 'v1Plausible', does: '`true` turns Plausible on, with `plausibleAnalyticsScript` as its script' },
  { vendor: DOCS_PAGE_V1, key: 'plausibleAnalyticsScript', ours: 'scripts.altAnalytics', convert: 'consumed', does: 'the Plausible script used with `plausibleAnalytics`' },
  { vendor: DOCS_PAGE_V1, key: 'docsearch', ours: 'search.docsearch' },
  { vendor: DOCS_PAGE_V1, key: 'sidebar', when: 'tuples', ours: 'sidebar', convert: 'tupleSidebar', does: '`[title, href]` pairs' },
  { vendor: DOCS_PAGE_V1, key: 'anchors', when: 'linkItems', ours: 'anchors', convert: 'linkAnchors', does: '`link` for `href`' },
  { vendor: DOCS_PAGE_V1, key: 'experimentalCodehike', does: 'Code Hike code blocks', instead: 'code blocks are highlighted by Shiki here' },
  { vendor: DOCS_PAGE_V1, key: 'experimentalMath', does: 'math rendering', instead: 'math (`$…$`) needs no setting here' },

  // Mintlify: docs.json (and the keys mint.json had before it).
  { vendor: MINTLIFY, key: 'theme', when: 'notColour', does: 'the layout theme, such as `mint` or `maple`' },
  { vendor: MINTLIFY, key: 'logo', when: 'string', ours: 'logo.light' },
  { vendor: MINTLIFY, key: 'logo.href', does: 'where the logo links to', instead: 'the logo links to the home page here' },
  { vendor: MINTLIFY, key: 'colors.primary', ours: 'theme.primary', convert: 'hex' },
  { vendor: MINTLIFY, key: 'colors.light', ours: 'theme.primaryDark', convert: 'hex' },
  { vendor: MINTLIFY, key: 'colors.dark', does: 'the colour of buttons and hover states' },
  { vendor: MINT_JSON, key: 'colors.background.light', ours: 'theme.backgroundLight', convert: 'hex' },
  { vendor: MINT_JSON, key: 'colors.background.dark', ours: 'theme.backgroundDark', convert: 'hex' },
  { vendor: MINT_JSON, key: 'colors.anchors', does: 'the colour of sidebar anchors' },
  { vendor: MINTLIFY, key: 'background.color.light', ours: 'theme.backgroundLight', convert: 'hex' },
  { vendor: MINTLIFY, key: 'background.color.dark', ours: 'theme.backgroundDark', convert: 'hex' },
  { vendor: MINTLIFY, key: 'background.decoration', does: 'a decorative background pattern' },
  { vendor: MINTLIFY, key: 'background.image', does: 'a background image' },
  { vendor: MINT_JSON, key: 'backgroundImage', does: 'a background image' },
  { vendor: MINTLIFY, key: 'appearance.default', ours: 'theme.defaultTheme', convert: 'appearance', does: '`system` is the default here' },
  { vendor: MINTLIFY, key: 'appearance.strict', ours: 'header.showThemeToggle', convert: 'not', does: 'the opposite value' },
  { vendor: MINT_JSON, key: 'modeToggle.default', ours: 'theme.defaultTheme' },
  { vendor: MINT_JSON, key: 'modeToggle.isHidden', ours: 'header.showThemeToggle', convert: 'not', does: 'the opposite value' },
  { vendor: MINTLIFY, key: 'navigation', ours: 'tabs, sidebar, anchors', convert: 'navigation', does: 'page paths for `{ title, href }`, divisions for tabs' },
  { vendor: MINT_JSON, key: 'tabs', when: 'nameUrlItems', ours: 'tabs', convert: 'nameUrlTabs', does: '`{ name, url }` with `url` a folder' },
  { vendor: MINT_JSON, key: 'primaryTab', ours: 'tabs', convert: 'consumed', does: 'the title of the first tab' },
  { vendor: MINT_JSON, key: 'anchors', when: 'nameUrlItems', ours: 'anchors', convert: 'nameUrlAnchors', does: '`{ name, url }`' },
  { vendor: MINT_JSON, key: 'topAnchor', does: 'the name and icon of the first sidebar anchor' },
  { vendor: MINT_JSON, key: 'versions', does: 'the version switcher' },
  { vendor: MINT_JSON, key: 'sidebar', when: 'styleObject', does: 'the style of sidebar items' },
  { vendor: MINTLIFY, key: 'navbar', ours: 'header.links', convert: 'navbar', does: '`label` for `title`, `primary` for the call to action' },
  { vendor: MINT_JSON, key: 'topbarLinks', ours: 'header.links', convert: 'topbarLinks', does: '`name` and `url`' },
  { vendor: MINT_JSON, key: 'topbarCtaButton', ours: 'header.links', convert: 'topbarCta', does: 'a call-to-action link' },
  ...Object.entries(MINTLIFY_NETWORKS).map(([network, ours]): VendorKey => ({ vendor: MINTLIFY, key: `footer.socials.${network}`, ours: `social.${ours}` })),
  ...MINTLIFY_NETWORKS_WITHOUT_PLACE.map((network): VendorKey => ({ vendor: MINTLIFY, key: `footer.socials.${network}`, does: `a footer link to ${network}`, instead: 'the footer here has no place for that network' })),
  { vendor: MINTLIFY, key: 'footer.links', does: 'columns of links in the footer' },
  { vendor: MINT_JSON, key: 'footerSocials', ours: 'social', convert: 'footerSocials', does: 'network names for our `social` keys' },
  { vendor: MINTLIFY, key: 'banner.content', ours: 'banner.message' },
  { vendor: MINTLIFY, key: 'banner.color', ours: 'banner.backgroundColor', convert: 'bannerColor', does: 'one colour, or `{ light, dark }`' },
  { vendor: MINTLIFY, key: 'banner.dismissible', does: 'a button that closes the banner' },
  { vendor: MINTLIFY, key: 'banner.type', does: 'the banner style, such as `info` or `warning`' },
  { vendor: MINTLIFY, key: 'redirects', when: 'array', ours: 'redirects', convert: 'redirects', does: 'a list of `{ source, destination }`' },
  { vendor: MINTLIFY, key: 'seo.metatags.robots', ours: 'seo.noindex', convert: 'robots', does: '`noindex` for `true`' },
  { vendor: MINTLIFY, key: 'seo.metatags.google-site-verification', ours: 'scripts.vendorSiteVerification' },
  { vendor: MINTLIFY, key: 'seo.metatags', does: 'more meta tags on every page' },
  { vendor: MINTLIFY, key: 'seo.indexing', does: 'indexing the pages left out of the navigation', instead: 'every page is indexed here unless it says `noindex`' },
  { vendor: MINT_JSON, key: 'seo.indexHiddenPages', does: 'indexing the pages left out of the navigation', instead: 'every page is indexed here unless it says `noindex`' },
  { vendor: MINT_JSON, key: 'metadata.robots', ours: 'seo.noindex', convert: 'robots', does: '`noindex` for `true`' },
  { vendor: MINT_JSON, key: 'metadata.google-site-verification', ours: 'scripts.vendorSiteVerification' },
  { vendor: MINTLIFY, key: 'metadata', does: 'page metadata: the last-modified date, or meta tags in mint.json' },
  { vendor: MINTLIFY, key: 'search.prompt', does: 'the placeholder of the search box' },
  { vendor: MINTLIFY, key: 'integrations.gtm.tagId', ours: 'scripts.vendorTagManager' },
  { vendor: MINTLIFY, key: 'integrations.ga4.measurementId', ours: 'scripts.vendorAnalytics' },
  { vendor: MINTLIFY, key: 'integrations.plausible', ours: 'scripts.altAnalytics', convert: 'plausible', does: '`{ domain, server }`; the domain is the one a page is served on here' },
  { vendor: MINTLIFY, key: 'integrations', does: 'other analytics, chat and consent integrations' },
  { vendor: MINT_JSON, key: 'analytics.gtm.tagId', ours: 'scripts.vendorTagManager' },
  { vendor: MINT_JSON, key: 'analytics.ga4.measurementId', ours: 'scripts.vendorAnalytics' },
  { vendor: MINT_JSON, key: 'analytics.plausible', ours: 'scripts.altAnalytics', convert: 'plausible', does: '`{ domain, server }`; the domain is the one a page is served on here' },
  { vendor: MINT_JSON, key: 'analytics', does: 'other analytics integrations' },
  { vendor: MINTLIFY, key: 'fonts', does: 'custom fonts' },
  { vendor: MINT_JSON, key: 'font', does: 'custom fonts' },
  { vendor: MINTLIFY, key: 'icons', does: 'the icon library' },
  { vendor: MINTLIFY, key: 'styling', does: 'eyebrows, code block themes and LaTeX styles' },
  { vendor: MINTLIFY, key: 'thumbnails', does: 'the look of social preview images' },
  { vendor: MINTLIFY, key: 'interaction', does: 'opening the first page of a navigation group' },
  { vendor: MINTLIFY, key: 'contextual', does: 'the page menu that copies a page or opens it in an assistant' },
  { vendor: MINTLIFY, key: 'errors', does: 'the 404 page', instead: 'a `404.mdx` page is the 404 page here' },
  { vendor: MINTLIFY, key: 'api', does: 'the API playground and OpenAPI settings' },
  { vendor: MINT_JSON, key: 'openapi', does: 'OpenAPI files for API pages' },
  { vendor: MINT_JSON, key: 'feedback', does: 'feedback buttons on pages' },
  { vendor: MINT_JSON, key: 'isWhiteLabeled', does: 'hiding the Mintlify attribution' },
  { vendor: MINT_JSON, key: 'mintlify', does: 'the Mintlify version' },
  { vendor: MINT_JSON, key: 'layout', does: 'the page layout' },
  { vendor: MINT_JSON, key: 'rounded', does: 'rounded corners' },
  { vendor: MINT_JSON, key: 'codeBlock', does: 'the code block style' },
  { vendor: MINT_JSON, key: 'topbar', does: 'the top bar style' },
  { vendor: MINTLIFY, key: '$ref', does: 'reading part of the configuration from another file', instead: 'that file is not read here' },
];

// ---------------------------------------------------------------------------------------------------------
// Messages (docs check, /schema.json)

const code = (text: string) => `\`${text}\``;
const oursList = (ours: string) =>
  ours
    .split(', ')
    .map(code)
    .join(', ')
    .replace(/, ([^,]*)$/, ' and $1');

/**
 * What `docs check` says about a key of the table (a note), also the description of its `/schema.json` entry.
 * `converted`: the value is written differently here (a conversion, a profile name that becomes a URL).
 */
export function aliasMessage(entry: VendorKey, converted = entry.convert !== undefined && !VALUE_FIXES.has(entry.convert)): string {
  const key = code(entry.key);
  if (entry.ours === undefined) return `${key} is ${entry.vendor}'s setting for ${entry.does ?? 'something else'}; ${entry.instead ?? 'nothing here does that'} (ignored)`;
  if (!converted) return `${key} is ${entry.vendor}'s name for ${oursList(entry.ours)}: rename it (or run \`docs migrate\`)`;
  const how = entry.does ?? (entry.profile ? `a profile name, here \`${entry.profile.replace(/\{\w+\}/, '<name>')}\`` : 'written differently');
  if (entry.ours === entry.key) return `${key} is written ${entry.vendor}'s way (${how}): run \`docs migrate\` to rewrite it`;
  return `${key} is ${entry.vendor}'s name for ${oursList(entry.ours)} (${how}): run \`docs migrate\` to rewrite it`;
}

/**
 * The vendor key and the key it stands for are both set (a warning: the vendor value is not used). `winner`: our
 * key, or the vendor key that set it first (`social.x` before `social.twitter`).
 */
export function conflictMessage(entry: VendorKey, winner: string): string {
  const ours = oursList(entry.ours ?? '');
  const setBy = entry.ours?.split(', ').includes(winner) ? 'which is set too' : `which ${code(winner)} sets too`;
  return `${code(entry.key)} is ${entry.vendor}'s name for ${ours}, ${setBy}: ${code(winner)} wins and ${code(entry.key)} is ignored`;
}

// ---------------------------------------------------------------------------------------------------------
// Applying the table

export interface AliasUse {
  entry: VendorKey;
  /** Where the key is in the file. */
  from: PathSegment[];
  /** The value in the file. */
  value: unknown;
  /** The paths of ours it set (none: ignored, or a conflict). */
  to: PathSegment[][];
  /** Set when our key (or an earlier vendor key for it) is set too: the key that wins; this value is not used. */
  conflict?: string;
  /** Whether the value was written differently (`false` for a plain rename). */
  converted: boolean;
  /** What the conversion left out (`OpenAPI endpoint pages have no page here`). */
  notes: string[];
}

export interface AliasResult {
  /** The input with every vendor key replaced by ours (or removed). */
  data: Record<string, unknown>;
  /** Every key of the table found, in the order applied. */
  uses: AliasUse[];
  /** A path of `data` -> where its value is in the file (the vendor key it came from, else the path itself). */
  origin(path: readonly PathSegment[]): PathSegment[];
}

export interface AliasOptions {
  /** The site folder: Mintlify's navigation names pages by path, and their titles are read from the pages. */
  dir?: string;
}

interface Converted {
  sets: [PathSegment[], unknown][];
  /** Set once every key is read, only where nothing is set (no conflict): the home redirect of a navigation. */
  defaults?: [PathSegment[], unknown][];
  /** Our path -> the file's path, finer than the key (a sidebar page -> its entry in `navigation`). */
  origins?: [PathSegment[], PathSegment[]][];
  notes?: string[];
}

interface ConversionContext {
  entry: VendorKey;
  /** The whole file as parsed (conversions that read a sibling: `plausibleAnalyticsScript`, mint.json `tabs`). */
  input: Record<string, unknown>;
  from: PathSegment[];
  ours: PathSegment[];
  dir?: string | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const keyOf = (path: readonly PathSegment[]) => JSON.stringify(path);
export const splitKey = (key: string): string[] => key.split('.');

function getAt(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[String(segment)];
    else return undefined;
  }
  return node;
}

const COLOUR = /^#?[0-9a-fA-F]{6}$/;

export function hasShape(value: unknown, shape: Shape | undefined): boolean {
  switch (shape) {
    case undefined:
      return true;
    case 'string':
      return typeof value === 'string';
    case 'colour':
      return typeof value === 'string' && COLOUR.test(value);
    case 'notColour':
      return typeof value === 'string' && !COLOUR.test(value);
    case 'array':
      return Array.isArray(value);
    case 'nameUrlItems':
      return Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && ('name' in item || 'url' in item) && !('title' in item) && !('href' in item));
    case 'linkItems':
      return Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && 'link' in item && !('href' in item));
    case 'tuples': {
      const tuples = (items: unknown) => Array.isArray(items) && items.length > 0 && items.every(Array.isArray);
      return tuples(value) || (isObject(value) && Object.keys(value).length > 0 && Object.values(value).every(tuples));
    }
    case 'styleObject':
      return isObject(value) && Object.keys(value).length > 0 && Object.values(value).every((v) => typeof v === 'string');
  }
}

const isUrlOrPath = (value: string) => /^(?:[a-z][a-z0-9+.-]*:|\/|\.)/i.test(value);

/** `acme` -> `https://github.com/acme` (`profile` template); URLs, paths and non-strings stay as they are. */
export function expandProfile(template: string, value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '' || isUrlOrPath(value.trim())) return value;
  const name = value.trim();
  return template.replace('{name}', name).replace('{handle}', name.replace(/^@/, ''));
}

/** Applies `VENDOR_KEYS` to a parsed configuration (never throws; the result is validated as usual). */
export function applyAliases(input: Record<string, unknown>, options: AliasOptions = {}): AliasResult {
  const data = structuredClone(input);
  const uses: AliasUse[] = [];
  /** Paths set from vendor keys -> the use that set them. */
  const placed = new Map<string, AliasUse>();
  const origins = new Map<string, { from: PathSegment[]; exact: boolean }>();
  const defaults: { target: PathSegment[]; value: unknown; from: PathSegment[] }[] = [];

  for (const entry of VENDOR_KEYS) {
    const from = splitKey(entry.key);
    const parent = getAt(data, from.slice(0, -1));
    const last = from.at(-1)!;
    if (!isObject(parent) || !Object.hasOwn(parent, last)) continue;
    const value = parent[last];
    if (!hasShape(value, entry.when)) continue;
    delete parent[last];
    // What is left of a key whose parts were all taken by earlier entries (`seo.metatags` after `robots`).
    if (entry.ours === undefined && isObject(value) && Object.keys(value).length === 0 && Object.keys(getAt(input, from) as object).length > 0) continue;
    removeEmptyParents(data, from);

    const use: AliasUse = { entry, from, value, to: [], converted: false, notes: [] };
    uses.push(use);
    if (entry.ours === undefined) continue;

    const ours = splitKey(entry.ours.split(', ')[0]!);
    let converted: Converted;
    if (entry.convert) converted = CONVERSIONS[entry.convert](value, { entry, input, from, ours, dir: options.dir });
    else if (entry.profile) converted = { sets: [[ours, expandProfile(entry.profile, value)]] };
    else converted = { sets: [[ours, value]] };
    use.converted = (entry.convert !== undefined && !VALUE_FIXES.has(entry.convert)) || converted.sets.some(([, v]) => v !== value);
    use.notes.push(...(converted.notes ?? []));
    for (const [target, value] of converted.defaults ?? []) defaults.push({ target, value, from });

    for (const [target, targetValue] of converted.sets) {
      const existing = getAt(data, target);
      const earlier = placed.get(keyOf(target));
      const taken = takenAt(data, target);
      if (taken && !(earlier && Array.isArray(existing) && Array.isArray(targetValue))) {
        use.conflict = earlier && taken.length === target.length ? pathToString(earlier.from) : pathToString(taken);
        continue;
      }
      setAt(data, target, Array.isArray(existing) && Array.isArray(targetValue) ? [...existing, ...targetValue] : targetValue);
      placed.set(keyOf(target), use);
      use.to.push(target);
      if (!origins.has(keyOf(target))) origins.set(keyOf(target), { from, exact: !entry.convert && !entry.when });
    }
    if (use.to.length > 0) for (const [ourPath, fromPath] of converted.origins ?? []) origins.set(keyOf(ourPath), { from: fromPath, exact: false });
  }
  for (const { target, value, from } of defaults) {
    if (takenAt(data, target)) continue;
    setAt(data, target, value);
    origins.set(keyOf(target), { from, exact: false });
  }

  return {
    data,
    uses,
    origin(path) {
      for (let n = path.length; n > 0; n--) {
        const found = origins.get(keyOf(path.slice(0, n)));
        if (found) return found.exact ? [...found.from, ...path.slice(n)] : [...found.from];
      }
      return [...path];
    },
  };
}

/** Where a value for `target` would clash: the target itself when it is set, or a parent that is not an object. */
function takenAt(data: Record<string, unknown>, target: readonly PathSegment[]): PathSegment[] | undefined {
  let node: unknown = data;
  for (let i = 0; i < target.length; i++) {
    if (!isObject(node)) return target.slice(0, i);
    const segment = String(target[i]);
    if (!Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return [...target];
}

function setAt(data: Record<string, unknown>, path: readonly PathSegment[], value: unknown): void {
  let node = data;
  for (const segment of path.slice(0, -1)) {
    const next = node[String(segment)];
    if (!isObject(next)) node[String(segment)] = {};
    node = node[String(segment)] as Record<string, unknown>;
  }
  node[String(path.at(-1))] = value;
}

/** Objects left empty by taking a vendor key out of them go too (`colors` once `colors.primary` moved). */
function removeEmptyParents(data: Record<string, unknown>, path: readonly PathSegment[]): void {
  for (let n = path.length - 1; n > 0; n--) {
    const parent = getAt(data, path.slice(0, n - 1));
    const node = getAt(data, path.slice(0, n));
    if (!isObject(parent) || !isObject(node) || Object.keys(node).length > 0) return;
    delete parent[String(path[n - 1])];
  }
}

/**
 * What `docs check` reports about the vendor keys of a file: a note (`info`) for each key of the table used (once,
 * at its first use) and for what a conversion left out; a warning for each value not used because our key (or an
 * earlier vendor key for it) is set too.
 */
export function aliasProblems(uses: readonly AliasUse[], at: (path: readonly PathSegment[]) => Location & { path: string }): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<VendorKey>();
  for (const use of uses) {
    if (use.conflict !== undefined) problems.push({ severity: 'warning', ...at(use.from), message: conflictMessage(use.entry, use.conflict) });
    if (seen.has(use.entry)) continue;
    seen.add(use.entry);
    if (use.conflict === undefined) problems.push({ severity: 'info', ...at(use.from), message: aliasMessage(use.entry, use.converted) });
    for (const note of new Set(use.notes)) problems.push({ severity: 'info', ...at(use.from), message: `${'`'}${use.entry.key}${'`'}: ${note}` });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// Conversions

const to = (ctx: ConversionContext, value: unknown): Converted => ({ sets: value === undefined ? [] : [[ctx.ours, value]] });
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** A page path of Mintlify's navigation (`guides/start`, `/index`) -> our route (`/guides/start`, `/`). */
export function pageRoute(page: string): string {
  return `/${page.trim().replace(/^\/+/, '').replace(/\.mdx?$/, '')}`.replace(/\/index$/, '') || '/';
}

/** A link of mint.json (`api-reference`, `https://...`) -> ours (`/api-reference`, unchanged). */
const linkOf = (url: string) => (isUrlOrPath(url) || url.startsWith('#') ? url : `/${url}`);

/** `API Reference` -> `api-reference`. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{Letter}\p{Number}]+/gu, '-')
    .replace(/^-|-$/g, '') || 'tab';

const OPENAPI_PAGE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+\S/i;

/**
 * A page as Mintlify shows it in the sidebar: its title (frontmatter `sidebarTitle`, `title`, the first `#` heading,
 * else the file name) and its frontmatter `icon`.
 */
function pageEntry(page: string, dir: string | undefined): { title: string; icon?: string } {
  const clean = page.trim().replace(/^\/+/, '').replace(/\.mdx?$/, '');
  let title: string | undefined;
  let icon: string | undefined;
  const file = dir ? [`${clean}.mdx`, `${clean}.md`, `docs/${clean}.mdx`].map((name) => join(dir, name)).find((path) => existsSync(path)) : undefined;
  if (file) {
    try {
      const text = readFileSync(file, 'utf8');
      const frontmatter = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
      const data: unknown = frontmatter ? parseYaml(frontmatter[1]!) : undefined;
      icon = isObject(data) ? str(data.icon)?.trim() : undefined;
      title = (isObject(data) ? (str(data.sidebarTitle) ?? str(data.title)) : undefined) ?? /^#[ \t]+(.+?)[ \t#]*$/m.exec(frontmatter ? text.slice(frontmatter[0].length) : text)?.[1];
    } catch {
      // an unreadable page: titled by its name below
    }
  }
  if (!title?.trim()) {
    const segments = clean.split('/');
    const name = segments.at(-1) === 'index' ? (segments.at(-2) ?? 'Home') : (segments.at(-1) ?? clean);
    const words = name.replace(/[-_]+/g, ' ').trim();
    title = words ? words[0]!.toUpperCase() + words.slice(1) : 'Home';
  }
  return { title: title.trim(), ...(icon ? { icon } : {}) };
}

interface NavGroup {
  group?: string;
  tab?: string;
  href?: string;
  icon?: string;
  pages: (NavGroup | { title: string; href: string })[];
}

/** Mintlify's navigation (docs.json object, or mint.json's array of groups) -> our tabs, sidebar and anchors. */
class NavigationBuilder {
  readonly tabs: { id: string; title: string; href: string; locale?: string }[] = [];
  readonly anchors: { icon: string; title: string; href: string; locale?: string }[] = [];
  /** Locale key (`default` without languages) -> groups. */
  readonly sidebar = new Map<string, NavGroup[]>();
  /** Where each tab, anchor, group and page came from in the file. */
  readonly fromOf = new WeakMap<object, PathSegment[]>();
  readonly notes = new Set<string>();
  readonly dir: string | undefined;
  constructor(dir: string | undefined) {
    this.dir = dir;
  }

  uniqueTabId(title: string): string {
    const base = slug(title);
    let id = base;
    for (let n = 2; this.tabs.some((t) => t.id === id); n++) id = `${base}-${n}`;
    return id;
  }

  entry(value: unknown, from: PathSegment[]): NavGroup | { title: string; href: string } | undefined {
    if (typeof value === 'string') {
      if (OPENAPI_PAGE.test(value.trim())) {
        this.notes.add('OpenAPI endpoint pages (`GET /users`) have no page here: they are left out of the sidebar');
        return undefined;
      }
      const page = { ...pageEntry(value, this.dir), href: pageRoute(value) };
      this.fromOf.set(page, from);
      return page;
    }
    if (isObject(value) && typeof value.group === 'string') return this.group(value, from);
    if (isObject(value) && typeof value.page === 'string') return this.entry(value.page, [...from, 'page']);
    return undefined;
  }

  group(value: Record<string, unknown>, from: PathSegment[], tab?: string): NavGroup {
    const group: NavGroup = {
      ...(str(value.group) ? { group: String(value.group) } : {}),
      ...(tab ? { tab } : {}),
      ...(str(value.root) ? { href: pageRoute(String(value.root)) } : {}),
      ...(str(value.icon) ? { icon: String(value.icon) } : {}),
      pages: [],
    };
    this.fromOf.set(group, from);
    if (value.hidden === true) this.notes.add('hidden groups and pages are shown here');
    const pages = Array.isArray(value.pages) ? value.pages : [];
    pages.forEach((item, i) => {
      const converted = this.entry(item, [...from, 'pages', i]);
      if (converted) group.pages.push(converted);
    });
    return group;
  }

  /** A division that only links somewhere: an anchor (`anchors`), else a tab. */
  link(list: string, { title, href, icon, locale }: { title: string; href: string; icon?: string | undefined; locale?: string }, from: PathSegment[]): void {
    const where = locale === undefined ? {} : { locale };
    const item = list === 'anchors' ? { icon: icon ?? 'link', title, href, ...where } : { id: this.uniqueTabId(title), title, href, ...where };
    this.fromOf.set(item, from);
    if (list === 'anchors') this.anchors.push(item as (typeof this.anchors)[number]);
    else this.tabs.push(item as (typeof this.tabs)[number]);
  }

  /** The first page of a division (a tab's link when it has none). */
  firstPage(value: unknown): string | undefined {
    if (typeof value === 'string') return OPENAPI_PAGE.test(value) ? undefined : pageRoute(value);
    if (Array.isArray(value)) {
      for (const item of value) {
        const found = this.firstPage(item);
        if (found) return found;
      }
      return undefined;
    }
    if (!isObject(value)) return undefined;
    if (typeof value.root === 'string') return pageRoute(value.root);
    for (const key of ['pages', 'groups', ...DIVISIONS.map((d) => d.list), 'menu']) {
      const found = this.firstPage(value[key]);
      if (found) return found;
    }
    return undefined;
  }

  addGroups(locale: string, groups: NavGroup[]): void {
    this.sidebar.set(locale, [...(this.sidebar.get(locale) ?? []), ...groups]);
  }

  /** Our path of every converted tab, anchor, group and page -> its place in the file. */
  origins(sets: readonly [PathSegment[], unknown][]): [PathSegment[], PathSegment[]][] {
    const out: [PathSegment[], PathSegment[]][] = [];
    const visit = (value: unknown, path: PathSegment[]) => {
      if (typeof value !== 'object' || value === null) return;
      const from = this.fromOf.get(value);
      if (from) out.push([path, from]);
      if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
      else if (!from || 'pages' in value) for (const [key, child] of Object.entries(value)) if (typeof child === 'object') visit(child, [...path, key]);
    };
    for (const [path, value] of sets) visit(value, path);
    return out;
  }

  /** One level of the navigation object: its groups and pages, and its divisions. */
  division(node: Record<string, unknown>, from: PathSegment[], scope: { locale: string; tab?: string; localeKeyed: boolean }): void {
    if (Array.isArray(node.languages) && node.languages.length > 0) {
      node.languages.forEach((language, i) => {
        if (!isObject(language) || !str(language.language)) return;
        const code = String(language.language);
        const first = this.firstPage(language);
        const locale = first?.startsWith(`/${code}/`) || first === `/${code}` ? code : 'default';
        this.division(language, [...from, 'languages', i], { locale, localeKeyed: true });
      });
    }
    if (Array.isArray(node.versions) && node.versions.length > 0) {
      const versions = node.versions.filter(isObject);
      const index = Math.max(0, versions.findIndex((v) => v.default === true));
      const version = versions[index];
      if (versions.length > 1) this.notes.add(`only the navigation of version \`${String(version?.version ?? index)}\` is used (there is no version switcher here)`);
      if (version) this.division(version, [...from, 'versions', node.versions.indexOf(version)], scope);
    }
    for (const { list, label } of DIVISIONS) {
      const items = node[list];
      if (!Array.isArray(items)) continue;
      items.forEach((item, i) => {
        if (!isObject(item)) return;
        const title = str(item[label]) ?? str(item.name);
        const at = [...from, list, i];
        const hasContent = ['groups', 'pages', 'menu', ...DIVISIONS.map((d) => d.list)].some((key) => Array.isArray(item[key]));
        if (!hasContent) {
          const href = str(item.href) ?? str(item.url);
          if (!title || !href) return;
          const locale = scope.localeKeyed && scope.locale !== 'default' ? { locale: scope.locale } : {};
          this.link(list, { title, href: linkOf(href), icon: str(item.icon), ...locale }, at);
          return;
        }
        if (scope.tab !== undefined || !title) {
          this.division(item, at, scope); // nested divisions join the tab they are in
          return;
        }
        const id = this.uniqueTabId(title);
        const href = str(item.href) ?? this.firstPage(item) ?? '/';
        const tab = { id, title, href: linkOf(href), ...(scope.localeKeyed && scope.locale !== 'default' ? { locale: scope.locale } : {}) };
        this.fromOf.set(tab, at);
        this.tabs.push(tab);
        this.division(item, at, { ...scope, tab: id });
      });
    }
    if (Array.isArray(node.menu)) node.menu.forEach((item, i) => isObject(item) && this.division(item, [...from, 'menu', i], scope));
    if (isObject(node.global)) {
      for (const { list, label } of DIVISIONS) {
        const items = node.global[list];
        if (!Array.isArray(items)) continue;
        items.forEach((item, i) => {
          if (!isObject(item)) return;
          const title = str(item[label]);
          const href = str(item.href);
          if (!title || !href) return;
          this.link(list, { title, href: linkOf(href), icon: str(item.icon) }, [...from, 'global', list, i]);
        });
      }
    }
    if (Array.isArray(node.groups)) {
      const groups = node.groups.flatMap((group, i) => (isObject(group) ? [this.group(group, [...from, 'groups', i], scope.tab)] : []));
      this.addGroups(scope.locale, groups);
    }
    if (Array.isArray(node.pages)) {
      const loose = this.group({ pages: node.pages }, from, scope.tab);
      if (loose.pages.length > 0) this.addGroups(scope.locale, [loose]);
    }
  }

  /** mint.json: `navigation` is an array of groups; top-level `tabs` (`{ name, url }`) own the groups under their folder. */
  legacy(groups: unknown[], from: PathSegment[], input: Record<string, unknown>): void {
    const tabs = legacyTabs(input, this);
    const out = groups.flatMap((item, i) => {
      if (!isObject(item)) return [];
      const first = this.firstPage(item);
      return [this.group(item, [...from, i], first === undefined ? undefined : tabs.tabOf(first))];
    });
    this.addGroups('default', out);
  }

  /**
   * Mintlify shows the navigation's first page at `/` when a site has no `index.mdx`: that page's route (a redirect
   * from `/` keeps it working here), or undefined when the site has a home page or the navigation no page.
   */
  homeRedirect(): string | undefined {
    if (this.dir === undefined || existsSync(join(this.dir, 'index.mdx'))) return undefined;
    const first = (items: NavGroup['pages']): string | undefined => {
      for (const item of items) {
        const href = 'pages' in item ? first(item.pages) : item.href.startsWith('/') ? item.href : undefined;
        if (href) return href;
      }
      return undefined;
    };
    const href = first(this.sidebar.get('default') ?? []);
    return href === '/' ? undefined : href;
  }

  sidebarValue(localeKeyed: boolean): unknown {
    if (!localeKeyed) return this.sidebar.get('default') ?? [];
    return Object.fromEntries(this.sidebar);
  }
}

const DIVISIONS = [
  { list: 'tabs', label: 'tab' },
  { list: 'anchors', label: 'anchor' },
  { list: 'dropdowns', label: 'dropdown' },
  { list: 'products', label: 'product' },
] as const;

/**
 * mint.json's tabs: `{ name, url }` where `url` is a folder; pages outside every tab's folder are in a first tab
 * named by `primaryTab.name` (else `Documentation`). A tab links to its first page in the navigation.
 */
function legacyTabs(input: Record<string, unknown>, nav: NavigationBuilder): { tabs: { id: string; title: string; href: string }[]; tabOf(route: string): string | undefined } {
  const items = hasShape(input.tabs, 'nameUrlItems') ? (input.tabs as Record<string, unknown>[]) : [];
  const navigation = Array.isArray(input.navigation) ? input.navigation : [];
  const folders = items.flatMap((item) => {
    const name = str(item.name);
    const url = str(item.url);
    return name && url ? [{ name, url, route: pageRoute(url) }] : [];
  });
  if (folders.length === 0) return { tabs: [], tabOf: () => undefined };
  const ids = new Map<string, string>();
  const tabs: { id: string; title: string; href: string }[] = [];
  const used = new Set<string>();
  const unique = (title: string) => {
    let id = slug(title);
    for (let n = 2; used.has(id); n++) id = `${slug(title)}-${n}`;
    used.add(id);
    return id;
  };
  const folderOf = (route: string) => folders.find((f) => route === f.route || route.startsWith(`${f.route}/`));
  const firstPages = navigation.filter(isObject).map((group) => nav.firstPage(group)).filter((p): p is string => p !== undefined);
  const outside = firstPages.find((route) => !folderOf(route));
  const primary = isObject(input.primaryTab) && str(input.primaryTab.name) ? String(input.primaryTab.name) : 'Documentation';
  const primaryId = outside ? unique(primary) : undefined;
  if (outside && primaryId) tabs.push({ id: primaryId, title: primary, href: outside });
  for (const folder of folders) {
    const id = unique(folder.name);
    ids.set(folder.url, id);
    const href = isUrlOrPath(folder.url) && /^[a-z]+:|^\/\//i.test(folder.url) ? folder.url : (firstPages.find((route) => folderOf(route) === folder) ?? folder.route);
    tabs.push({ id, title: folder.name, href });
  }
  return {
    tabs,
    tabOf: (route) => {
      const folder = folderOf(route);
      return folder ? ids.get(folder.url) : primaryId;
    },
  };
}

const NETWORK_LABELS: Record<string, string> = { github: 'GitHub', discord: 'Discord' };

function headerLinks(items: unknown, fields: { title: string; href: string }, cta = false): { title: string; href: string; cta?: boolean }[] {
  const list = Array.isArray(items) ? items : items === undefined ? [] : [items];
  return list.flatMap((item) => {
    if (!isObject(item)) return [];
    const href = str(item[fields.href]);
    const title = str(item[fields.title]) ?? (typeof item.type === 'string' ? NETWORK_LABELS[item.type] : undefined) ?? href;
    return href && title ? [{ title, href: linkOf(href), ...(cta ? { cta: true } : {}) }] : [];
  });
}

export const CONVERSIONS: Record<ConversionName, (value: unknown, ctx: ConversionContext) => Converted> = {
  not: (value, ctx) => to(ctx, typeof value === 'boolean' ? !value : value),
  hex: (value, ctx) => {
    const short = typeof value === 'string' ? /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value) : null;
    if (short) return to(ctx, `#${short.slice(1).map((d) => d + d).join('')}`);
    return to(ctx, typeof value === 'string' && /^[0-9a-f]{6}$/i.test(value) ? `#${value}` : value);
  },
  appearance: (value, ctx) => to(ctx, value === 'system' ? undefined : value),
  consumed: () => ({ sets: [] }),
  bannerColor: (value, ctx) => to(ctx, isObject(value) ? (value.light ?? value.dark) : value),
  robots: (value, ctx) =>
    typeof value === 'string' && /\bnoindex\b/i.test(value)
      ? to(ctx, true)
      : { sets: [], notes: [`only \`noindex\` has an equivalent (\`seo.noindex\`); \`${String(value)}\` is ignored`] },
  plausible: (value, ctx) => {
    const server = isObject(value) ? str(value.server) : undefined;
    return to(ctx, server ? (/^https?:\/\//i.test(server) ? server : `https://${server}`) : true);
  },
  v1Plausible: (value, ctx) => (value === true ? to(ctx, str(ctx.input.plausibleAnalyticsScript) ?? true) : { sets: [] }),
  redirects: (value, ctx) => {
    const out: Record<string, string> = {};
    const notes: string[] = [];
    for (const item of Array.isArray(value) ? value : []) {
      const source = isObject(item) ? str(item.source) : undefined;
      const destination = isObject(item) ? str(item.destination) : undefined;
      if (!source || destination === undefined) continue;
      if (/[:*]/.test(source.replace(/^[a-z]+:\/\//i, ''))) {
        notes.push('redirects with wildcards or parameters (`/blog/:slug*`) are left out: keys here are exact paths');
        continue;
      }
      out[source] = destination;
    }
    return { sets: [[ctx.ours, out]], notes: [...new Set(notes)] };
  },
  navbar: (value, ctx) => {
    const navbar = isObject(value) ? value : {};
    return to(ctx, [...headerLinks(navbar.links, { title: 'label', href: 'href' }), ...headerLinks(navbar.primary, { title: 'label', href: 'href' }, true)]);
  },
  topbarLinks: (value, ctx) => to(ctx, headerLinks(value, { title: 'name', href: 'url' })),
  topbarCta: (value, ctx) => to(ctx, headerLinks(value, { title: 'name', href: 'url' }, true)),
  footerSocials: (value) => {
    const pairs: [string, unknown][] = Array.isArray(value)
      ? value.flatMap((item) => (isObject(item) && typeof item.type === 'string' ? [[item.type, item.url] as [string, unknown]] : []))
      : isObject(value)
        ? Object.entries(value)
        : [];
    const sets: [PathSegment[], unknown][] = [];
    const notes: string[] = [];
    for (const [network, url] of pairs) {
      const ours = MINTLIFY_NETWORKS[network];
      if (ours && !sets.some(([path]) => path[1] === ours)) sets.push([['social', ours], url]);
      else if (!ours) notes.push(`\`${network}\` has no place in the footer here (ignored)`);
    }
    return { sets, notes };
  },
  linkAnchors: (value, ctx) =>
    to(
      ctx,
      (value as Record<string, unknown>[]).map(({ link, ...rest }) => ({ ...rest, href: link })),
    ),
  nameUrlAnchors: (value, ctx) =>
    to(
      ctx,
      (value as Record<string, unknown>[]).flatMap((item) => {
        const title = str(item.name);
        const href = str(item.url);
        return title && href ? [{ icon: str(item.icon) ?? 'link', title, href: linkOf(href) }] : [];
      }),
    ),
  nameUrlTabs: (_value, ctx) => {
    const nav = new NavigationBuilder(ctx.dir);
    return to(ctx, legacyTabs(ctx.input, nav).tabs);
  },
  tupleSidebar: (value, ctx) => {
    const groups = (tuples: unknown[]) => {
      const out: NavGroup[] = [];
      let loose: NavGroup | undefined;
      for (const tuple of tuples) {
        if (!Array.isArray(tuple)) continue;
        const [title, target] = tuple as [unknown, unknown];
        if (typeof target === 'string') {
          if (!loose) out.push((loose = { pages: [] }));
          loose.pages.push({ title: String(title), href: target });
        } else if (Array.isArray(target)) {
          loose = undefined;
          out.push({
            group: String(title),
            pages: target.flatMap((child) => (Array.isArray(child) && child.length >= 2 ? [{ title: String(child[0]), href: String(child[1]) }] : [])),
          });
        }
      }
      return out;
    };
    return to(ctx, Array.isArray(value) ? groups(value) : Object.fromEntries(Object.entries(value as Record<string, unknown[]>).map(([locale, tuples]) => [locale, groups(tuples)])));
  },
  navigation: (value, ctx) => {
    const nav = new NavigationBuilder(ctx.dir);
    const sets: [PathSegment[], unknown][] = [];
    if (Array.isArray(value)) {
      nav.legacy(value, ctx.from, ctx.input);
      sets.push([['sidebar'], nav.sidebarValue(false)]);
    } else if (isObject(value)) {
      const localeKeyed = Array.isArray(value.languages) && value.languages.length > 0;
      nav.division(value, ctx.from, { locale: 'default', localeKeyed });
      if (nav.tabs.length > 0) sets.push([['tabs'], nav.tabs]);
      sets.push([['sidebar'], nav.sidebarValue(localeKeyed)]);
      if (nav.anchors.length > 0) sets.push([['anchors'], nav.anchors]);
    }
    const home = Array.isArray(value) || !(isObject(value) && Array.isArray(value.languages) && value.languages.length > 0) ? nav.homeRedirect() : undefined;
    if (home) nav.notes.add(`there is no \`index.mdx\`: \`/\` redirects to the first page of the navigation, \`${home}\`, as Mintlify shows that page at \`/\``);
    return { sets, origins: nav.origins(sets), notes: [...nav.notes], defaults: home ? [[['redirects', '/'], home]] : [] };
  },
};
