/**
 * Wallet signatures as openapi.json describes them (docs/marketplace.md "Authentication"): one security scheme,
 * `WalletSignature` (the X-Signature header), whose description is the recipe for people and whose
 * `x-wallet-signature` extension is the same recipe for machines; the other headers of a signed call are its
 * parameters. Built from the protocol's own constants (wallet-signature.ts), so the two cannot drift apart.
 */
import type { oas31 } from 'zod-openapi';
import type { OperationDoc } from '../platform/http/procedure-meta.ts';
import { BASE58_ADDRESS } from './schemas.ts';
import { BODY_DIGEST_PATTERN, EMPTY_BODY_SHA256, SIGNATURE_WINDOW, signedMessage, TIMESTAMP_PATTERN } from './wallet-signature.ts';

/** The headers of a signed call, as clients spell them (the server reads them in any case). */
const HEADERS = { address: 'X-Wallet-Address', signature: 'X-Signature', timestamp: 'X-Timestamp', bodyDigest: 'X-Body-SHA256' } as const;

/** The two messages, with their parts as placeholders. */
const MESSAGES = {
  v1: signedMessage.v1('{method}', '{url}', '{timestamp}'),
  v2: signedMessage.v2('{method}', '{host}', '{url}', '{timestamp}', '{bodySha256}'),
};

const PARTS = {
  method: 'The HTTP method, upper case',
  url: 'The request target as sent: path and query string with their percent-encoding, without the origin (`/api/orders?status=PAID`)',
  host:
    "This deployment's host as clients address it: the name in lower case, with the port unless it is the scheme's default " +
    '(`new URL(baseUrl).host`); the host of PUBLIC_BASE_URL when the server has one',
  timestamp: `The ${HEADERS.timestamp} value, character for character`,
  bodySha256: `The ${HEADERS.bodyDigest} value`,
};

const seconds = (ms: number) => ms / 1000;

const RECIPE = [
  `Ed25519 signatures of Solana wallets. A signed call sends \`${HEADERS.address}\` (base58 of the 32-byte public key), ` +
    `\`${HEADERS.timestamp}\` (Unix time in milliseconds, decimal digits) and \`${HEADERS.signature}\`: base58 of the 64-byte ` +
    "detached signature, made with the wallet's secret key, of the UTF-8 bytes of one of these messages:",
  '',
  `- v1: \`${MESSAGES.v1}\``,
  `- v2, when the call also sends \`${HEADERS.bodyDigest}\` (the SHA-256 of the body bytes exactly as sent, 64 lower-case hex digits; ` +
    `without a body, of no bytes: \`${EMPTY_BODY_SHA256}\`): \`${MESSAGES.v2}\`. It binds the signature to this deployment and this body.`,
  '',
  ...Object.entries(PARTS).map(([part, meaning]) => `\`{${part}}\`: ${meaning}.`),
  '',
  `Example (v2): \`${signedMessage.v2('POST', 'api.example.com', '/api/conversations', '1768469400000', '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a')}\`.`,
  '',
  `The timestamp may be at most ${seconds(SIGNATURE_WINDOW.maxAgeMs)} s older than the server's clock and ${seconds(SIGNATURE_WINDOW.maxAheadMs)} s ahead of it. ` +
    'A signed call other than a GET is accepted once: a retry needs a new timestamp and a new signature. ' +
    'Failures answer 401 `INVALID_SIGNATURE` with `details.reason`. The SDK (`createSignedFetch`, `signedHeaders`) signs v2.',
].join('\n');

/** `x-wallet-signature`: the recipe as data, for clients and tools that sign. */
const RECIPE_DATA = {
  algorithm: 'Ed25519',
  keyEncoding: 'base58',
  signatureEncoding: 'base58',
  messageEncoding: 'UTF-8',
  headers: HEADERS,
  messages: MESSAGES,
  parts: PARTS,
  timestamp: { unit: 'ms', pattern: TIMESTAMP_PATTERN.source, maxAgeMs: SIGNATURE_WINDOW.maxAgeMs, maxAheadMs: SIGNATURE_WINDOW.maxAheadMs },
  bodyDigest: { header: HEADERS.bodyDigest, algorithm: 'SHA-256', encoding: 'hex, lower case', ofNoBody: EMPTY_BODY_SHA256, selects: 'v2' },
  singleUse: 'every method but GET',
};

const SCHEME: oas31.SecuritySchemeObject = {
  type: 'apiKey',
  in: 'header',
  name: HEADERS.signature,
  description: RECIPE,
  'x-wallet-signature': RECIPE_DATA,
};

/** The other headers of a signed call: request parameters of every signed operation. */
const PARAMETERS: Record<string, oas31.ParameterObject> = {
  WalletAddress: {
    in: 'header',
    name: HEADERS.address,
    required: true,
    description: 'The signing wallet: base58 of its 32-byte Ed25519 public key',
    schema: { type: 'string', minLength: 32, maxLength: 44, pattern: BASE58_ADDRESS.source },
    example: '35WME8Au3xECBJUTLWS6aMWKzgkD8xaEJP3V9ivr98uH',
  },
  WalletTimestamp: {
    in: 'header',
    name: HEADERS.timestamp,
    required: true,
    description: `Unix time in milliseconds, as signed: at most ${seconds(SIGNATURE_WINDOW.maxAgeMs)} s old and ${seconds(SIGNATURE_WINDOW.maxAheadMs)} s ahead`,
    schema: { type: 'string', pattern: RECIPE_DATA.timestamp.pattern },
    example: '1768469400000',
  },
  BodySha256: {
    in: 'header',
    name: HEADERS.bodyDigest,
    required: false,
    description: 'The SHA-256 of the body bytes as sent (of no bytes without a body), lower-case hex: makes the signed message v2',
    schema: { type: 'string', pattern: BODY_DIGEST_PATTERN.source },
    example: EMPTY_BODY_SHA256,
  },
};

/** What wallet authentication adds to each signed operation (besides its errors and rate limits). */
export const WALLET_SIGNED: Pick<OperationDoc, 'security' | 'parameters'> = { security: { WalletSignature: SCHEME }, parameters: PARAMETERS };
