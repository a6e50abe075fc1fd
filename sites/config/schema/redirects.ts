import { z } from 'zod';

/** `redirects`: old root-relative path -> internal path or external URL. */
export const redirectsSchema = z.record(z.string(), z.string()).default({}).describe('Old path -> destination (307).');
