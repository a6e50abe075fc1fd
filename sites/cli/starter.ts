import { PAGES_FOLDER, type LayoutKind } from '../content/layout.ts';

const CONFIG = `${JSON.stringify(
  {
    name: 'My Project',
    description: 'Documentation for My Project.',
    theme: { primary: '#2563eb' },
    sidebar: [
      {
        group: 'Getting started',
        pages: [
          { title: 'Introduction', href: '/' },
          { title: 'Quickstart', href: '/quickstart' },
        ],
      },
    ],
    variables: { product: 'My Project' },
  },
  null,
  2,
)}\n`;

const home = (file: string) => `---
title: Introduction
description: What My Project is and where to start.
---

Welcome to the {{ product }} documentation.

<Note>Edit \`${file}\` and run \`docs dev\` to see your changes.</Note>

## Next steps

Follow the [quickstart](/quickstart).
`;

const QUICKSTART = `---
title: Quickstart
description: Install and run it in a minute.
---

<Steps>
  <Step title="Install">
    \`\`\`sh
    npm install my-project
    \`\`\`
  </Step>
  <Step title="Run">
    \`\`\`sh
    npx my-project
    \`\`\`
  </Step>
</Steps>
`;

/**
 * What `docs init` writes: a small site that passes `docs check --strict` and shows the main features. `plain`:
 * docs.json and the pages in the folder; `docs-page` (docs.page's layout): docs.json in the folder and the pages in
 * its `docs/` folder, read from there at the same routes (content/layout.ts).
 */
export function starterFiles(layout: LayoutKind = 'plain'): Record<string, string> {
  const pages = layout === 'docs-page' ? `${PAGES_FOLDER}/` : '';
  return {
    'docs.json': CONFIG,
    [`${pages}index.mdx`]: home(`${pages}index.mdx`),
    [`${pages}quickstart.mdx`]: QUICKSTART,
  };
}

/** The plain starter's files. */
export const STARTER_FILES: Record<string, string> = starterFiles('plain');
