/**
 * The payments ledger the configuration asks for: the embedded LiteSVM ledger (default) or a real
 * Solana cluster through JSON-RPC. With the embedded ledger, the app also serves the development
 * JSON-RPC node (`createSolanaRpcHandler(ledger)` at `ledger.rpcUrl`, '/dev/solana-rpc').
 */
import type { LedgerConfig } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import { LiteSvmLedger } from './litesvm-ledger.ts';
import { RpcLedger } from './rpc-ledger.ts';
import { readKeypairFile } from './solana.ts';

export { LedgerError, type Ledger } from './ledger.ts';
export { LiteSvmLedger, type LiteSvmLedgerOptions } from './litesvm-ledger.ts';
export { RpcLedger, type RpcLedgerOptions } from './rpc-ledger.ts';
export { createSolanaRpcHandler, answerSolanaRpc, type SolanaRpcRequestHandler } from './solana-rpc.ts';
export { MEMO_PROGRAM_ADDRESS } from './solana.ts';

/** Either ledger; narrow with `instanceof LiteSvmLedger` for the faucet and the dev JSON-RPC node. */
export type AnyLedger = LiteSvmLedger | RpcLedger;

export async function createLedger(config: LedgerConfig, log: Logger): Promise<AnyLedger> {
  const ledgerLog = log.child({ component: 'ledger' });
  if (config.kind === 'embedded') {
    return LiteSvmLedger.open({
      ...(config.dataDir ? { dir: config.dataDir } : {}),
      ...(config.mint ? { mint: config.mint } : {}),
      ...(config.marketplaceKeypair ? { marketplaceKeypair: readKeypairFile(config.marketplaceKeypair) } : {}),
      ...(config.publicRpcUrl ? { rpcUrl: config.publicRpcUrl } : {}),
      log: ledgerLog,
    });
  }
  const ledger = await RpcLedger.open({
    url: config.url,
    publicRpcUrl: config.publicRpcUrl,
    cluster: config.cluster,
    mint: config.mint,
    marketplaceKeypair: readKeypairFile(config.marketplaceKeypair),
    ...(config.confirmTimeoutMs ? { confirmTimeoutMs: config.confirmTimeoutMs } : {}),
    log: ledgerLog,
  });
  ledgerLog.info({ cluster: ledger.cluster, url: config.url, mint: ledger.mint, marketplaceWallet: ledger.marketplaceWallet }, 'Solana cluster ledger ready');
  // Payments need the marketplace's token account to exist; create it once, in the background (the
  // cluster may be down at start-up: payments then fail 503 until it is reachable).
  ledger.ensureMarketplaceTokenAccount().catch((err: unknown) => ledgerLog.warn({ err }, 'could not check or create the marketplace token account'));
  return ledger;
}
