export { ApiError } from './errors.ts';
/** The server's router type, for calling it with @trpc/client directly (inputs and outputs inferred). */
export type { AppRouter } from '../routers/index.ts';
export * from './marketplace.ts';
export * from './resources.ts';
export * from './wallet.ts';
export { canonicalUrl } from './signed-url.ts';
export * from './payment.ts';
export * from './events.ts';
export * from './balances.ts';
export * from './token-account.ts';
