import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Logger } from '../logger.ts';
import type { OrganizationService } from './service.ts';

/**
 * The embedded default starts usable: on first start (no organization yet) it creates a development
 * organization and keeps its API key in `<dataDir>/dev-organization.json` (mode 0600). Every start says where
 * the key is and how to read it; the key itself stays out of the log (logs get shipped and kept).
 */
export async function ensureDevOrganization(organizations: OrganizationService, dataDir: string, log: Logger) {
  const inMemory = dataDir.startsWith('memory://');
  const file = join(dataDir, 'dev-organization.json');
  if ((await organizations.count()) === 0) {
    const credentials = await organizations.create('Development');
    if (inMemory) return;
    await writeFile(file, `${JSON.stringify(credentials)}\n`, { mode: 0o600 });
  } else if (inMemory || !existsSync(file)) return;
  const shown = relative(process.cwd(), file).startsWith('..') ? file : `./${relative(process.cwd(), file)}`;
  log.info(
    { file },
    `the development organization's API key is in ${shown}: send it as "Authorization: Bearer <key>"; print it with node -p "require('${shown}').apiKey"`,
  );
}
