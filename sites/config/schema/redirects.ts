import { z } from 'zod';
import { optionalLink } from './common.ts';

/** `redirects`: old root-relative path -> internal path or external URL. */
export const redirectsSchema = z.record(z.string(), optionalLink()).default({}).describe('Old path -> destination (307).');
