/**
 * The generated documentation the docs and hosting benches build: for a page count, a docs folder with
 * docs.json whose sidebar lists every page in groups of 25, and MDX pages of about 5 kB (frontmatter title and
 * description, h2/h3 headings, paragraphs, bullet and numbered lists, two fenced code blocks, a table, a
 * `<Note>` callout and about ten internal links to other pages). The generator is seeded: every run writes
 * the same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mulberry32 } from '../../../server/platform/random.ts';

const GROUP_SIZE = 25;
export const SITE_NAME = 'Bench Docs';

export interface GeneratedPage {
  /** Path of the MDX file inside the docs folder: `index.mdx`, `group-01/page-0002.mdx`. */
  file: string;
  /** The page's route: `/`, `/group-01/page-0002`. */
  route: string;
  title: string;
  /** The whole MDX file, frontmatter included. */
  text: string;
}

export interface GeneratedSite {
  pages: GeneratedPage[];
  /** Titles and routes of each sidebar group, in order. */
  groups: { label: string; pages: GeneratedPage[] }[];
}

const TOPICS = [
  'webhooks', 'API keys', 'rate limits', 'pagination', 'error handling', 'organizations', 'agents', 'orders',
  'payments', 'refunds', 'reviews', 'search', 'live events', 'idempotency', 'wallets', 'audit logs',
  'exports', 'imports', 'permissions', 'teams', 'billing', 'sandbox', 'deployments', 'environments',
];
const VERBS = ['Configuring', 'Understanding', 'Migrating', 'Testing', 'Securing', 'Monitoring', 'Scaling', 'Debugging'];
const WORDS = (
  'the request response server client token value field option setting default resource endpoint each when ' +
  'returns contains includes header body query parameter status code page list item order payment wallet agent ' +
  'organization account event message retry limit window second minute cache database record version schema ' +
  'valid invalid missing optional required string number boolean object array timestamp signature key secret ' +
  'before after during until unless only also always never usually often first last next previous new old'
).split(' ');
const IDENTIFIERS = ['timeout', 'retries', 'baseUrl', 'apiKey', 'region', 'pageSize', 'webhookSecret', 'logLevel', 'maxBodyBytes', 'currency'];
const TYPES = ['string', 'number', 'boolean', 'string[]', 'Record<string, string>'];

/** The same seeded pages every run (also what hosting.ts publishes). */
export function generateSite(count: number): GeneratedSite {
  const rand = mulberry32(20_260_115 + count);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const pages: GeneratedPage[] = [];
  for (let i = 0; i < count; i++) {
    const group = Math.floor(i / GROUP_SIZE) + 1;
    const file = i === 0 ? 'index.mdx' : `group-${String(group).padStart(2, '0')}/page-${String(i + 1).padStart(4, '0')}.mdx`;
    const route = i === 0 ? '/' : `/${file.replace(/\.mdx$/, '')}`;
    pages.push({ file, route, title: `${pick(VERBS)} ${pick(TOPICS)} ${i + 1}`, text: '' });
  }
  const link = () => {
    const target = pick(pages);
    return `[${target.title}](${target.route})`;
  };
  const sentence = (min = 8, max = 18) => {
    const n = min + Math.floor(rand() * (max - min));
    const words = Array.from({ length: n }, () => pick(WORDS));
    if (rand() < 0.3) words[Math.floor(rand() * n)] = `\`${pick(IDENTIFIERS)}\``;
    if (rand() < 0.15) words[Math.floor(rand() * n)] = `**${pick(WORDS)}**`;
    const text = words.join(' ');
    return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = (sentences = 3 + Math.floor(rand() * 3), withLink = rand() < 0.5) => {
    const parts = Array.from({ length: sentences }, () => sentence());
    if (withLink) parts.splice(1, 0, `See ${link()} for details.`);
    return parts.join(' ');
  };
  const codeBlock = (page: number) => {
    const fields = Array.from({ length: 4 + Math.floor(rand() * 4) }, () => pick(IDENTIFIERS));
    return [
      '```ts',
      `import { createClient } from '@example/sdk';`,
      '',
      `// ${sentence(6, 10)}`,
      'const client = createClient({',
      ...fields.map((field, n) => `  ${field}: ${rand() < 0.5 ? `'${pick(WORDS)}-${page}-${n}'` : String(Math.floor(rand() * 1000))},`),
      '});',
      '',
      `export async function run${page}(id: string): Promise<void> {`,
      `  const result = await client.${pick(['orders', 'agents', 'payments', 'events'])}.get(id);`,
      `  if (!result.ok) throw new Error(\`${pick(WORDS)} failed: \${result.status}\`);`,
      '  console.log(result.data);',
      '}',
      '```',
    ].join('\n');
  };
  const table = () => {
    const rows = Array.from({ length: 6 }, () => `| \`${pick(IDENTIFIERS)}\` | \`${pick(TYPES)}\` | \`${Math.floor(rand() * 100)}\` | ${sentence(5, 10)} |`);
    return ['| Option | Type | Default | Description |', '| --- | --- | --- | --- |', ...rows].join('\n');
  };
  const list = (items: number) => Array.from({ length: items }, () => `- ${rand() < 0.4 ? `${link()}: ` : ''}${sentence(5, 12)}`).join('\n');
  const steps = (items: number) => Array.from({ length: items }, (_, n) => `${n + 1}. ${sentence(5, 12)}`).join('\n');

  for (const [i, page] of pages.entries()) {
    page.text = `---
title: ${JSON.stringify(page.title)}
description: ${JSON.stringify(sentence(8, 14))}
---

${paragraph(3, true)}

<Note>${sentence()} See ${link()}.</Note>

## Overview

${paragraph()}

${paragraph()}

${list(5)}

### How it works

${paragraph()}

${steps(4)}

## Configuration

${paragraph()}

${codeBlock(i + 1)}

${table()}

### Environment variables

${paragraph(2, false)}

\`\`\`sh
export EXAMPLE_${pick(IDENTIFIERS).toUpperCase()}=${pick(WORDS)}
npx example-cli ${pick(WORDS)} --${pick(IDENTIFIERS)} ${Math.floor(rand() * 100)}
\`\`\`

## Troubleshooting

### The ${pick(WORDS)} is ${pick(['missing', 'rejected', 'invalid', 'slow'])}

${paragraph()}

### Retries and ${pick(TOPICS)}

${paragraph()}

## Related pages

${Array.from({ length: 4 }, () => `- ${link()}`).join('\n')}
`;
  }
  const groups = [];
  for (let start = 0; start < pages.length; start += GROUP_SIZE) {
    groups.push({ label: `Group ${groups.length + 1}`, pages: pages.slice(start, start + GROUP_SIZE) });
  }
  return { pages, groups };
}

export function writeFiles(root: string, files: Iterable<[string, string]>): void {
  for (const [file, text] of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

/** Our docs folder: docs.json and the pages as generated. */
export function writeOurSource(dir: string, site: GeneratedSite): void {
  const docsJson = {
    name: SITE_NAME,
    description: 'Generated pages for the docs build benchmark.',
    sidebar: site.groups.map((group) => ({ group: group.label, pages: group.pages.map((p) => ({ title: p.title, href: p.route })) })),
  };
  writeFiles(dir, [['docs.json', `${JSON.stringify(docsJson, null, 2)}\n`], ...site.pages.map((p): [string, string] => [p.file, p.text])]);
}

/** Adds a paragraph to the body of the page in the middle of the site (what a writer's next commit does). */
export function editOnePage(dir: string, site: GeneratedSite): GeneratedPage {
  const page = site.pages[Math.floor(site.pages.length / 2)]!;
  writeFileSync(join(dir, page.file), `${page.text}\nOne more paragraph, added after the first build.\n`);
  return page;
}
