import { normalizeRoute } from './routes.ts';
import { suggest } from './fallback.ts';
import { iconProblem, isIconName } from '../src/components/mdx/icons.ts';
import type { Location, PathSegment, Problem } from './problems.ts';
import { isExternal, isSidebarGroup, THEME_PRESETS, type DocsConfig, type SidebarGroup, type SidebarPage } from './schema/index.ts';
import { MAX_REDIRECTS } from './schema/redirects.ts';

/** Where a path of the validated config is in the file, and its path there. */
export type ConfigLocator = (path: readonly PathSegment[]) => Location & { path: string };

/** Every item of a sidebar (groups, nested ones, and pages) with its path: flat (`sidebar[0]`) or locale-keyed (`sidebar.en[0]`). */
export function sidebarItems(sidebar: DocsConfig['sidebar']): { item: SidebarGroup | SidebarPage; path: PathSegment[]; locale?: string }[] {
  const out: { item: SidebarGroup | SidebarPage; path: PathSegment[]; locale?: string }[] = [];
  const visit = (items: (SidebarGroup | SidebarPage)[], path: PathSegment[], locale?: string) =>
    items.forEach((item, i) => {
      out.push({ item, path: [...path, i], ...(locale === undefined ? {} : { locale }) });
      if (isSidebarGroup(item)) visit(item.pages, [...path, i, 'pages'], locale);
    });
  if (Array.isArray(sidebar)) visit(sidebar, ['sidebar']);
  else for (const [locale, items] of Object.entries(sidebar)) visit(items, ['sidebar', locale], locale);
  return out;
}

/** Every group of a sidebar with its path, nested groups too. */
export function sidebarGroups(sidebar: DocsConfig['sidebar']): { group: SidebarGroup; path: PathSegment[]; locale?: string }[] {
  return sidebarItems(sidebar).flatMap(({ item, ...at }) => (isSidebarGroup(item) ? [{ group: item, ...at }] : []));
}

/**
 * Problems visible from the configuration alone: names that refer to nothing (presets, tab ids, locales), redirects
 * to themselves or more of them than a site may have, values docs/docs-site-config.md says are used differently.
 * Values that cannot work fall back (the preset, an incomplete DocSearch, the redirects past the bound); the others
 * are only reported.
 */
export function checkConfigSemantics(config: DocsConfig, locate: ConfigLocator): { config: DocsConfig; problems: Problem[] } {
  const problems: Problem[] = [];
  const warn = (path: readonly PathSegment[], message: string, suggestion?: string) =>
    problems.push({ severity: 'warning', ...locate(path), message, ...(suggestion ? { suggestion } : {}) });
  const next: DocsConfig = { ...config };

  // theme.preset
  const preset = config.theme.preset;
  if (preset !== undefined && !(THEME_PRESETS as readonly string[]).includes(preset)) {
    warn(['theme', 'preset'], `Unknown preset \`${preset}\` (the default preset is used); presets: ${THEME_PRESETS.join(', ')}`, suggest(preset, THEME_PRESETS).suggestion);
    const { preset: _dropped, ...theme } = config.theme;
    next.theme = theme;
  }

  // tabs: unique ids; sidebar groups and anchors name existing tabs
  const tabIds = config.tabs.map((t) => t.id);
  config.tabs.forEach((tab, i) => {
    if (tabIds.indexOf(tab.id) !== i) warn(['tabs', i, 'id'], `Duplicate tab id \`${tab.id}\` (the first tab with it is used)`);
  });
  const checkTab = (path: PathSegment[], id: string) => {
    if (tabIds.includes(id)) return;
    if (tabIds.length === 0) warn(path, `No tab has the id \`${id}\`: \`tabs\` is empty`);
    else warn(path, `No tab has the id \`${id}\``, suggest(id, tabIds).suggestion);
  };
  for (const { group, path } of sidebarGroups(config.sidebar)) {
    if (typeof group.tab === 'string') checkTab([...path, 'tab'], group.tab);
    else group.tab?.forEach((id, i) => checkTab([...path, 'tab', i], id));
  }
  config.anchors.forEach((anchor, i) => anchor.tab !== undefined && checkTab(['anchors', i, 'tab'], anchor.tab));

  // tab and anchor locales name sidebar locales
  const locales = Array.isArray(config.sidebar) ? null : Object.keys(config.sidebar);
  const checkLocale = (path: PathSegment[], locale: string) => {
    if (locales === null) warn(path, `The sidebar is not locale-keyed, so locale \`${locale}\` never matches`);
    else if (!locales.includes(locale)) warn(path, `No sidebar locale \`${locale}\` (locales: ${locales.join(', ') || 'none'})`, suggest(locale, locales).suggestion);
  };
  config.tabs.forEach((tab, i) => tab.locale !== undefined && checkLocale(['tabs', i, 'locale'], tab.locale));
  config.anchors.forEach((anchor, i) => anchor.locale !== undefined && checkLocale(['anchors', i, 'locale'], anchor.locale));

  // redirects: at most MAX_REDIRECTS; keys are doc paths; a redirect to itself never ends (chains and loops need the
  // pages: checkSite)
  let redirects = Object.entries(config.redirects);
  if (redirects.length > MAX_REDIRECTS) {
    const count = redirects.length.toLocaleString('en-US');
    const max = MAX_REDIRECTS.toLocaleString('en-US');
    problems.push({ severity: 'error', ...locate(['redirects']), message: `${count} redirects: a site may have at most ${max} (only the first ${max} are used)` });
    redirects = redirects.slice(0, MAX_REDIRECTS);
    next.redirects = Object.fromEntries(redirects);
  }
  for (const [from, to] of redirects) {
    if (isExternal(from)) warn(['redirects', from], 'Redirect keys are doc paths such as `/old-page`, not URLs (never matched)');
    else if (!isExternal(to) && normalizeRoute(to) === normalizeRoute(from)) warn(['redirects', from], 'Redirects to itself');
  }

  // scripts.vendorSiteVerification: only the content value of the meta tag
  const verification = config.scripts.vendorSiteVerification;
  if (verification !== undefined && /[<>]/.test(verification)) {
    const content = /\bcontent\s*=\s*["']([^"']*)["']/i.exec(verification)?.[1];
    warn(
      ['scripts', 'vendorSiteVerification'],
      content ? `Only the meta tag's content value belongs here (\`${content}\` is used)` : 'Only the meta tag\'s content value belongs here (ignored)',
    );
    const { vendorSiteVerification: _dropped, ...scripts } = config.scripts;
    next.scripts = content ? { ...scripts, vendorSiteVerification: content } : scripts;
  }

  // icons of sidebar groups and pages and of anchors: a name that draws nothing is reported, with suggestions
  const checkIcon = (path: PathSegment[], icon: string | undefined) => {
    const problem = icon !== undefined && isIconName(icon) ? iconProblem(icon) : undefined;
    if (problem) warn(path, problem);
  };
  for (const { item, path } of sidebarItems(config.sidebar)) checkIcon([...path, 'icon'], item.icon);
  config.anchors.forEach((anchor, i) => checkIcon(['anchors', i, 'icon'], anchor.icon));

  // search.docsearch: all three values or none
  const docsearch = config.search.docsearch;
  if (docsearch) {
    const empty = (['appId', 'apiKey', 'indexName'] as const).filter((k) => docsearch[k].trim() === '');
    if (empty.length > 0) {
      warn(['search', 'docsearch', ...(empty.length === 1 ? [empty[0]!] : [])], `DocSearch needs \`appId\`, \`apiKey\` and \`indexName\`; ${empty.map((k) => `\`${k}\``).join(', ')} ${empty.length === 1 ? 'is' : 'are'} empty (the built-in search is used)`);
      next.search = {};
    }
  }

  return { config: next, problems };
}
