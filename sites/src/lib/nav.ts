/**
 * Navigation of one page, from the config alone: its locale, the tabs shown and the active one, the sidebar
 * groups and anchors shown, and previous/next. Pure functions, used by the layout at build time.
 */
import { routeOf } from './urls.ts';
import { isExternal, isSidebarGroup, type DocsConfig, type Neighbour, type SidebarGroup, type SidebarPage } from '../../config/schema/index.ts';

export type Tab = DocsConfig['tabs'][number];
export type Anchor = DocsConfig['anchors'][number];

/** A link shown in the previous/next footer. */
export interface NavLink {
  title: string;
  href: string;
}

/**
 * The page's locale: with a locale-keyed sidebar, the first path segment when it is a sidebar key (other than
 * `default`), else `default`. A flat sidebar has no locales: undefined.
 */
export function localeOf(config: DocsConfig, route: string): string | undefined {
  if (Array.isArray(config.sidebar)) return undefined;
  const first = routeOf(route).split('/')[1] ?? '';
  return first !== 'default' && first !== '' && Object.hasOwn(config.sidebar, first) ? first : 'default';
}

/** The sidebar groups of a locale (all groups of a flat sidebar). */
export function sidebarOf(config: DocsConfig, locale: string | undefined): SidebarGroup[] {
  if (Array.isArray(config.sidebar)) return config.sidebar;
  return (locale !== undefined ? config.sidebar[locale] : undefined) ?? [];
}

/** Tabs shown for a locale: those without `locale`, and those whose `locale` is the page's. */
export function tabsFor(config: DocsConfig, locale: string | undefined): Tab[] {
  return config.tabs.filter((tab) => tab.locale === undefined || tab.locale === locale);
}

const tabIds = (group: SidebarGroup): string[] => (group.tab === undefined ? [] : Array.isArray(group.tab) ? group.tab : [group.tab]);

/**
 * Every internal route a group links to (its own `href` and its pages, nested groups included), in reading order.
 * Worked out once per group: each page's render asks of every group (a 10,000-page site has 400 of them).
 */
export function groupRoutes(group: SidebarGroup): ReadonlySet<string> {
  let routes = routesByGroup.get(group);
  if (!routes) {
    routes = new Set();
    if (group.href !== undefined && !isExternal(group.href)) routes.add(routeOf(group.href));
    for (const item of group.pages) {
      if (isSidebarGroup(item)) for (const route of groupRoutes(item)) routes.add(route);
      else if (!isExternal(item.href)) routes.add(routeOf(item.href));
    }
    routesByGroup.set(group, routes);
  }
  return routes;
}
const routesByGroup = new WeakMap<SidebarGroup, Set<string>>();

/**
 * The active tab: the shown tab whose sidebar groups contain the page, else the shown tab whose `href` is the
 * longest prefix of the page's route, else none.
 */
export function activeTabOf(config: DocsConfig, route: string, locale: string | undefined): Tab | undefined {
  const tabs = tabsFor(config, locale);
  if (tabs.length === 0) return undefined;
  const current = routeOf(route);
  const groups = flattenGroups(sidebarOf(config, locale));
  for (const tab of tabs) {
    if (groups.some((group) => tabIds(group).includes(tab.id) && groupRoutes(group).has(current))) return tab;
  }
  let best: Tab | undefined;
  let bestLength = -1;
  for (const tab of tabs) {
    if (isExternal(tab.href)) continue;
    const href = routeOf(tab.href);
    const matches = href === '/' ? true : current === href || current.startsWith(`${href}/`);
    if (matches && href.length > bestLength) {
      best = tab;
      bestLength = href.length;
    }
  }
  return best;
}

/** The groups and every nested group, once per sidebar. */
function flattenGroups(groups: SidebarGroup[]): SidebarGroup[] {
  let flat = flattened.get(groups);
  if (!flat) flattened.set(groups, (flat = flatten(groups)));
  return flat;
}
const flattened = new WeakMap<SidebarGroup[], SidebarGroup[]>();
const flatten = (groups: SidebarGroup[]): SidebarGroup[] => groups.flatMap((group) => [group, ...flatten(group.pages.filter(isSidebarGroup))]);

/** Groups shown with a tab: groups without `tab` always; groups with `tab` only when it names the active tab. */
export function visibleGroups(groups: SidebarGroup[], tab: Tab | undefined): SidebarGroup[] {
  // The same groups for every page of a locale and tab: sidebar-html.ts makes their HTML once per such set.
  let byTab = visible.get(groups);
  if (!byTab) visible.set(groups, (byTab = new Map()));
  let shown = byTab.get(tab);
  if (!shown) byTab.set(tab, (shown = filterGroups(groups, tab)));
  return shown;
}
const visible = new WeakMap<SidebarGroup[], Map<Tab | undefined, SidebarGroup[]>>();

function filterGroups(groups: SidebarGroup[], tab: Tab | undefined): SidebarGroup[] {
  const keep = (group: SidebarGroup) => {
    const ids = tabIds(group);
    return ids.length === 0 || (tab !== undefined && ids.includes(tab.id));
  };
  const filter = (items: (SidebarGroup | SidebarPage)[]): (SidebarGroup | SidebarPage)[] =>
    items.filter((item) => !isSidebarGroup(item) || keep(item)).map((item) => (isSidebarGroup(item) ? { ...item, pages: filter(item.pages) } : item));
  return groups.filter(keep).map((group) => ({ ...group, pages: filter(group.pages) }));
}

/** Anchors shown: `locale` must be the page's and `tab` the active tab's, when set. */
export function anchorsFor(config: DocsConfig, locale: string | undefined, tab: Tab | undefined): Anchor[] {
  return config.anchors.filter((anchor) => (anchor.locale === undefined || anchor.locale === locale) && (anchor.tab === undefined || anchor.tab === tab?.id));
}

/** The reading order of a shown sidebar and where each route is in it, once per sidebar (visibleGroups keeps it). */
function readingIndex(groups: SidebarGroup[]): { order: NavLink[]; at: Map<string, number> } {
  let index = readingIndexes.get(groups);
  if (!index) {
    const order = readingOrder(groups);
    readingIndexes.set(groups, (index = { order, at: new Map(order.map((link, i) => [link.href, i])) }));
  }
  return index;
}
const readingIndexes = new WeakMap<SidebarGroup[], { order: NavLink[]; at: Map<string, number> }>();

/** Internal links of the shown sidebar in reading order (a group's `href` before its pages), each once. */
export function readingOrder(groups: SidebarGroup[]): NavLink[] {
  const out: NavLink[] = [];
  const seen = new Set<string>();
  const add = (title: string, href: string) => {
    if (isExternal(href)) return;
    const route = routeOf(href);
    if (seen.has(route)) return;
    seen.add(route);
    out.push({ title, href: route });
  };
  const walk = (group: SidebarGroup) => {
    if (group.href !== undefined) add(group.group ?? group.href, group.href);
    for (const item of group.pages) {
      if (isSidebarGroup(item)) walk(item);
      else add(item.title, item.href);
    }
  };
  groups.forEach(walk);
  return out;
}

export interface PageNavigation {
  locale: string | undefined;
  tabs: Tab[];
  activeTab: Tab | undefined;
  groups: SidebarGroup[];
  anchors: Anchor[];
  previous: NavLink | undefined;
  next: NavLink | undefined;
}

/**
 * Everything the layout needs to navigate from one page. `titleOf` names a route for a frontmatter
 * `previous`/`next` given as a bare path (the page's title, else the path).
 */
export function navigationOf(
  config: DocsConfig,
  route: string,
  overrides: { previous?: Neighbour | undefined; next?: Neighbour | undefined },
  titleOf: (route: string) => string | undefined,
): PageNavigation {
  const locale = localeOf(config, route);
  const activeTab = activeTabOf(config, route, locale);
  const groups = visibleGroups(sidebarOf(config, locale), activeTab);
  let previous: NavLink | undefined;
  let next: NavLink | undefined;
  if (config.content.automaticallyInferNextPrevious) {
    const { order, at } = readingIndex(groups);
    const index = at.get(routeOf(route)) ?? -1;
    if (index !== -1) {
      previous = order[index - 1];
      next = order[index + 1];
    }
  }
  const resolve = (value: Neighbour | undefined, inferred: NavLink | undefined): NavLink | undefined => {
    if (value === undefined) return inferred;
    if (value === false) return undefined;
    if (typeof value === 'string') {
      const target = isExternal(value) ? value : routeOf(value);
      return { title: (isExternal(value) ? undefined : titleOf(target)) ?? value, href: target };
    }
    return { title: value.title, href: isExternal(value.href) ? value.href : routeOf(value.href) };
  };
  return {
    locale,
    tabs: tabsFor(config, locale),
    activeTab,
    groups,
    anchors: anchorsFor(config, locale, activeTab),
    previous: resolve(overrides.previous, previous),
    next: resolve(overrides.next, next),
  };
}

/** The sidebar title of a route, first match in any locale. */
export function sidebarTitles(config: DocsConfig): Map<string, string> {
  const titles = new Map<string, string>();
  const all = Array.isArray(config.sidebar) ? config.sidebar : Object.values(config.sidebar).flat();
  const walk = (group: SidebarGroup) => {
    for (const item of group.pages) {
      if (isSidebarGroup(item)) walk(item);
      else if (!isExternal(item.href) && !titles.has(routeOf(item.href))) titles.set(routeOf(item.href), item.title);
    }
  };
  all.forEach(walk);
  return titles;
}
