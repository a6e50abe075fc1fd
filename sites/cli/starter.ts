/** What `docs init` writes: a small site that passes `docs check --strict` and shows the main features. */
export const STARTER_FILES: Record<string, string> = {
  'docs.json': `${JSON.stringify(
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
  )}\n`,
  'index.mdx': `---
title: Introduction
description: What My Project is and where to start.
---

Welcome to the {{ product }} documentation.

<Note>Edit \`index.mdx\` and run \`docs dev\` to see your changes.</Note>

## Next steps

Follow the [quickstart](/quickstart).
`,
  'quickstart.mdx': `---
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
`,
};
