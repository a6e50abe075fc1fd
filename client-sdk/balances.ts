import { fetchMaybeToken, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address, createSolanaRpc } from '@solana/kit';
import { microToUsdc, usdcToMicro, USDC_DECIMALS } from './usdc.ts';
import type { PaymentConfig } from './payment.ts';

/**
 * Reading USDC balances the way any client can: straight from the ledger, through the Solana JSON-RPC
 * the marketplace's payment config names (`GET /api/payments/config` -> `rpcUrl`; the embedded dev
 * ledger's is the relative `/dev/solana-rpc`). No marketplace endpoint is involved, so what it shows is
 * what the chain holds. Browser-safe: @solana/kit, no node: imports.
 */

/** The wallet's USDC token account: its associated token account for the config's mint. */
export async function usdcTokenAccount(wallet: string, config: Pick<PaymentConfig, 'mint'>): Promise<string> {
  const [ata] = await findAssociatedTokenPda({ owner: address(wallet), mint: address(config.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}

export interface UsdcBalanceOptions {
  /** The marketplace's payment config (`client.payments.config()`): its `mint` and `rpcUrl`. */
  config: Pick<PaymentConfig, 'mint' | 'rpcUrl'>;
  /** Resolves a relative `config.rpcUrl` (the embedded ledger's): the marketplace origin. Defaults to the page's location in browsers. */
  baseUrl?: string;
}

/**
 * A wallet's USDC in micro-USDC (1 USDC = 1_000_000n), exact: the amount of its associated token
 * account, 0n when that account does not exist yet (a wallet that never held USDC).
 */
export async function fetchUsdcBalance(wallet: string, { config, baseUrl }: UsdcBalanceOptions): Promise<bigint> {
  const base = baseUrl ?? (globalThis as { location?: { href: string } }).location?.href;
  const rpc = createSolanaRpc(new URL(config.rpcUrl, base).href);
  const account = await fetchMaybeToken(rpc, address(await usdcTokenAccount(wallet, config)));
  return account.exists ? account.data.amount : 0n;
}

/**
 * Balances of several wallets at once, by name: `await fetchUsdcBalances({ consumer, provider }, options)`
 * -> `{ consumer: 87_500_000n, provider: 11_250_000n }`.
 */
export async function fetchUsdcBalances<K extends string>(wallets: Record<K, string>, options: UsdcBalanceOptions): Promise<Record<K, bigint>> {
  const names = Object.keys(wallets) as K[];
  const amounts = await Promise.all(names.map((name) => fetchUsdcBalance(wallets[name], options)));
  return Object.fromEntries(names.map((name, i) => [name, amounts[i]])) as Record<K, bigint>;
}

/** 87_500_000n -> "87.5 USDC" (exact decimal, no floating-point arithmetic on the amount). */
export function formatUsdc(micro: bigint): string {
  const sign = micro < 0n ? '-' : '';
  return `${sign}${microToUsdc(micro < 0n ? -micro : micro)} USDC`;
}

/** An amount as the API returns it (USDC, e.g. 12.5) in exact micro-USDC (12_500_000n), for comparing with balances. */
export function toMicroUsdc(amount: number): bigint {
  const micro = usdcToMicro(amount);
  if (micro === undefined) throw new TypeError(`${amount} is not a USDC amount (not negative, at most ${USDC_DECIMALS} decimals)`);
  return micro;
}
