/**
 * Ed25519 verifications per second: node:crypto through createWalletVerifier (the server's path, with
 * its cached KeyObject) next to tweetnacl's `nacl.sign.detached.verify` (what the SDK ships), over the
 * same signed request. Shows why the server does not verify with tweetnacl (docs/marketplace.md,
 * "Authentication"). Each run lasts about DURATION_MS on one core, capped at MAX_ITERATIONS.
 *
 *   node scripts/bench/signatures.ts       (or npm run bench, which calls benchSignatures())
 */
import { createPublicKey, verify } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { generateKeypair, keypairSigner, signedHeaders } from '../../client-sdk/wallet.ts';
import { createWalletVerifier } from '../../server/marketplace/wallet-signature.ts';
import { fixed, integer } from './common/format.ts';

const DURATION_MS = 2_000;
const MAX_ITERATIONS = 1_000_000;

interface Run {
  label: string;
  perSecond: number;
}

/** Calls `fn` until DURATION_MS have passed (or MAX_ITERATIONS); `fn` returning false aborts the bench. */
function measure(label: string, fn: () => boolean): Run {
  const start = performance.now();
  const deadline = start + DURATION_MS;
  let count = 0;
  while (count < MAX_ITERATIONS && performance.now() < deadline) {
    if (!fn()) throw new Error(`${label}: a valid signature did not verify`);
    count++;
  }
  return { label, perSecond: count / ((performance.now() - start) / 1000) };
}

export async function benchSignatures(): Promise<void> {
  const now = Date.now();
  const signer = keypairSigner(generateKeypair().secretKey);
  const url = '/api/orders?status=PAID';
  const headers = await signedHeaders(signer, 'POST', url, now);
  const request = { method: 'POST', url, headers };

  const message = new TextEncoder().encode(`POST:${url}:${now}`);
  const signature = bs58.decode(headers['X-Signature']);
  const publicKey = bs58.decode(signer.address);
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);

  const verifier = createWalletVerifier({ now: () => now });
  verifier.verify(request); // warm the key cache, as a returning wallet would

  const runs = [
    measure('node:crypto, createWalletVerifier (cached KeyObject)', () => verifier.verify(request).wallet === signer.address),
    measure('node:crypto, new KeyObject per verification', () =>
      verify(null, message, createPublicKey({ key: spki, format: 'der', type: 'spki' }), signature),
    ),
    measure('tweetnacl nacl.sign.detached.verify', () => nacl.sign.detached.verify(message, signature, publicKey)),
  ];

  const width = Math.max(...runs.map((run) => run.label.length));
  console.log(`Ed25519 signature verification, ~${DURATION_MS / 1000} s per run, one core:`);
  for (const { label, perSecond } of runs) {
    const each = 1000 / perSecond;
    console.log(
      `  ${label.padEnd(width)}  ${integer(perSecond).padStart(8)} /s  (${each < 1 ? `${Math.round(each * 1000)} µs` : `${fixed(each)} ms`} each)`,
    );
  }
  const [cached, , tweetnacl] = runs;
  if (cached && tweetnacl) {
    console.log(`  node:crypto (cached) / tweetnacl: ${fixed(cached.perSecond / tweetnacl.perSecond)}x`);
  }
}

if (import.meta.main) await benchSignatures();
