export { ApiError } from './errors.ts';
export * from './marketplace.ts';
export * from './resources.ts';
export * from './wallet.ts';
export * from './payment.ts';
export * from './events.ts';
export * from './balances.ts';
