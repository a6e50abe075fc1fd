import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { aggregatedRows } from '../platform/db/json-rows.ts';
import type { Database } from '../platform/db/orm.ts';
import { Agent, LIVE_PAYMENT_STATES, Order, type StoredService } from './entities.ts';
import { AppError } from '../platform/errors.ts';
import { microToUsdc, usdcToMicro } from './money.ts';
import type {
  AgentDetail,
  AgentListItem,
  AgentRegistration,
  AgentSearch,
  AgentStats,
  AgentUpdate,
  Service,
} from './schemas.ts';

export const agentNotFound = (id: string) => new AppError('AGENT_NOT_FOUND', `Agent '${id}' not found`);
const notOwner = () => new AppError('UNAUTHORIZED_ACCESS', 'Only the wallet that registered this agent may do this');
const micro = (usdc: number) => usdcToMicro(usdc)!; // validated by the schemas

/** Services as stored: prices in micro-USDC. */
export const toStoredServices = (services: Service[]): StoredService[] =>
  services.map(({ price, ...rest }) => ({ ...rest, priceMicro: micro(price).toString() }));
const fromStored = (services: StoredService[]): Service[] =>
  services.map(({ priceMicro, ...rest }) => ({ ...rest, price: microToUsdc(BigInt(priceMicro)) }));

/**
 * The reads select these columns as one JSON object (`json_build_object`), so both drivers hand over the same values
 * (timestamps as ISO text, numbers as numbers) and they are only converted, never hydrated into entities: a read that
 * is only serialised does not pay for MikroORM's identity map and change tracking (~15% of a detail request's CPU).
 */
const AGENT_COLUMNS = {
  id: 'id',
  walletAddress: 'wallet_address',
  name: 'name',
  tagline: 'tagline',
  description: 'description',
  avatarUrl: 'avatar_url',
  bannerUrl: 'banner_url',
  categories: 'categories',
  basePriceMicro: 'base_price_micro',
  endpoint: 'endpoint',
  stakeAmountMicro: 'stake_amount_micro',
  services: 'services',
  status: 'status',
  rating: 'rating',
  totalOrders: 'total_orders',
  completedOrders: 'completed_orders',
  responseMinutesSum: 'response_minutes_sum',
  responseCount: 'response_count',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Partial<Record<keyof Agent & string, string>>;

/** What an agent's list item and detail are made of. */
type AgentFields = { [K in keyof typeof AGENT_COLUMNS]: Agent[K] };
const AGENT_JSON = `json_build_object(${Object.values(AGENT_COLUMNS).map((column) => `'${column}', ${column}`).join(', ')})`;

type AgentJson = { [K in keyof typeof AGENT_COLUMNS as (typeof AGENT_COLUMNS)[K]]: unknown };

/** An agent selected as AGENT_JSON (parsed by the driver, or its text). */
function agentOf(value: unknown): AgentFields {
  const row = (typeof value === 'string' ? JSON.parse(value) : value) as AgentJson;
  return {
    id: row.id as string,
    walletAddress: row.wallet_address as string,
    name: row.name as string,
    tagline: row.tagline as string,
    description: row.description as string,
    avatarUrl: row.avatar_url as string | null,
    bannerUrl: row.banner_url as string | null,
    categories: row.categories as string[],
    basePriceMicro: BigInt(row.base_price_micro as number),
    endpoint: row.endpoint as string,
    stakeAmountMicro: BigInt(row.stake_amount_micro as number),
    services: row.services as StoredService[],
    status: row.status as string,
    rating: Number(row.rating),
    totalOrders: row.total_orders as number,
    completedOrders: row.completed_orders as number,
    responseMinutesSum: Number(row.response_minutes_sum),
    responseCount: row.response_count as number,
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.updated_at as string),
  };
}

/** Mean minutes from a conversation's start to the agent's first reply (0 before any reply). */
const responseTime = (agent: AgentFields) => (agent.responseCount ? agent.responseMinutesSum / agent.responseCount : 0);

function listItem(agent: AgentFields): AgentListItem {
  return {
    id: agent.id,
    walletAddress: agent.walletAddress,
    name: agent.name,
    tagline: agent.tagline,
    description: agent.description,
    avatarUrl: agent.avatarUrl ?? null,
    bannerUrl: agent.bannerUrl ?? null,
    categories: agent.categories as AgentListItem['categories'],
    basePrice: microToUsdc(agent.basePriceMicro),
    rating: agent.rating,
    totalOrders: agent.totalOrders,
    completedOrders: agent.completedOrders,
    responseTime: responseTime(agent),
    status: agent.status as AgentListItem['status'],
    createdAt: agent.createdAt.toISOString(),
  };
}

/** Orders that count as revenue: paid, whatever happened after (an SQL list of constants). */
const PAID = ['PAID', 'DELIVERED', 'COMPLETED'].map((status) => `'${status}'`).join(', ');

/** An agent's row as registration writes it (seeding and benchmarks add their own statistics on top). */
export function newAgentRow(input: Omit<AgentRegistration, 'services'> & { services?: AgentRegistration['services'] }, at: Date) {
  return {
    id: randomUUID(),
    walletAddress: input.walletAddress,
    name: input.name,
    tagline: input.tagline,
    description: input.description,
    avatarUrl: input.avatarUrl ?? null,
    bannerUrl: input.bannerUrl ?? null,
    categories: input.categories,
    basePriceMicro: micro(input.basePrice),
    endpoint: input.endpoint,
    stakeAmountMicro: micro(input.stakeAmount ?? 0),
    services: toStoredServices(input.services ?? []),
    status: 'ACTIVE',
    createdAt: at,
    updatedAt: at,
  };
}

/** Provider agents: registration, search, detail, owner updates and stats. */
export class AgentService {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async register(wallet: string, input: AgentRegistration) {
    if (input.walletAddress !== wallet) throw new AppError('UNAUTHORIZED_ACCESS', 'walletAddress must be the signing wallet');
    const now = new Date();
    const agent = newAgentRow(input, now);
    try {
      await this.#db.em().insert(Agent, agent);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw new AppError('DUPLICATE_REGISTRATION', 'This wallet has already registered an agent');
      }
      throw error;
    }
    return { id: agent.id, walletAddress: agent.walletAddress, name: agent.name, status: 'ACTIVE' as const, createdAt: now.toISOString() };
  }

  /** ACTIVE agents matching every filter; by relevance with a query, else by rating, then completed orders. */
  async search(filters: AgentSearch): Promise<{ agents: AgentListItem[]; total: number; limit: number; offset: number }> {
    const em = this.#db.em();
    const conditions = ['status = ?', 'deleted_at is null'];
    const params: unknown[] = ['ACTIVE'];
    if (filters.category) {
      conditions.push('categories @> ?::jsonb');
      params.push(JSON.stringify([filters.category]));
    }
    if (filters.maxPrice !== undefined) {
      // Exact decimal arithmetic in SQL: any JSON number (1e30 too) compares without floating point.
      conditions.push('base_price_micro <= floor(?::numeric * 1000000)');
      params.push(String(filters.maxPrice));
    }
    if (filters.minRating !== undefined) {
      conditions.push('rating >= ?');
      params.push(filters.minRating);
    }
    let order = 'rating desc, completed_orders desc, created_at desc, id';
    const orderParams: unknown[] = [];
    if (filters.query) {
      // Full text (stemmed words) or a plain substring, so partial words match too. Each side uses its
      // own GIN index, once, into an array the outer query looks ids up in. Plans that depend on
      // statistics went badly: an OR of the two scanned the whole table (~80 ms instead of ~7 ms for a
      // specific query over 10,000 agents), and a join on the union, without statistics (PGlite has no
      // autovacuum), ran it per row (seconds).
      const pattern = `%${filters.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(`id = any(array(select id from agent where search_vector @@ websearch_to_tsquery('english', ?)
        union select id from agent where (name || ' ' || tagline || ' ' || description) ilike ?))`);
      params.push(filters.query, pattern);
      order = `ts_rank(search_vector, websearch_to_tsquery('english', ?)) desc, ${order}`;
      orderParams.push(filters.query);
    }
    const where = conditions.join(' and ');
    const connection = em.getConnection();
    // The page, then the total: a separate count lets the page stop after `limit` rows when an index
    // gives the order (a window count would read every match with all its columns).
    const rows = await connection.execute<{ agent: unknown }[]>(
      `select ${AGENT_JSON} as agent from agent where ${where} order by ${order} limit ? offset ?`,
      [...params, ...orderParams, filters.limit, filters.offset],
    );
    const short = rows.length < filters.limit && (rows.length > 0 || filters.offset === 0);
    const total = short
      ? filters.offset + rows.length // the last page tells the total
      : Number((await connection.execute<{ total: string | number }[]>(`select count(*) as total from agent where ${where}`, params))[0]?.total ?? 0);
    const agents = rows.map((row) => listItem(agentOf(row.agent)));
    return { agents, total, limit: filters.limit, offset: filters.offset };
  }

  async get(id: string): Promise<AgentDetail> {
    // The agent and its latest 50 reviews in one statement (a hot public read: one round trip, no query builder).
    const [row] = await this.#db.em().getConnection().execute<{ agent: unknown; latest_reviews: unknown }[]>(
      `select ${AGENT_JSON} as agent, coalesce((select json_agg(r) from (
         select id, rating, comment, client_wallet, created_at from review where agent_id = a.id order by created_at desc limit 50
       ) r), '[]') as latest_reviews
       from agent a where a.id = ? and a.deleted_at is null`,
      [id],
    );
    if (!row) throw agentNotFound(id);
    const { latest_reviews: latest } = row;
    const agent = agentOf(row.agent);
    const reviews = aggregatedRows<{ id: string; rating: number; comment: string | null; client_wallet: string; created_at: string }>(latest);
    return {
      ...listItem(agent),
      endpoint: agent.endpoint,
      stakeAmount: microToUsdc(agent.stakeAmountMicro),
      updatedAt: agent.updatedAt.toISOString(),
      services: fromStored(agent.services),
      reviews: reviews.map((r) => ({
        id: r.id,
        rating: r.rating,
        comment: r.comment ?? null,
        clientWallet: r.client_wallet,
        createdAt: new Date(r.created_at).toISOString(),
      })),
    };
  }

  async update(wallet: string, id: string, changes: AgentUpdate) {
    const em = this.#db.em();
    await this.#owned(em, wallet, id);
    const updatedAt = new Date();
    const { basePrice, services, ...plain } = changes;
    // Still not deleted when written: a delete between the check and here leaves nothing to update.
    const updated = await em.nativeUpdate(Agent, { id, deletedAt: null }, {
      ...plain,
      ...(basePrice !== undefined ? { basePriceMicro: micro(basePrice) } : {}),
      ...(services !== undefined ? { services: toStoredServices(services) } : {}),
      updatedAt,
    });
    if (updated === 0) throw agentNotFound(id);
    return { id, updatedAt: updatedAt.toISOString() };
  }

  /**
   * Hides the agent from search and detail, keeping its orders; refused while paid orders await
   * delivery. The agent row stays locked until done, so a payment that locks it too cannot slip in.
   */
  async remove(wallet: string, id: string): Promise<void> {
    await this.#db.em().transactional(async (em) => {
      await this.#owned(em, wallet, id, LockMode.PESSIMISTIC_WRITE);
      // Paid and not delivered, or being paid right now (payments lock this row before they are recorded).
      const [paying] = await em.execute<{ count: string | number }[]>(
        `select count(*) as count from payment p join orders o on o.id = p.order_id
          where o.agent_id = ? and p.state in (${LIVE_PAYMENT_STATES.map(() => '?').join(', ')})`,
        [id, ...LIVE_PAYMENT_STATES],
      );
      const undelivered = (await em.count(Order, { agent: id, status: 'PAID' })) + Number(paying?.count ?? 0);
      if (undelivered > 0) {
        throw new AppError('INVALID_STATUS_TRANSITION', `The agent has ${undelivered} paid order(s) to deliver first`);
      }
      const now = new Date();
      await em.nativeUpdate(Agent, { id }, { deletedAt: now, updatedAt: now });
    });
  }

  /** Computed from the agent's orders and reviews. */
  async stats(wallet: string, id: string): Promise<AgentStats> {
    const em = this.#db.em();
    const agent = await this.#owned(em, wallet, id);
    const connection = em.getConnection();
    const [totals] = await connection.execute<Record<string, string | number | null>[]>(
      `select count(*) as total,
              count(*) filter (where status = 'COMPLETED') as completed,
              count(*) filter (where status = 'CANCELLED') as cancelled,
              count(*) filter (where status in (${PAID})) as paid,
              coalesce(sum(agent_amount_micro) filter (where status in (${PAID})), 0) as revenue,
              coalesce(sum(price_micro) filter (where status in (${PAID})), 0) as paid_value
         from orders where agent_id = ?`,
      [id],
    );
    const months = await connection.execute<{ month: string; revenue: string | number; orders: string | number }[]>(
      `select to_char(paid_at at time zone 'UTC', 'YYYY-MM') as month,
              coalesce(sum(agent_amount_micro), 0) as revenue, count(*) as orders
         from orders where agent_id = ? and status in (${PAID}) and paid_at is not null
        group by 1 order by 1`,
      [id],
    );
    const count = (value: unknown) => Number(value ?? 0);
    const total = count(totals?.total);
    const paid = count(totals?.paid);
    const paidValue = BigInt(totals?.paid_value ?? 0);
    return {
      totalRevenue: microToUsdc(BigInt(totals?.revenue ?? 0)),
      totalOrders: total,
      completedOrders: count(totals?.completed),
      cancelledOrders: count(totals?.cancelled),
      averageOrderValue: paid ? microToUsdc(paidValue / BigInt(paid)) : 0,
      averageRating: agent.rating,
      totalReviews: agent.reviewCount,
      averageResponseTime: responseTime(agent),
      completionRate: total ? (count(totals?.completed) / total) * 100 : 0,
      revenueByMonth: months.map((m) => ({ month: m.month, revenue: microToUsdc(BigInt(m.revenue)), orders: count(m.orders) })),
    };
  }

  /** An agent that is not deleted, or AGENT_NOT_FOUND. */
  async #active(em: EntityManager, id: string, lockMode?: LockMode): Promise<Agent> {
    const agent = await em.findOne(Agent, { id, deletedAt: null }, lockMode ? { lockMode } : {});
    if (!agent) throw agentNotFound(id);
    return agent;
  }

  async #owned(em: EntityManager, wallet: string, id: string, lockMode?: LockMode): Promise<Agent> {
    const agent = await this.#active(em, id, lockMode);
    if (agent.walletAddress !== wallet) throw notOwner();
    return agent;
  }
}
