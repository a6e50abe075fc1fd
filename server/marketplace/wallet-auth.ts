import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { UsedSignature } from './entities.ts';
import { AppError } from '../platform/errors.ts';
import {
  canonicalUrl,
  createWalletVerifier,
  SIGNATURE_WINDOW,
  WalletSignatureError,
  type SignedRequest,
} from './wallet-signature.ts';

/** A proven wallet, or why the request proves none (answered as 401 INVALID_SIGNATURE when a wallet is needed). */
export type WalletProof = { wallet: string } | { failure: AppError };

/** Accepted signatures are remembered as long as their timestamp could still be accepted. */
const REMEMBER_MS = SIGNATURE_WINDOW.maxAgeMs + SIGNATURE_WINDOW.maxAheadMs;

const invalidSignature = (reason: string, message: string) => new AppError('INVALID_SIGNATURE', message, { reason });

/** The primary key of a used signature. */
const usedKey = (wallet: string, method: string, url: string, timestamp: number) =>
  createHash('sha256').update(`${wallet}\n${method.toUpperCase()}\n${url}\n${timestamp}`).digest('hex');

/** Wallet authentication: signature checks (node:crypto) and the replay refusal shared by all server processes. */
export class WalletAuthService {
  readonly #db: Database;
  readonly #verifier: ReturnType<typeof createWalletVerifier>;
  readonly #log: (error: unknown) => void;
  #lastSweep = 0;

  constructor(db: Database, options: { publicBaseUrl?: string; log?: (error: unknown) => void } = {}) {
    this.#db = db;
    this.#verifier = createWalletVerifier(options.publicBaseUrl ? { publicBaseUrl: options.publicBaseUrl } : {});
    this.#log = options.log ?? (() => {});
  }

  /**
   * Checks the X- headers and, for a non-GET request (or `singleUse`, as `/ws` asks), uses the signature up: the same
   * (wallet, method, URL in canonical form, timestamp) again is refused by whichever process sees it, through a
   * primary key in the database, so another encoding of the URL is no second use. A request refused for any reason
   * uses nothing up.
   */
  async authenticate(req: SignedRequest, { singleUse = req.method.toUpperCase() !== 'GET' } = {}): Promise<WalletProof> {
    let verified: { wallet: string; timestamp: number };
    try {
      verified = this.#verifier.verify(req);
    } catch (error) {
      if (error instanceof WalletSignatureError) return { failure: invalidSignature(error.reason, error.message) };
      throw error;
    }
    if (!singleUse) return { wallet: verified.wallet };
    // The URL as received is a key too when it is not canonical: processes that key by it (before the canonical form)
    // refuse it again, and one insert of both keys is refused whole when either was used.
    const urls = new Set([canonicalUrl(req.url), req.url]);
    const expiresAt = new Date(verified.timestamp + REMEMBER_MS);
    const used = [...urls].map((url) => ({ keyHash: usedKey(verified.wallet, req.method, url, verified.timestamp), expiresAt }));
    try {
      await this.#db.em().insertMany(UsedSignature, used);
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      return { failure: invalidSignature('replayed', 'This signed request was already used; sign it again with a new timestamp') };
    }
    this.#sweep();
    return { wallet: verified.wallet };
  }

  /** Forgets expired signatures, at most once a minute per process, off the request's path. */
  #sweep() {
    const now = Date.now();
    if (now - this.#lastSweep < 60_000) return;
    this.#lastSweep = now;
    this.#db
      .em()
      .nativeDelete(UsedSignature, { expiresAt: { $lt: new Date(now) } })
      .catch((error: unknown) => this.#log(error));
  }
}
