import { z } from 'zod';
import { optionalLink } from './common.ts';

/**
 * The most `redirects` a site may have (docs/docs-site-config.md): large Mintlify sites have a few thousand. Beyond
 * it the first ones are used and the site has an error, so a hosted build fails instead of checking 300,000.
 */
export const MAX_REDIRECTS = 10_000;

/** `redirects`: old root-relative path -> internal path or external URL. */
export const redirectsSchema = z.record(z.string(), optionalLink()).default({}).describe('Old path -> destination (307).');
