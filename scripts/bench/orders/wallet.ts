/**
 * The orders bench's wallets: a WalletSigner on node:crypto Ed25519 (same signatures as the SDK's tweetnacl
 * keypairSigner, ~20x faster) so that preparing thousands of signed requests stays quick. The seed travels to
 * the client process, which signs its event subscriptions with it.
 */
import { createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';
import bs58 from 'bs58';
import type { WalletSigner } from '../../../client-sdk/wallet.ts';

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface BenchWallet {
  address: string;
  /** The 32-byte Ed25519 seed, hex (what the client process gets). */
  seed: string;
  signer: WalletSigner;
}

export function walletFromSeed(seed: string): BenchWallet {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, Buffer.from(seed, 'hex')]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  const address = bs58.encode(publicKey);
  return { address, seed, signer: { address, sign: (message) => new Uint8Array(sign(null, message, privateKey)) } };
}

export const newWallet = () => walletFromSeed(randomBytes(32).toString('hex'));
