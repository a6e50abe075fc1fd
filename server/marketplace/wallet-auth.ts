import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../platform/db/orm.ts';
import { UsedSignature } from './entities.ts';
import { AppError } from '../platform/errors.ts';
import {
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
   * (wallet, method, URL, timestamp) again is refused by whichever process sees it, through a primary key in the
   * database. A request refused for any reason uses nothing up.
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
    const keyHash = createHash('sha256')
      .update(`${verified.wallet}\n${req.method.toUpperCase()}\n${req.url}\n${verified.timestamp}`)
      .digest('hex');
    try {
      await this.#db.em().insert(UsedSignature, { keyHash, expiresAt: new Date(verified.timestamp + REMEMBER_MS) });
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
