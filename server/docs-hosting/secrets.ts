import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createFileDurably } from '../platform/fsync.ts';
import { dirname } from 'node:path';

/**
 * Secrets the hosting service must use again later (model providers' API keys, webhook HMAC keys) are stored
 * encrypted: AES-256-GCM under one 32-byte key, `DOCS_SECRET_KEY` (hex or base64), else a key file created on
 * first start next to the embedded database. Several processes on one PostgreSQL must share DOCS_SECRET_KEY.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
    this.#key = key;
  }

  /** From DOCS_SECRET_KEY, else `file` (created with a random key when missing), else a key for this process only. */
  static load(options: { key?: string | undefined; file?: string | undefined }): SecretBox {
    if (options.key) return new SecretBox(parseKey(options.key));
    if (!options.file) return new SecretBox(randomBytes(32));
    if (!existsSync(options.file)) {
      mkdirSync(dirname(options.file), { recursive: true });
      createFileDurably(options.file, `${randomBytes(32).toString('hex')}\n`, 0o600);
    }
    return new SecretBox(parseKey(readFileSync(options.file, 'utf8').trim()));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}

function parseKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('DOCS_SECRET_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}
