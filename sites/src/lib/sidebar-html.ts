import { isExternal, isSidebarGroup, type SidebarGroup, type SidebarPage } from '../../config/schema/index.ts';
import { iconPaths, iconSvg } from '../components/mdx/icons.ts';
import { external, href, routeOf } from './urls.ts';

/**
 * The sidebar's links as HTML, made once per build for each set of groups and marked per page. Every page shows the
 * same sidebar but for which link is the current page (`aria-current`), and rendering its 1,000 links through Astro
 * components on each of 1,000 pages was 3 s of a build. The markup is SidebarItems' as Astro wrote it: nested
 * `ul.sidebar-list[data-depth]`, `li.sidebar-group` / `li.sidebar-item` with `data-icon`, their icons (NavIcon).
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

function unmarked(groups: SidebarGroup[], base: string): Unmarked {
  const parts: string[] = [];
  const gaps: string[] = [];
  let open = '';
  /** A link to `link`: the current page's gets `aria-current` in the gap after its href. */
  const link = (attributes: string, target: string) => {
    open += `<a${attributes} href="${attribute(href(base, target))}"`;
    if (isExternal(target)) return;
    parts.push(open);
    gaps.push(routeOf(target));
    open = '';
  };
  const list = (items: (SidebarGroup | SidebarPage)[], depth: number) => {
    open += `<ul class="sidebar-list" data-depth="${depth}">`;
    for (const item of items) {
      const icon = item.icon === undefined ? '' : item.icon === '' ? ' data-icon' : ` data-icon="${attribute(item.icon)}"`;
      if (isSidebarGroup(item)) {
        open += `<li class="sidebar-group"${icon}>`;
        if (item.href) {
          link(' class="sidebar-group-label"', item.href);
          open += `>${navIconHtml(item.icon)}${text(item.group ?? item.href)}</a>`;
        } else if (item.group) {
          open += `<span class="sidebar-group-label">${navIconHtml(item.icon)}${text(item.group)}</span>`;
        }
        list(item.pages, depth + 1);
        open += '</li>';
      } else {
        open += `<li class="sidebar-item"${icon}>`;
        link('', item.href);
        open += `${external(item.href) ? ' rel="noopener noreferrer"' : ''}>${navIconHtml(item.icon)}${text(item.title)}</a></li>`;
      }
    }
    open += '</ul>';
  };
  list(groups, 0);
  parts.push(open);
  return { parts, gaps };
}

/** Made once per set of groups (visibleGroups keeps them identical across a locale's and tab's pages) and base. */
const made = new WeakMap<SidebarGroup[], Map<string, Unmarked>>();

/** The sidebar lists of `groups` as the page at `route` shows them. */
export function sidebarHtml(groups: SidebarGroup[], base: string, route: string): string {
  let byBase = made.get(groups);
  if (!byBase) made.set(groups, (byBase = new Map()));
  let html = byBase.get(base);
  if (!html) byBase.set(base, (html = unmarked(groups, base)));
  const current = routeOf(route);
  let out = html.parts[0]!;
  for (let i = 0; i < html.gaps.length; i++) out += (html.gaps[i] === current ? ' aria-current="page"' : '') + html.parts[i + 1]!;
  return out;
}
