export type { Problem } from '../config/problems.ts';
export type { SourcePage } from '../check/types.ts';
