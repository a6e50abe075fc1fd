/**
 * The honest floor for the marketplace reads: a hand-written node:http server doing the same work as ours on the
 * same tables (the wallet signature checked with node:crypto, one SQL statement, the same JSON), with none of our
 * layers (tRPC, the REST adapter, zod, MikroORM, rate limiting). The bench runs it on the database our server just
 * used and prints our figure as a ratio of its own.
 *
 *   GET /api/orders?limit=&status=                    signed: the caller's orders and their total
 *   GET /api/conversations/:id/messages?limit=        signed: a participant's page of messages and their total
 *   GET /api/agents/:id                               public: an agent and its latest 50 reviews
 */
import { createPublicKey, verify } from 'node:crypto';
import bs58 from 'bs58';
import type { DatabaseConfig } from '../../../server/platform/config.ts';
import { startFloor, type Answer, type Query } from '../common/floor.ts';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const iso = (value: unknown) => (value === null ? null : new Date(value as string).toISOString());
const usdc = (micro: unknown) => Number(micro) / 1_000_000;

/** The signing wallet of a GET, or undefined (no replay check: GET signatures may be reused in their window). */
function signer(method: string, url: string, headers: Record<string, string | string[] | undefined>): string | undefined {
  const wallet = headers['x-wallet-address'];
  const signature = headers['x-signature'];
  const timestamp = headers['x-timestamp'];
  if (typeof wallet !== 'string' || typeof signature !== 'string' || typeof timestamp !== 'string') return undefined;
  const age = Date.now() - Number(timestamp);
  if (!(age <= 300_000 && age >= -30_000)) return undefined;
  try {
    const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, bs58.decode(wallet)]), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(`${method}:${url}:${timestamp}`), key, bs58.decode(signature)) ? wallet : undefined;
  } catch {
    return undefined;
  }
}

/** As OrderService.list: two index-ordered halves (consumer; agent of others' orders), merged, totals from the indexes. */
function ordersSql(status: boolean): string {
  const narrowing = status ? ' and o.status = $5' : '';
  const asClient = `from orders o where o.client_wallet = $1${narrowing}`;
  const asAgent = `from orders o where o.agent_id = (select id from agent where wallet_address = $1) and o.client_wallet <> $1${narrowing}`;
  return `
    with candidates as (
      (select o.* ${asClient} order by o.created_at desc, o.id limit $2)
      union all
      (select o.* ${asAgent} order by o.created_at desc, o.id limit $2)
    ), page as (
      select c.*, a.name, a.avatar_url from candidates c join agent a on a.id = c.agent_id order by c.created_at desc, c.id limit $3 offset $4
    )
    select (select count(*) ${asClient}) + (select count(*) ${asAgent}) as total,
           p.id, p.conversation_id, p.agent_id, p.name, p.avatar_url, p.client_wallet, p.description, p.price_micro, p.status,
           p.created_at, p.completed_at
    from (select 1) one left join page p on true
    order by p.created_at desc, p.id`;
}
const ORDERS = ordersSql(false);
const ORDERS_BY_STATUS = ordersSql(true);

const MESSAGES = `
  select m.id, m.sender_wallet, m.content, m.message_type, m.created_at, count(*) over () as total
  from message m join conversation c on c.id = m.conversation_id join agent a on a.id = c.agent_id
  where m.conversation_id = $1 and (c.client_wallet = $2 or a.wallet_address = $2)
  order by m.created_at, m.seq limit $3 offset $4`;

const AGENT = `
  select a.*, coalesce((select json_agg(r) from (
           select id, rating, comment, client_wallet, created_at from review where agent_id = a.id order by created_at desc limit 50
         ) r), '[]') as reviews
  from agent a where a.id = $1 and a.deleted_at is null`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The three reads over `query`. */
const ordersFloor =
  (query: Query): Answer =>
  async (method, url, headers) => {
    const parsed = new URL(url, 'http://localhost');
    const limit = Number(parsed.searchParams.get('limit') ?? 20);
    const offset = Number(parsed.searchParams.get('offset') ?? 0);
    const parts = parsed.pathname.split('/');
    if (parsed.pathname === '/api/orders') {
      const wallet = signer(method, url, headers);
      if (!wallet) return [401, { error: 'INVALID_SIGNATURE' }];
      const status = parsed.searchParams.get('status');
      const rows = await query(status ? ORDERS_BY_STATUS : ORDERS, [wallet, limit + offset, limit, offset, ...(status ? [status] : [])]);
      const orders = rows.filter((r) => r.id !== null).map((r) => ({
        id: r.id,
        conversationId: r.conversation_id,
        agentId: r.agent_id,
        agent: { name: r.name, avatarUrl: r.avatar_url ?? null },
        clientWallet: r.client_wallet,
        description: r.description,
        price: usdc(r.price_micro),
        status: r.status,
        createdAt: iso(r.created_at),
        completedAt: iso(r.completed_at),
      }));
      return [200, { orders, total: Number(rows[0]?.total ?? 0), limit, offset }];
    }
    if (parts[1] === 'api' && parts[2] === 'conversations' && UUID.test(parts[3] ?? '') && parts[4] === 'messages' && parts.length === 5) {
      const wallet = signer(method, url, headers);
      if (!wallet) return [401, { error: 'INVALID_SIGNATURE' }];
      const rows = await query(MESSAGES, [parts[3], wallet, limit, offset]);
      const messages = rows.map((r) => ({
        id: r.id,
        conversationId: parts[3],
        senderWallet: r.sender_wallet,
        content: r.content,
        messageType: r.message_type,
        createdAt: iso(r.created_at),
      }));
      return [200, { messages, total: Number(rows[0]?.total ?? 0), limit, offset }];
    }
    if (parts[1] === 'api' && parts[2] === 'agents' && UUID.test(parts[3] ?? '') && parts.length === 4) {
      const [a] = await query(AGENT, [parts[3]]);
      if (!a) return [404, { error: 'AGENT_NOT_FOUND' }];
      const reviews = (typeof a.reviews === 'string' ? JSON.parse(a.reviews) : a.reviews) as Record<string, unknown>[];
      return [
        200,
        {
          id: a.id,
          walletAddress: a.wallet_address,
          name: a.name,
          tagline: a.tagline,
          description: a.description,
          avatarUrl: a.avatar_url ?? null,
          bannerUrl: a.banner_url ?? null,
          categories: a.categories,
          basePrice: usdc(a.base_price_micro),
          rating: a.rating,
          totalOrders: a.total_orders,
          completedOrders: a.completed_orders,
          status: a.status,
          createdAt: iso(a.created_at),
          endpoint: a.endpoint,
          stakeAmount: usdc(a.stake_amount_micro),
          updatedAt: iso(a.updated_at),
          services: a.services,
          reviews: reviews.map((r) => ({ id: r.id, rating: r.rating, comment: r.comment ?? null, clientWallet: r.client_wallet, createdAt: iso(r.created_at) })),
        },
      ];
    }
    return [404, { error: 'NOT_FOUND' }];
  };

/** The floor of the marketplace reads on a database our server has closed. */
export const floorQuery = (database: DatabaseConfig) => startFloor(database, ordersFloor);
