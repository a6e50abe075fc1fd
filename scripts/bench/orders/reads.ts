/**
 * The marketplace's hot reads, each over HTTP with autocannon (signed once: a GET signature stays valid 5 minutes),
 * on our server and, on the same database afterwards, on the hand-written floor (baseline.ts):
 *   GET /api/orders?limit=20               a wallet with 1,000 orders, without and with a status filter
 *   GET /api/conversations/:id/messages    50 of a conversation's 200 messages
 *   GET /api/agents/:id                    public
 * The order list is also measured through OrderService.list, to tell the HTTP stack's share.
 */
import { signedHeaders } from '../../../client-sdk/wallet.ts';
import type { RunningServer } from '../../../server/app.ts';
import type { OrderList } from '../../../server/marketplace/schemas.ts';
import { integer } from '../common/format.ts';
import { measureAutocannon, measureDirect } from '../common/measure.ts';
import type { Measurement } from '../common/stats.ts';
import { LISTED_ORDERS, LISTER_AGENTS, LISTER_MESSAGES, type Seeded } from './seed.ts';

const ORDER_PAGE = 20;
const MESSAGE_PAGE = 50;
const LIST_STATUS = 'PAID';
/** As the API part. */
export const READ_CONCURRENCY = 10;
export const WARMUP_SECONDS = 1;
export const READ_SECONDS = 3;

/** One read: its path, and whether it is signed (by the lister). */
export interface Read {
  scenario: string;
  path: string;
  signed: boolean;
  /** Checks a 200 body; a broken scenario fails loudly instead of measuring errors. */
  expect(body: Record<string, unknown>): boolean;
}

const listRead = (status?: string): Read => {
  const path = `/api/orders?${status ? `status=${status}&` : ''}limit=${ORDER_PAGE}`;
  return { scenario: `GET ${path}`, path, signed: true, expect: (body) => (body.orders as unknown[] | undefined)?.length === ORDER_PAGE };
};

export function reads(seeded: Seeded): Read[] {
  return [
    listRead(),
    listRead(LIST_STATUS),
    {
      scenario: `GET /api/conversations/:id/messages?limit=${MESSAGE_PAGE} (of ${LISTER_MESSAGES})`,
      path: `/api/conversations/${seeded.listerConversation}/messages?limit=${MESSAGE_PAGE}`,
      signed: true,
      expect: (body) => (body.messages as unknown[] | undefined)?.length === MESSAGE_PAGE && body.total === LISTER_MESSAGES,
    },
    { scenario: 'GET /api/agents/:id', path: `/api/agents/${seeded.agents[0]!.id}`, signed: false, expect: (body) => body.id === seeded.agents[0]!.id },
  ];
}

/** The headers of `read` (signed by the lister when it must be), once it answered as expected at `baseUrl`. */
export async function checkedRead(read: Read, seeded: Seeded, baseUrl: string, label: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = read.signed ? await signedHeaders(seeded.lister.signer, 'GET', read.path, Date.now()) : {};
  const check = await fetch(`${baseUrl}${read.path}`, { headers });
  const body = (await check.json()) as Record<string, unknown>;
  if (check.status !== 200 || !read.expect(body)) throw new Error(`${label}: GET ${read.path} answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return headers;
}

/** Each read over HTTP against `baseUrl`, labelled `path` (our server, or the baseline). */
export async function measureReads(baseUrl: string, label: string, seeded: Seeded): Promise<Measurement[]> {
  const rows: Measurement[] = [];
  for (const read of reads(seeded)) {
    const headers = await checkedRead(read, seeded, baseUrl, label);
    const measured = await measureAutocannon(read.scenario, { url: `${baseUrl}${read.path}`, headers }, { connections: READ_CONCURRENCY, warmupSeconds: WARMUP_SECONDS, seconds: READ_SECONDS });
    rows.push({ ...measured, path: label });
  }
  return rows;
}

/** Our server's reads over HTTP, and the order list through the service. */
export async function benchReads(server: RunningServer, seeded: Seeded): Promise<Measurement[]> {
  const [count] = await server.db.em().execute<{ total: string | number }[]>('select count(*) as total from orders');
  console.log(
    `  reads: the lister wallet has ${integer(LISTED_ORDERS)} orders (all statuses, ${LISTER_AGENTS} agents) and a ${LISTER_MESSAGES}-message ` +
      `conversation; the orders table holds ${integer(Number(count?.total ?? 0))} rows; signed once, ${READ_CONCURRENCY} in flight, ` +
      `${WARMUP_SECONDS} s warm-up + ${READ_SECONDS} s`,
  );
  const rows = await measureReads(server.url, 'HTTP (autocannon)', seeded);
  for (const status of [undefined, LIST_STATUS] as const) {
    const query: OrderList = { limit: ORDER_PAGE, offset: 0, ...(status ? { status } : {}) };
    rows.push(
      await measureDirect(listRead(status).scenario, 'service orders.list', { concurrency: READ_CONCURRENCY, warmup: { operations: 200 }, seconds: READ_SECONDS }, () =>
        server.services.orders.list(seeded.lister.address, query),
      ),
    );
  }
  return rows;
}
