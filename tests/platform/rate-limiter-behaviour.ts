/**
 * What every rate-limiter store must do (the memory store, and the PostgreSQL store shared by server processes),
 * written once for rate-limiter.test.ts and rate-limiter.postgres.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { RateDecision, RateLimiter, RateRule } from '../../server/platform/rate-limiter.ts';

export const small: RateRule = { name: 'test.small', points: 5, durationSeconds: 60 };
export const other: RateRule = { name: 'test.other', points: 2, durationSeconds: 60 };
export const short: RateRule = { name: 'test.short', points: 2, durationSeconds: 1 };

export const uniqueKey = () => `wallet-${randomUUID()}`;
export const nowSeconds = () => Date.now() / 1000;

export async function consumeTimes(limiter: RateLimiter, rule: RateRule, key: string, times: number): Promise<RateDecision[]> {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.consume(rule, key));
  return decisions;
}

export function expectRefused(decision: RateDecision | undefined, rule: RateRule) {
  expect(decision).toMatchObject({ allowed: false, limit: rule.points, remaining: 0 });
  expect(decision!.retryAfterSeconds).toBeGreaterThan(0);
  expect(decision!.retryAfterSeconds).toBeLessThanOrEqual(rule.durationSeconds);
  expect(decision!.resetAt).toBeGreaterThan(nowSeconds());
  expect(decision!.resetAt).toBeLessThanOrEqual(Math.ceil(nowSeconds()) + rule.durationSeconds);
}

/** The behaviour every store must have; `limiter()` is read when the tests run. */
export function commonBehaviour(limiter: () => RateLimiter) {
  it('allows `points` requests with remaining counting down to 0, then refuses with Retry-After', async () => {
    const key = uniqueKey();
    const decisions = await consumeTimes(limiter(), small, key, small.points + 1);
    const allowed = decisions.slice(0, small.points);
    expect(allowed.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
    expect(allowed.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    for (const d of allowed) {
      expect(d).toMatchObject({ limit: 5, retryAfterSeconds: 0 });
      expect(d.resetAt).toBeGreaterThan(nowSeconds());
      expect(d.resetAt).toBeLessThanOrEqual(Math.ceil(nowSeconds()) + small.durationSeconds);
    }
    expectRefused(decisions[small.points], small);
  });

  it('keeps keys independent', async () => {
    const a = uniqueKey();
    await consumeTimes(limiter(), other, a, other.points);
    expect((await limiter().consume(other, a)).allowed).toBe(false);
    expect(await limiter().consume(other, `ip:${randomUUID()}`)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps rules independent', async () => {
    const key = uniqueKey();
    await consumeTimes(limiter(), other, key, other.points + 1);
    expect(await limiter().consume(small, key)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('accepts long and odd keys without mixing them up', async () => {
    const long = 'x'.repeat(5000);
    const odd = 'ip:fe80::1%eth0 \u{1F600}\'";--';
    await consumeTimes(limiter(), other, long, other.points);
    expect((await limiter().consume(other, long)).allowed).toBe(false);
    expect(await limiter().consume(other, odd)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter().consume(other, 'x'.repeat(4999))).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('rejects a rule name reused with other limits', async () => {
    await limiter().consume(other, uniqueKey());
    await expect(limiter().consume({ ...other, points: 3 }, uniqueKey())).rejects.toThrow(/two different limits/);
  });

  it('lets requests through again once the window has passed', async () => {
    const key = uniqueKey();
    const decisions = await consumeTimes(limiter(), short, key, short.points + 1);
    expectRefused(decisions[short.points], short);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await limiter().consume(short, key)).toMatchObject({ allowed: true, remaining: 1 });
  });
}
