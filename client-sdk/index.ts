export { ApiError } from './errors.ts';
export * from './resources.ts';
