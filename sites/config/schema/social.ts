import { z } from 'zod';
import { optionalLink } from './common.ts';

export const SOCIAL_KEYS = [
  'website',
  'microblog',
  'video',
  'socialNetwork',
  'photoSharing',
  'professionalNetwork',
  'codeHost',
  'workspaceChat',
  'communityChat',
] as const;

/** `social`: footer profile links, plus `preview`. */
export const socialSchema = z
  .strictObject({
    ...Object.fromEntries(SOCIAL_KEYS.map((key) => [key, optionalLink().optional()])),
    preview: z.string().optional(),
  } as Record<(typeof SOCIAL_KEYS)[number] | 'preview', z.ZodOptional<z.ZodString>>)
  .default({});
