import { convertErrors } from './middleware/errors.ts';
import { requireOrganization } from './middleware/org-auth.ts';
import { baseProcedure } from './trpc.ts';

/** Every procedure starts here: failures leave it as documented errors. */
export const publicProcedure = baseProcedure.use(convertErrors);

/** Calls made with an organization API key; `ctx.orgId` is the key's organization. */
export const orgProcedure = publicProcedure.use(requireOrganization);
