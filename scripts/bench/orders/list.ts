/**
 * GET /api/orders?limit=20 for a wallet with 1,000 orders, without and with a status filter: signed once (a
 * GET signature stays valid 5 minutes), over HTTP with autocannon and through OrderService.list.
 */
import { signedHeaders } from '../../../client-sdk/wallet.ts';
import type { RunningServer } from '../../../server/app.ts';
import type { OrderList } from '../../../server/marketplace/schemas.ts';
import { integer } from '../common/format.ts';
import { measureAutocannon, measureDirect } from '../common/measure.ts';
import type { Measurement } from '../common/stats.ts';
import { LISTED_ORDERS, LISTER_AGENTS, type Seeded } from './seed.ts';

const ORDER_PAGE = 20;
const LIST_STATUS = 'PAID';
/** As the API part, for the order list. */
const LIST_CONCURRENCY = 10;
const WARMUP_SECONDS = 1;
/** Shorter than the API part's 5 s: four list runs per database. */
const LIST_SECONDS = 3;

export async function benchList(server: RunningServer, seeded: Seeded): Promise<Measurement[]> {
  const { lister } = seeded;
  const [count] = await server.db.em().execute<{ total: string | number }[]>('select count(*) as total from orders');
  console.log(
    `  order list: the lister wallet has ${integer(LISTED_ORDERS)} orders (all statuses, ${LISTER_AGENTS} agents); the orders table holds ` +
      `${integer(Number(count?.total ?? 0))} rows; signed once, ${LIST_CONCURRENCY} in flight, ${WARMUP_SECONDS} s warm-up + ${LIST_SECONDS} s`,
  );
  const rows: Measurement[] = [];
  for (const status of [undefined, LIST_STATUS] as const) {
    const path = `/api/orders?${status ? `status=${status}&` : ''}limit=${ORDER_PAGE}`;
    const headers: Record<string, string> = await signedHeaders(lister.signer, 'GET', path, Date.now());
    const check = await fetch(`${server.url}${path}`, { headers });
    const body = (await check.json()) as { orders?: unknown[]; total?: number };
    if (check.status !== 200 || body.orders?.length !== ORDER_PAGE) throw new Error(`GET ${path} answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
    const scenario = `GET ${path} (${integer(body.total ?? 0)} match)`;
    rows.push(
      await measureAutocannon(scenario, { url: `${server.url}${path}`, headers }, { connections: LIST_CONCURRENCY, warmupSeconds: WARMUP_SECONDS, seconds: LIST_SECONDS }),
    );
    const query: OrderList = { limit: ORDER_PAGE, offset: 0, ...(status ? { status } : {}) };
    rows.push(
      await measureDirect(scenario, 'service orders.list', { concurrency: LIST_CONCURRENCY, warmup: { operations: 200 }, seconds: LIST_SECONDS }, () =>
        server.services.orders.list(lister.address, query),
      ),
    );
  }
  return rows;
}
