import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../db/orm.ts';
import { UsedSignature } from '../db/entities/index.ts';
import { AppError } from '../errors.ts';
import { createWalletVerifier, WalletSignatureError, type SignedRequest } from '../auth/wallet-signature.ts';

/** What a request's wallet headers say: a verified wallet, a failure to report if the call needs one, or nothing. */
export type Caller = { wallet: string; timestamp: number } | { failure: AppError } | undefined;

/** Accepted signatures are remembered this long: the 5-minute window plus the 30 s a timestamp may run ahead. */
const REMEMBER_MS = 330_000;

const invalidSignature = (reason: string, message: string) => new AppError('INVALID_SIGNATURE', message, { reason });

/** Wallet authentication: signature checks (node:crypto) and the replay refusal shared by all server processes. */
export class WalletAuthService {
  readonly #db: Database;
  readonly #verifier: ReturnType<typeof createWalletVerifier>;
  #lastSweep = 0;

  constructor(db: Database, publicBaseUrl?: string) {
    this.#db = db;
    this.#verifier = createWalletVerifier(publicBaseUrl ? { publicBaseUrl } : {});
  }

  /** Verifies the X- headers when present; never throws for client input. */
  identify(req: SignedRequest): Caller {
    const present = ['x-wallet-address', 'x-signature', 'x-timestamp'].some((name) => req.headers[name] !== undefined);
    if (!present) return undefined;
    try {
      const { wallet, timestamp } = this.#verifier.verify(req);
      return { wallet, timestamp };
    } catch (error) {
      if (error instanceof WalletSignatureError) return { failure: invalidSignature(error.reason, error.message) };
      throw error;
    }
  }

  /**
   * A signed non-GET request is accepted once: the same (wallet, method, URL, timestamp) again is refused,
   * by whichever process sees it, through a primary key in the shared database.
   */
  async claim(wallet: string, method: string, url: string, timestamp: number): Promise<void> {
    const keyHash = createHash('sha256').update(`${wallet}\n${method.toUpperCase()}\n${url}\n${timestamp}`).digest('hex');
    const em = this.#db.em();
    try {
      await em.insert(UsedSignature, { keyHash, expiresAt: new Date(timestamp + REMEMBER_MS) });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw invalidSignature('replayed', 'This signed request was already used; sign it again with a new timestamp');
      }
      throw error;
    }
    await this.#sweep();
  }

  /** Forgets expired signatures, at most once a minute per process. */
  async #sweep() {
    const now = Date.now();
    if (now - this.#lastSweep < 60_000) return;
    this.#lastSweep = now;
    await this.#db.em().nativeDelete(UsedSignature, { expiresAt: { $lt: new Date(now) } });
  }
}
