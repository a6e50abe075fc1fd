/**
 * WalletAuthService, the replay refusal behind every signed write (docs/marketplace.md, "Clock window and
 * single use"), on the real database: a used POST signature is remembered for as long as its timestamp could
 * still be accepted (5 minutes old + 30 seconds ahead), so a captured request is refused for the whole window,
 * whatever clean-up runs meanwhile; expired signatures are cleaned up.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeypair, keypairSigner, signedHeaders } from '../../client-sdk/wallet.ts';
import { UsedSignature } from '../../server/marketplace/entities.ts';
import { WalletAuthService } from '../../server/marketplace/wallet-auth.ts';
import { SIGNATURE_WINDOW } from '../../server/marketplace/wallet-signature.ts';
import { openDatabase, type Database } from '../../server/platform/db/orm.ts';
import { createTestDatabase } from '../helpers/server.ts';

const REMEMBERED_MS = SIGNATURE_WINDOW.maxAgeMs + SIGNATURE_WINDOW.maxAheadMs;
const signer = keypairSigner(generateKeypair().secretKey);

let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = await openDatabase(database.config);
});

afterAll(async () => {
  await db?.close();
  await drop?.();
});

async function signed(method: string, url: string, at: number) {
  const headers = Object.fromEntries(Object.entries(await signedHeaders(signer, method, url, at)).map(([name, value]) => [name.toLowerCase(), value]));
  return { method, url, headers };
}

const keyHash = (method: string, url: string, at: number) => createHash('sha256').update(`${signer.address}\n${method}\n${url}\n${at}`).digest('hex');

const remembered = async (hash: string) => db.em().findOne(UsedSignature, { keyHash: hash });

describe('proofs', () => {
  it('a request that proves no wallet gives a 401 INVALID_SIGNATURE failure with the reason, and uses nothing up', async () => {
    const auth = new WalletAuthService(db);
    const request = await signed('POST', '/api/agents', Date.now());
    const tampered = { ...request, url: '/api/orders' };
    const proof = await auth.authenticate(tampered);
    expect('failure' in proof && [proof.failure.code, proof.failure.details, proof.failure.message]).toEqual([
      'INVALID_SIGNATURE',
      { reason: 'wrong' },
      'Signature does not match X-Wallet-Address, method, URL and timestamp',
    ]);
    expect(await auth.authenticate(request)).toEqual({ wallet: signer.address });
  });

  it('with a public base URL, the absolute URL form is accepted too', async () => {
    const at = Date.now();
    const absolute = await signed('POST', 'https://market.example/api/agents', at);
    const request = { ...absolute, url: '/api/agents' };
    expect(await new WalletAuthService(db, { publicBaseUrl: 'https://market.example' }).authenticate(request)).toEqual({ wallet: signer.address });
    const without = await new WalletAuthService(db).authenticate({ ...request, headers: { ...request.headers } });
    expect('failure' in without && without.failure.details).toEqual({ reason: 'wrong' });
  });
});

describe('used signatures', () => {
  it('a signed POST is remembered until its timestamp could no longer be accepted', async () => {
    const auth = new WalletAuthService(db);
    const at = Date.now() - 60_000;
    expect(await auth.authenticate(await signed('POST', '/api/agents', at))).toEqual({ wallet: signer.address });
    const row = await remembered(keyHash('POST', '/api/agents', at));
    expect(row?.expiresAt.getTime()).toBe(at + REMEMBERED_MS);
  });

  it('a captured POST signed 4½ minutes ago is refused as replayed, also after a clean-up ran', async () => {
    const auth = new WalletAuthService(db);
    const at = Date.now() - 270_000;
    const request = await signed('POST', '/api/orders', at);
    // A fresh service cleans up on its first request: the signature just used must survive it.
    expect(await auth.authenticate(request)).toEqual({ wallet: signer.address });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await remembered(keyHash('POST', '/api/orders', at))).not.toBeNull();
    const replay = await new WalletAuthService(db).authenticate(request);
    expect('failure' in replay && replay.failure.code).toBe('INVALID_SIGNATURE');
    expect('failure' in replay && replay.failure.details).toEqual({ reason: 'replayed' });
    expect('failure' in replay && replay.failure.message).toBe('This signed request was already used; sign it again with a new timestamp');
  });

  it('another encoding of the same URL is the same use: refused as replayed, whichever encoding came first', async () => {
    const auth = new WalletAuthService(db);
    const url = '/api/orders/0c0ffee0/cancel?at=10:30';
    const encodings = ['/api/orders/0c0ffee0/cancel?at=10%3A30', '/api/orders/0c0ffee0/cancel?at=10:30', '/api/orders/0c0%66fee0/cancel?at=10%3a30'];
    for (const [i, first] of encodings.entries()) {
      const request = await signed('POST', url, Date.now() - i);
      expect(await auth.authenticate({ ...request, url: first }), first).toEqual({ wallet: signer.address });
      for (const again of encodings) {
        const replay = await new WalletAuthService(db).authenticate({ ...request, url: again });
        expect('failure' in replay && replay.failure.details, `${first}, then ${again}`).toEqual({ reason: 'replayed' });
      }
    }
    // Both keys are kept for a URL received in another form: a process keying by the URL as received refuses it too.
    const at = Date.now() - 10;
    await auth.authenticate({ ...(await signed('POST', url, at)), url: encodings[0]! });
    expect(await remembered(keyHash('POST', url, at))).not.toBeNull();
    expect(await remembered(keyHash('POST', encodings[0]!, at))).not.toBeNull();
  });

  it('a GET signature is not used up: the same signed GET is accepted again', async () => {
    const auth = new WalletAuthService(db);
    const request = await signed('GET', '/api/orders?limit=5', Date.now());
    expect(await auth.authenticate(request)).toEqual({ wallet: signer.address });
    expect(await auth.authenticate(request)).toEqual({ wallet: signer.address });
  });

  it('a GET taken as single-use (opening /ws) is used up like a POST, and remembered as long', async () => {
    const auth = new WalletAuthService(db);
    const at = Date.now();
    const request = await signed('GET', `/ws?wallet=${signer.address}&since=7`, at);
    expect(await auth.authenticate(request, { singleUse: true })).toEqual({ wallet: signer.address });
    expect((await remembered(keyHash('GET', `/ws?wallet=${signer.address}&since=7`, at)))?.expiresAt.getTime()).toBe(at + REMEMBERED_MS);
    const again = await new WalletAuthService(db).authenticate(request, { singleUse: true });
    expect('failure' in again && again.failure.details).toEqual({ reason: 'replayed' });
  });

  it('the clean-up forgets expired signatures and keeps the others', async () => {
    const expired = 'e'.repeat(64);
    const live = 'f'.repeat(64);
    await db.em().insertMany(UsedSignature, [
      { keyHash: expired, expiresAt: new Date(Date.now() - 1_000) },
      { keyHash: live, expiresAt: new Date(Date.now() + 60_000) },
    ]);
    await new WalletAuthService(db).authenticate(await signed('POST', '/api/conversations', Date.now()));
    // The clean-up runs off the request's path: wait for it.
    await expect.poll(() => remembered(expired), { timeout: 5_000 }).toBeNull();
    expect(await remembered(live)).not.toBeNull();
  });

  it('a database failure while using up a signature is an error, never taken for a replay', async () => {
    const database = await createTestDatabase();
    const own = await openDatabase(database.config);
    try {
      const auth = new WalletAuthService(own);
      const request = await signed('POST', '/api/agents/register', Date.now());
      // The database goes away: PGlite closed, a PostgreSQL database dropped (a closed pool would reconnect).
      await (database.config.kind === 'pglite' ? own.close() : database.drop());
      await expect(auth.authenticate(request)).rejects.toThrow();
    } finally {
      await own.close();
      await database.drop();
    }
  });
});
