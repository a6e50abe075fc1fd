/**
 * Idempotency-Key bookkeeping on the real database (the HTTP behaviour is in tests/marketplace/orders.test.ts):
 * a call in progress holds its key, outcomes that may change are not remembered, keys are per caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyRecord } from '../../server/marketplace/entities.ts';
import { AppError } from '../../server/platform/errors.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.destroy());

const ok = (data: unknown) => async () => ({ ok: true as const, data });

describe('IdempotencyService', () => {
  it('runs a call once per key and request, and replays its outcome', async () => {
    let runs = 0;
    const call = async () => ({ ok: true as const, data: { n: ++runs } });
    const first = await server.services.idempotency.run('wallet-a', 'key-1', { body: 1 }, call);
    const second = await server.services.idempotency.run('wallet-a', 'key-1', { body: 1 }, call);
    expect([first, second]).toEqual([
      { outcome: { ok: true, data: { n: 1 } }, replayed: false },
      { outcome: { ok: true, data: { n: 1 } }, replayed: true },
    ]);
    expect(runs).toBe(1);
  });

  it('a retry while the first call still runs is IDEMPOTENCY_CONFLICT (in-progress), not a second run', async () => {
    let release!: () => void;
    let entered!: () => void;
    const running = new Promise<void>((resolve) => (entered = resolve));
    const slow = server.services.idempotency.run('wallet-a', 'key-2', {}, () => {
      entered();
      return new Promise((resolve) => (release = () => resolve({ ok: true, data: 1 })));
    });
    await running; // the first call holds the key now
    const retry = server.services.idempotency.run('wallet-a', 'key-2', {}, ok(2));
    await expect(retry).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', details: { reason: 'in-progress' } });
    release();
    expect((await slow).outcome).toEqual({ ok: true, data: 1 });
  });

  it('a call that outlives its lock is taken over by a retry, and then neither frees nor overwrites the taker’s key', async () => {
    let release!: (fail: boolean) => void;
    let entered!: () => void;
    const running = new Promise<void>((resolve) => (entered = resolve));
    const stuck = server.services.idempotency.run('wallet-a', 'key-5', {}, () => {
      entered();
      return new Promise((resolve, reject) => (release = (fail) => (fail ? reject(new AppError('SERVICE_UNAVAILABLE', 'down')) : resolve({ ok: true, data: 'late' }))));
    });
    await running;
    await server.db.em().nativeUpdate(IdempotencyRecord, {}, { lockedUntil: new Date(Date.now() - 1) }); // its lock ran out
    expect((await server.services.idempotency.run('wallet-a', 'key-5', {}, ok('taker'))).outcome).toEqual({ ok: true, data: 'taker' });
    release(false);
    expect((await stuck).outcome).toEqual({ ok: true, data: 'late' });
    expect((await server.services.idempotency.run('wallet-a', 'key-5', {}, ok('again'))).outcome).toEqual({ ok: true, data: 'taker' });
  });

  it('a call that fails unexpectedly frees its key: the retry runs', async () => {
    await expect(
      server.services.idempotency.run('wallet-a', 'key-3', {}, async () => {
        throw new AppError('SERVICE_UNAVAILABLE', 'down');
      }),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await server.services.idempotency.run('wallet-a', 'key-3', {}, ok('ran'))).toEqual({ outcome: { ok: true, data: 'ran' }, replayed: false });
  });

  it('keys are per caller; a different request under the same key is IDEMPOTENCY_CONFLICT; keys are visible ASCII', async () => {
    await server.services.idempotency.run('wallet-a', 'key-4', { x: 1 }, ok('a'));
    expect((await server.services.idempotency.run('wallet-b', 'key-4', { x: 2 }, ok('b'))).outcome).toEqual({ ok: true, data: 'b' });
    await expect(server.services.idempotency.run('wallet-a', 'key-4', { x: 2 }, ok('c'))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      details: { reason: 'different-request' },
    });
    await expect(server.services.idempotency.run('wallet-a', 'two words', {}, ok(1))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
