import { unauthorized } from '../../server/platform/errors.ts';
import { middleware } from '../trpc.ts';

/** `Authorization: Bearer <organization API key>`; the key's organization scopes the call. */
export const requireOrganization = middleware(async ({ ctx, next }) => {
  const header = ctx.headers.authorization;
  const key = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!key) throw unauthorized('Missing API key: send "Authorization: Bearer <API key>"');
  const orgId = await ctx.services.organizations.authenticate(key);
  if (!orgId) throw unauthorized('Unknown API key');
  return next({ ctx: { orgId } });
});
