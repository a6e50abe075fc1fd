/**
 * `npm run org:create -- <name>`: creates an organization in the configured database (DATABASE_URL,
 * else the embedded one in DATA_DIR) and prints one JSON line: { "orgId", "apiKey" }.
 */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/orm.ts';
import { OrganizationService } from './service.ts';

const name = process.argv.slice(2).join(' ').trim();
if (!name || name.length > 200) {
  console.error('usage: npm run org:create -- <organization name (1-200 characters)>');
  process.exit(2);
}
const db = await openDatabase(loadConfig().database);
try {
  console.log(JSON.stringify(await new OrganizationService(db).create(name)));
} finally {
  await db.close();
}
