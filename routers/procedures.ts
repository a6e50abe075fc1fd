import { convertErrors } from './middleware/errors.ts';
import { idempotent } from './middleware/idempotency.ts';
import { requireOrganization } from './middleware/org-auth.ts';
import { rateLimitByIp } from './middleware/limit-by-ip.ts';
import { requireWallet } from './middleware/wallet-auth.ts';
import { baseProcedure } from './trpc.ts';

/** Every procedure starts here: failures leave it as documented errors. */
export const publicProcedure = baseProcedure.use(convertErrors);

/** Resource API calls, made with an organization API key; `ctx.orgId` is the key's organization. */
export const orgProcedure = publicProcedure.use(requireOrganization);

/** Marketplace calls open to anyone (rate-limited per client IP). */
export const marketplaceProcedure = publicProcedure.meta({ api: 'marketplace' }).use(rateLimitByIp);

/** Marketplace calls signed by a wallet; `ctx.wallet` is the caller. POSTs honour `Idempotency-Key`. */
export const walletProcedure = publicProcedure.meta({ api: 'marketplace' }).use(requireWallet).use(idempotent);
