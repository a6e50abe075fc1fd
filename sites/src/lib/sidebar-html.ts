import { isExternal, isSidebarGroup, type SidebarGroup, type SidebarPage } from '../../config/schema/index.ts';
import { iconPaths, iconSvg } from '../components/mdx/icons.ts';
import { groupRoutes } from './nav.ts';
import { external, href, routeOf } from './urls.ts';

/**
 * The sidebar's links as HTML, made once per build for each set of groups and marked per page. Every page shows the
 * same sidebar but for which link is the current page (`aria-current`), and rendering its 1,000 links through Astro
 * components on each of 1,000 pages was 3 s of a build. The markup is SidebarItems' as Astro wrote it: nested
 * `ul.sidebar-list[data-depth]`, `li.sidebar-group` / `li.sidebar-item` with `data-icon`, their icons (NavIcon).
 *
 * A sidebar of more than FULL_SIDEBAR_LINKS links is shown folded: only the groups holding the current page are
 * open; every other group is its label, linking to its first page (`li.sidebar-group[data-folded]`). A reader
 * scrolls no list of thousands, and a page's HTML grows with the groups, not with the pages (10,000 links were
 * 1.1 MB on every page of a 10,000-page site).
 */

/** Astro's escaping: attribute values (`&`, `"`) and text (`& < > ' "`). */
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const text = (value: string) => value.replace(/[&<>'"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' })[c]!);

/** A sidebar or anchor icon (decorative): Lucide's outline when it has the name, else any icon the MDX components know. */
export function navIconHtml(name: string | undefined): string {
  if (!name) return '';
  const paths = iconPaths(name);
  if (paths) {
    return `<svg class="nav-icon" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${paths}</svg>`;
  }
  return iconSvg(name, { size: '16px', class: 'nav-icon' }) ?? '';
}

/** The HTML with where `aria-current` goes for each route: offsets just after a link's `href` attribute. */
interface Unmarked {
  parts: string[];
  /** The route each gap between parts belongs to (parts.length - 1 of them). */
  gaps: string[];
}

/** Above this many links (internal and external) a sidebar is shown folded. */
export const FULL_SIDEBAR_LINKS = 1000;

/**
 * The HTML of `groups` with the marking gaps; a group `close` picks is drawn by `folded`, without its pages.
 */
function unmarked(groups: SidebarGroup[], base: string, close?: (group: SidebarGroup) => boolean): Unmarked {
  const parts: string[] = [];
  const gaps: string[] = [];
  let html = '';
  /** A link to `link`: the current page's gets `aria-current` in the gap after its href. */
  const link = (attributes: string, target: string) => {
    html += `<a${attributes} href="${attribute(href(base, target))}"`;
    if (isExternal(target)) return;
    parts.push(html);
    gaps.push(routeOf(target));
    html = '';
  };
  const list = (items: (SidebarGroup | SidebarPage)[], depth: number) => {
    html += `<ul class="sidebar-list" data-depth="${depth}">`;
    for (const item of items) {
      const icon = item.icon === undefined ? '' : item.icon === '' ? ' data-icon' : ` data-icon="${attribute(item.icon)}"`;
      if (isSidebarGroup(item) && close?.(item)) {
        html += folded(item, base, icon);
      } else if (isSidebarGroup(item)) {
        html += `<li class="sidebar-group"${icon}>`;
        if (item.href) {
          link(' class="sidebar-group-label"', item.href);
          html += `>${navIconHtml(item.icon)}${text(item.group ?? item.href)}</a>`;
        } else if (item.group) {
          html += `<span class="sidebar-group-label">${navIconHtml(item.icon)}${text(item.group)}</span>`;
        }
        list(item.pages, depth + 1);
        html += '</li>';
      } else {
        html += `<li class="sidebar-item"${icon}>`;
        link('', item.href);
        html += `${external(item.href) ? ' rel="noopener noreferrer"' : ''}>${navIconHtml(item.icon)}${text(item.title)}</a></li>`;
      }
    }
    html += '</ul>';
  };
  list(groups, 0);
  parts.push(html);
  return { parts, gaps };
}

/** A group's folded HTML, by base. */
const foldedHtml = new WeakMap<SidebarGroup, Map<string, string>>();

/**
 * Whether a folded sidebar closes `group` for the page at `current`: when it does not hold the page, has a label
 * and has a page to link to (a group of external links only stays open: closed, it would hide them).
 */
function closes(group: SidebarGroup, current: string): boolean {
  const routes = groupRoutes(group);
  return routes.size > 0 && !routes.has(current) && (group.group ?? group.href) !== undefined;
}

/** A closed group: its label, linking to its first page. */
function folded(group: SidebarGroup, base: string, icon: string): string {
  let byBase = foldedHtml.get(group);
  if (!byBase) foldedHtml.set(group, (byBase = new Map()));
  let html = byBase.get(base);
  if (html === undefined) {
    // Its first page: groupRoutes lists them in reading order.
    const first = groupRoutes(group).values().next().value!;
    const label = `${navIconHtml(group.icon)}${text(group.group ?? group.href!)}`;
    byBase.set(base, (html = `<li class="sidebar-group" data-folded${icon}><a class="sidebar-group-label" href="${attribute(href(base, first))}">${label}</a></li>`));
  }
  return html;
}

/** How many links a sidebar shows unfolded. */
function linkCount(items: (SidebarGroup | SidebarPage)[]): number {
  let count = 0;
  for (const item of items) count += isSidebarGroup(item) ? (item.href === undefined ? 0 : 1) + linkCount(item.pages) : 1;
  return count;
}

/**
 * Made once per set of groups (visibleGroups keeps them identical across a locale's and tab's pages) and base;
 * `folded` when the set is shown folded, which is made per page.
 */
const made = new WeakMap<SidebarGroup[], Map<string, Unmarked> | 'folded'>();

/** The sidebar lists of `groups` as the page at `route` shows them. */
export function sidebarHtml(groups: SidebarGroup[], base: string, route: string): string {
  let byBase = made.get(groups);
  if (!byBase) made.set(groups, (byBase = linkCount(groups) > FULL_SIDEBAR_LINKS ? 'folded' : new Map()));
  const current = routeOf(route);
  let html: Unmarked | undefined;
  if (byBase === 'folded') {
    html = unmarked(groups, base, (group) => closes(group, current));
  } else {
    html = byBase.get(base);
    if (!html) byBase.set(base, (html = unmarked(groups, base)));
  }
  let out = html.parts[0]!;
  for (let i = 0; i < html.gaps.length; i++) out += (html.gaps[i] === current ? ' aria-current="page"' : '') + html.parts[i + 1]!;
  return out;
}
