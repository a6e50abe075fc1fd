import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import type { OrganizationService } from './service.ts';

/**
 * The embedded default starts usable: on first start (no organization yet) it creates a development
 * organization and keeps its API key in `<dataDir>/dev-organization.json` (mode 0600); the log names the file.
 */
export async function ensureDevOrganization(organizations: OrganizationService, dataDir: string, log: Logger) {
  if ((await organizations.count()) > 0) return;
  const credentials = await organizations.create('Development');
  const file = join(dataDir, 'dev-organization.json');
  if (!dataDir.startsWith('memory://')) await writeFile(file, `${JSON.stringify(credentials)}\n`, { mode: 0o600 });
  // The key itself stays out of the log (logs get shipped and kept): it is in the file, readable by this user only.
  log.info({ orgId: credentials.orgId, file }, `created a development organization; its API key is in ${file} (send it as "Authorization: Bearer <apiKey>")`);
}
