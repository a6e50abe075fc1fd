/** Writes openapi.json from the routers; `--check` fails instead when the committed file differs. */
import { readFileSync, writeFileSync } from 'node:fs';
import { appRouter } from '../routers/index.ts';
import { buildOpenApiDocument } from '../server/platform/http/openapi.ts';

const file = new URL('../openapi.json', import.meta.url);
const fresh = `${JSON.stringify(buildOpenApiDocument(appRouter), null, 2)}\n`;
if (process.argv.includes('--check')) {
  const committed = readFileSync(file, 'utf8');
  if (committed !== fresh) {
    console.error('openapi.json is out of date with the routers: run `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('openapi.json matches the routers');
} else {
  writeFileSync(file, fresh);
  console.log('wrote openapi.json');
}
