import { createHash } from 'node:crypto';

/** SHA-256 as 64 hex digits: how API keys, agent keys, idempotency keys and build files are stored. */
export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
