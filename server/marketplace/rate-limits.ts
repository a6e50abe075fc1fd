/**
 * The marketplace's rate limits (docs/marketplace.md "Rate limits"): one rule per endpoint family, counted
 * per proven wallet or per client IP, and the X-RateLimit headers every marketplace answer carries.
 */
import { AppError } from '../platform/errors.ts';
import type { ResponseHeaders } from '../platform/http/context.ts';
import { RETRY_AFTER, type OperationDoc } from '../platform/http/procedure-meta.ts';
import type { RateDecision, RateLimiter, RateRule } from '../platform/rate-limiter.ts';

const MINUTE = 60;
const HOUR = 3600;

/** Per wallet, or per client IP when unauthenticated; `default` covers every other endpoint. */
export const RATE_RULES = {
  'agents.search': { name: 'agents.search', points: 100, durationSeconds: MINUTE },
  'agents.get': { name: 'agents.get', points: 200, durationSeconds: MINUTE },
  'agents.register': { name: 'agents.register', points: 5, durationSeconds: HOUR },
  'conversations.create': { name: 'conversations.create', points: 20, durationSeconds: MINUTE },
  'messages.send': { name: 'messages.send', points: 60, durationSeconds: MINUTE },
  'orders.create': { name: 'orders.create', points: 10, durationSeconds: MINUTE },
  'orders.accept': { name: 'orders.accept', points: 10, durationSeconds: MINUTE },
  default: { name: 'default', points: 120, durationSeconds: MINUTE },
} as const satisfies Record<string, RateRule>;

export type RateRuleName = keyof typeof RATE_RULES;

/**
 * Ceilings per client IP over every wallet writing from it: a fresh wallet has a fresh allowance of its own, so
 * the signed writes (every method but GET) of all wallets of one address count against these too.
 */
export const IP_CEILINGS = {
  'agents.register': { name: 'ip.agents.register', points: 50, durationSeconds: HOUR },
  writes: { name: 'ip.writes', points: 1200, durationSeconds: MINUTE },
} as const satisfies Record<string, RateRule>;

/** The key of calls made by no proven wallet. */
export const ipKey = (ip: string) => `ip:${ip}`;

function setRateLimitHeaders(res: ResponseHeaders, decision: RateDecision) {
  if (res.headersSent) return;
  res.setHeader('X-RateLimit-Limit', decision.limit);
  res.setHeader('X-RateLimit-Remaining', decision.remaining);
  res.setHeader('X-RateLimit-Reset', decision.resetAt);
  if (!decision.allowed) res.setHeader('Retry-After', decision.retryAfterSeconds);
}

/**
 * On every answer of the marketplace, errors included (server/platform/http/rest.ts counts refused calls too), but
 * promised only below 500: a call fails with 503 when the counters' database is down, before they could be read.
 */
const counted = (status: number) => status < 500;

/** openapi.json: what counting calls adds to an operation (the middlewares that count document it). */
export const RATE_LIMITED: OperationDoc = {
  errors: { 429: ['RATE_LIMIT_EXCEEDED'] },
  headers: {
    'X-RateLimit-Limit': { header: { description: "The limit of the call's rule: calls per window", required: true, schema: { type: 'integer', minimum: 1 } }, on: counted },
    'X-RateLimit-Remaining': { header: { description: 'Calls left in the current window', required: true, schema: { type: 'integer', minimum: 0 } }, on: counted },
    'X-RateLimit-Reset': { header: { description: 'When the current window ends, Unix time in seconds', required: true, schema: { type: 'integer' } }, on: counted },
    'Retry-After': { header: RETRY_AFTER, on: (status) => status === 429 },
  },
};

/** Counts one call of `key` against its rule (default 120/min) and puts the X-RateLimit headers on the answer. */
export async function countCall(limiter: RateLimiter, res: ResponseHeaders, rule: RateRuleName | undefined, key: string) {
  const decision = await limiter.consume(RATE_RULES[rule ?? 'default'], key);
  setRateLimitHeaders(res, decision);
  return decision;
}

/** As countCall, refusing the call beyond the limit (429 RATE_LIMIT_EXCEEDED). */
export async function enforceRateLimit(limiter: RateLimiter, res: ResponseHeaders, rule: RateRuleName | undefined, key: string) {
  const decision = await countCall(limiter, res, rule, key);
  if (!decision.allowed) throw refusal(decision, 'Too many requests');
}

/** 429 RATE_LIMIT_EXCEEDED naming the wait, with the limit and Retry-After seconds as details. */
const refusal = (decision: RateDecision, what: string) =>
  new AppError('RATE_LIMIT_EXCEEDED', `${what}: retry in ${decision.retryAfterSeconds} s`, { limit: decision.limit, retryAfterSeconds: decision.retryAfterSeconds });

/**
 * Counts a wallet's signed write against its address's ceiling (registrations apart), refusing it beyond (429, the
 * ceiling's headers). Within the ceiling the answer keeps the wallet rule's headers.
 */
export async function enforceIpCeiling(limiter: RateLimiter, res: ResponseHeaders, rule: RateRuleName | undefined, ip: string) {
  const decision = await limiter.consume(rule === 'agents.register' ? IP_CEILINGS['agents.register'] : IP_CEILINGS.writes, ipKey(ip));
  if (decision.allowed) return;
  setRateLimitHeaders(res, decision);
  throw refusal(decision, 'Too many requests from this address');
}
