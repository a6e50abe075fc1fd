/**
 * The same generated pages as an Astro Starlight project: astro.config.mjs with the starlight integration and
 * the same sidebar as `{ label, items: [{ label, link }] }`, src/content.config.ts with docsLoader/docsSchema,
 * pages copied to src/content/docs. The only change to a copied page is one line after its frontmatter:
 * `import { Aside as Note } from '@astrojs/starlight/components';`, so `<Note>` renders as Starlight's note
 * aside. The project finds its packages in a hard-link copy of this repository's node_modules.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './paths.ts';
import { SITE_NAME, writeFiles, type GeneratedSite } from './site.ts';

function packageVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

const NOTE_IMPORT = "import { Aside as Note } from '@astrojs/starlight/components';";

/** The same pages as a Starlight project; `<Note>` becomes Starlight's note aside through one added import. */
export function writeStarlightProject(dir: string, site: GeneratedSite): void {
  const dependencies = { astro: packageVersion('astro'), '@astrojs/starlight': packageVersion('@astrojs/starlight') };
  const sidebar = site.groups.map((group) => ({ label: group.label, items: group.pages.map((p) => ({ label: p.title, link: p.route })) }));
  const config = `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

export default defineConfig({
  integrations: [starlight({ title: ${JSON.stringify(SITE_NAME)}, sidebar: ${JSON.stringify(sidebar)} })],
});
`;
  const contentConfig = `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';

export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`;
  const withNoteImport = (text: string) => text.replace(/^(---\n[\s\S]*?\n---\n)/, `$1\n${NOTE_IMPORT}\n`);
  writeFiles(dir, [
    ['package.json', `${JSON.stringify({ name: 'bench-starlight', private: true, type: 'module', dependencies }, null, 2)}\n`],
    ['astro.config.mjs', config],
    ['src/content.config.ts', contentConfig],
    ...site.pages.map((p): [string, string] => [join('src/content/docs', p.file), withNoteImport(p.text)]),
  ]);
}

/** A hard-link copy of the repository's node_modules at `target` (same file system as the temp dir). */
export function linkNodeModules(target: string): void {
  const copy = spawnSync('cp', ['-al', join(REPO_ROOT, 'node_modules'), target], { encoding: 'utf8' });
  if (copy.status !== 0) {
    throw new Error(`cp -al node_modules into ${dirname(target)} failed (${copy.stderr.trim() || copy.error?.message}); set TMPDIR to a directory on the file system of ${REPO_ROOT}`);
  }
}
