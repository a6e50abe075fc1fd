import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import type { OrganizationService } from './service.ts';

/**
 * The embedded default starts usable: on first start (no organization yet) it creates a development
 * organization, prints its API key and keeps it in `<dataDir>/dev-organization.json` (mode 0600).
 */
export async function ensureDevOrganization(organizations: OrganizationService, dataDir: string, log: Logger) {
  if ((await organizations.count()) > 0) return;
  const credentials = await organizations.create('Development');
  const file = join(dataDir, 'dev-organization.json');
  if (!dataDir.startsWith('memory://')) await writeFile(file, `${JSON.stringify(credentials)}\n`, { mode: 0o600 });
  log.info({ ...credentials, file }, 'created a development organization; use its API key as "Authorization: Bearer <apiKey>"');
}
