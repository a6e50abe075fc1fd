import { unauthorized } from '../../server/platform/errors.ts';
import { documented } from '../../server/platform/http/procedure-meta.ts';
import { middleware } from '../trpc.ts';

/** `Authorization: Bearer <organization API key>`; the key's organization scopes the call. */
export const requireOrganization = documented(middleware(async ({ ctx, next }) => {
  const header = ctx.headers.authorization;
  const key = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!key) throw unauthorized('Missing API key: send "Authorization: Bearer <API key>"');
  const orgId = await ctx.services.organizations.authenticate(key);
  if (!orgId) throw unauthorized('Unknown API key');
  return next({ ctx: { orgId } });
}), {
  errors: { 401: ['UNAUTHORIZED'] },
  notes: { UNAUTHORIZED: 'The API key is missing or unknown' },
  security: { ApiKey: { type: 'http', scheme: 'bearer', description: "An organization's API key: `Authorization: Bearer <key>` (the scheme name in any case)" } },
});
