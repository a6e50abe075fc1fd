/**
 * A sidebar of more than FULL_SIDEBAR_LINKS links is shown folded (sites/README.md, "Large sidebars"): the groups
 * holding the page open, every other group its label linking to its first page. The layout renders exactly
 * sidebarHtml's string, so it is read here as the page's sidebar; a built site is not needed to see which groups open.
 */
import { describe, expect, it } from 'vitest';
import type { SidebarGroup } from '../../sites/config/schema/index.ts';
import { FULL_SIDEBAR_LINKS, sidebarHtml } from '../../sites/src/lib/sidebar-html.ts';
import { parseHtml } from '../helpers/docs.ts';

/** `count` groups of 25 pages (`/g3/p7`), the first page of each group its `/g3/p1`. */
function groupsOf(count: number, shape: (group: SidebarGroup, index: number) => SidebarGroup = (group) => group): SidebarGroup[] {
  return Array.from({ length: count }, (_, g) =>
    shape({ group: `Group ${g + 1}`, pages: Array.from({ length: 25 }, (_, p) => ({ title: `Page ${g + 1}.${p + 1}`, href: `/g${g + 1}/p${p + 1}` })) }, g),
  );
}

const sidebar = (groups: SidebarGroup[], route: string, base = '') => parseHtml(sidebarHtml(groups, base, route));
const labels = (html: ReturnType<typeof sidebar>, selector: string) => html.selectAll(selector).map((el) => el.text.trim());

describe('a sidebar over the link limit is folded', () => {
  const large = groupsOf(FULL_SIDEBAR_LINKS / 25 + 1); // one group over: 1,025 links

  it('opens the group holding the current page, marks the page, and folds every other group to its label', () => {
    const page = sidebar(large, '/g3/p7');
    expect(labels(page, '.sidebar-item a')).toEqual(Array.from({ length: 25 }, (_, p) => `Page 3.${p + 1}`));
    expect(page.select('a[aria-current=page]')?.text.trim()).toBe('Page 3.7');
    const folded = page.selectAll('li.sidebar-group[data-folded] > a.sidebar-group-label');
    expect(folded).toHaveLength(large.length - 1);
    expect(folded[0]!.attr('href')).toBe('/g1/p1');
    expect(folded.map((a) => a.text.trim())).not.toContain('Group 3');
    expect(page.select('li.sidebar-group:not([data-folded]) > .sidebar-group-label')?.text.trim()).toBe('Group 3');
  });

  it('keeps every group in reading order, so a folded label is where its group was', () => {
    const page = sidebar(large, '/g5/p1');
    expect(labels(page, '.sidebar-list[data-depth="0"] > li > .sidebar-group-label')).toEqual(large.map((g) => g.group));
  });

  it('a page that no group holds sees every group folded; links carry the base path', () => {
    const page = sidebar(large, '/elsewhere', '/acme/widgets');
    expect(page.selectAll('.sidebar-item')).toHaveLength(0);
    expect(page.select('li.sidebar-group[data-folded] > a')?.attr('href')).toBe('/acme/widgets/g1/p1');
  });

  it('folds nested groups too: only the branch down to the page is open', () => {
    const nested = groupsOf(FULL_SIDEBAR_LINKS / 25, (group) => ({ ...group, pages: [...group.pages] }));
    nested[0]!.pages.push({ group: 'Deeper', href: '/g1/deeper', pages: [{ title: 'Deep page', href: '/g1/deeper/one' }] });
    const onTop = sidebar(nested, '/g1/p2');
    expect(onTop.select('.sidebar-list[data-depth="1"] > li.sidebar-group[data-folded] > a')?.attr('href')).toBe('/g1/deeper');
    const deep = sidebar(nested, '/g1/deeper/one');
    expect(deep.select('a[aria-current=page]')?.text.trim()).toBe('Deep page');
    expect(deep.select('li.sidebar-group[data-folded] > a[href="/g1/deeper"]')).toBeUndefined();
  });

  it('a group with no label, or with only external links, stays open', () => {
    const odd = groupsOf(FULL_SIDEBAR_LINKS / 25 + 1);
    delete odd[1]!.group;
    odd[2]!.pages = [{ title: 'Status', href: 'https://status.example.com' }];
    const page = sidebar(odd, '/g1/p1');
    expect(labels(page, '.sidebar-item a')).toContain('Page 2.1');
    expect(labels(page, '.sidebar-item a')).toContain('Status');
    expect(labels(page, 'li.sidebar-group[data-folded]')).toContain('Group 4');
  });

  it('a page of a folded sidebar carries its group, not the site: HTML grows with the groups', () => {
    const huge = groupsOf(400); // 10,000 pages
    expect(sidebarHtml(huge, '', '/g200/p1').length).toBeLessThan(60_000);
  });
});

describe('a sidebar within the limit', () => {
  it('shows every group open on every page', () => {
    const groups = groupsOf(FULL_SIDEBAR_LINKS / 25); // exactly 1,000 links
    const page = sidebar(groups, '/g3/p7');
    expect(page.selectAll('[data-folded]')).toHaveLength(0);
    expect(page.selectAll('.sidebar-item a')).toHaveLength(FULL_SIDEBAR_LINKS);
    expect(page.select('a[aria-current=page]')?.text.trim()).toBe('Page 3.7');
  });
});
