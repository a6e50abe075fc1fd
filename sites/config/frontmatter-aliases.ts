/**
 * Page frontmatter written for docs.page or Mintlify (docs/docs-site-config.md, "Keys from docs.page and
 * Mintlify"): keys with our meaning under another name are read as ours; keys for what nothing here does are
 * removed before validation. Each is one note (`info`: never a failure), so a vendor's pages build `--strict`.
 */

/** Their frontmatter key -> ours. */
const RENAMED: Readonly<Record<string, { vendor: string; ours: string }>> = {
  'og:image': { vendor: 'Mintlify', ours: 'image' },
};

/** Their frontmatter keys read only by Mintlify's navigation (aliases.ts, `pageEntry`), and our sidebar key for each. */
const READ_BY_NAVIGATION: Readonly<Record<string, { does: string; ours: string }>> = {
  sidebarTitle: { does: "the page's title in the sidebar", ours: 'title' },
  icon: { does: "the page's icon in the sidebar", ours: 'icon' },
};

/** Their frontmatter keys that nothing here does, and what each does there. */
const IGNORED: Readonly<Record<string, { vendor: string; does: string }>> = {
  iconType: { vendor: 'Mintlify', does: "the style of the page's sidebar icon" },
  mode: { vendor: 'Mintlify', does: "the page's layout (wide, custom, center, frame)" },
  tag: { vendor: 'Mintlify', does: 'a badge beside the page in the sidebar' },
  api: { vendor: 'Mintlify', does: "the endpoint of the page's API playground" },
  openapi: { vendor: 'Mintlify', does: 'the OpenAPI operation the page documents' },
  url: { vendor: 'Mintlify', does: 'a sidebar entry that links elsewhere' },
  hidden: { vendor: 'Mintlify', does: 'leaving the page out of the sidebar (here only docs.json lists pages)' },
  keywords: { vendor: 'Mintlify', does: 'extra search keywords' },
  deprecated: { vendor: 'Mintlify', does: 'a "deprecated" badge in the sidebar' },
  public: { vendor: 'Mintlify', does: 'access control of the page' },
  groups: { vendor: 'Mintlify', does: 'access control of the page' },
};

export interface FrontmatterNote {
  key: string;
  message: string;
}

/**
 * Renames and removes vendor keys of one page's frontmatter, into a copy; answers it and the notes. Our own key
 * wins over its vendor name. Mintlify's other `og:*` and `twitter:*` meta tags are set by the site here.
 */
export function applyFrontmatterAliases(data: Record<string, unknown>): { data: Record<string, unknown>; notes: FrontmatterNote[] } {
  const out: Record<string, unknown> = {};
  const notes: FrontmatterNote[] = [];
  for (const [key, value] of Object.entries(data)) {
    const renamed = RENAMED[key];
    const navigation = READ_BY_NAVIGATION[key];
    const ignored = IGNORED[key] ?? (/^(og|twitter):/.test(key) ? { vendor: 'Mintlify', does: 'a meta tag of the page (set by the site here)' } : undefined);
    if (renamed) {
      const kept = renamed.ours in data;
      if (!kept) out[renamed.ours] = value;
      notes.push({ key, message: `\`${key}\` is ${renamed.vendor}'s name for \`${renamed.ours}\`: rename it${kept ? ` (ignored: \`${renamed.ours}\` is set)` : ''}` });
    } else if (navigation) {
      notes.push({ key, message: `\`${key}\` is Mintlify's setting for ${navigation.does}: read when docs.json's navigation is Mintlify's (a sidebar of ours sets the entry's \`${navigation.ours}\`)` });
    } else if (ignored) {
      notes.push({ key, message: `\`${key}\` is ${ignored.vendor}'s setting for ${ignored.does}; nothing here does that (ignored)` });
    } else if (!(key in out)) {
      out[key] = value;
    }
  }
  return { data: out, notes };
}
