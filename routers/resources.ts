import { z } from 'zod';
import { identifier, message } from '../server/platform/schemas.ts';
import {
  AllResources,
  Asset,
  AssetCreate,
  AssetPatch,
  Employee,
  EmployeeCreate,
  EmployeePatch,
  EmployeeWithOrg,
} from '../server/resources/schemas.ts';
import { orgProcedure } from './procedures.ts';
import { router } from './trpc.ts';

/** Every call needs a key (401) and may fail (500); calls with a body may also be too large (413). */
const resource = (action: string, errorStatuses: number[]) =>
  orgProcedure.meta({ action, errorStatuses: [...errorStatuses, 401, 500] });

const byId = { resourceId: identifier.meta({ description: 'The resource to update' }) };
const tags = { employees: ['Employee resources'], assets: ['Asset resources'], all: ['All resources'] };

export const resourcesRouter = router({
  employees: router({
    create: resource('creating employee resource', [400, 409, 413])
      .meta({
        successStatus: 201,
        openapi: { method: 'POST', path: '/employee-resources', tags: tags.employees, summary: 'Create an employee resource', protect: true },
      })
      .input(EmployeeCreate)
      .output(EmployeeWithOrg)
      .mutation(({ ctx, input }) => ctx.services.resources.createEmployee(ctx.orgId, input)),

    list: resource('fetching employee resources', [])
      .meta({
        openapi: { method: 'GET', path: '/employee-resources', tags: tags.employees, summary: "List the organization's employee resources", protect: true },
      })
      .input(z.void())
      .output(z.array(Employee))
      .query(({ ctx }) => ctx.services.resources.listEmployees(ctx.orgId)),

    update: resource('updating employee resource', [400, 404, 413])
      .meta({
        openapi: { method: 'PUT', path: '/employee-resources/{resourceId}', tags: tags.employees, summary: 'Update an employee resource', protect: true },
      })
      .input(EmployeePatch.extend(byId))
      .output(message)
      .mutation(async ({ ctx, input: { resourceId, ...patch } }) => {
        await ctx.services.resources.updateEmployee(ctx.orgId, resourceId, patch);
        return { message: 'Employee resource updated' };
      }),
  }),

  assets: router({
    create: resource('creating asset resource', [400, 409, 413])
      .meta({
        successStatus: 201,
        openapi: { method: 'POST', path: '/asset-resources', tags: tags.assets, summary: 'Create an asset resource', protect: true },
      })
      .input(AssetCreate)
      .output(message)
      .mutation(async ({ ctx, input }) => {
        await ctx.services.resources.createAsset(ctx.orgId, input);
        return { message: 'Asset resource created' };
      }),

    list: resource('fetching asset resources', [])
      .meta({
        openapi: { method: 'GET', path: '/asset-resources', tags: tags.assets, summary: "List the organization's asset resources", protect: true },
      })
      .input(z.void())
      .output(z.array(Asset))
      .query(({ ctx }) => ctx.services.resources.listAssets(ctx.orgId)),

    update: resource('updating asset resource', [400, 404, 413])
      .meta({
        openapi: { method: 'PUT', path: '/asset-resources/{resourceId}', tags: tags.assets, summary: 'Update an asset resource', protect: true },
      })
      .input(AssetPatch.extend(byId))
      .output(message)
      .mutation(async ({ ctx, input: { resourceId, ...patch } }) => {
        await ctx.services.resources.updateAsset(ctx.orgId, resourceId, patch);
        return { message: 'Asset resource updated' };
      }),
  }),

  all: resource('fetching all resources', [400])
    .meta({
      openapi: {
        method: 'GET',
        path: '/all-resources',
        tags: tags.all,
        summary: 'List employee and asset resources together',
        description: "`orgId` narrows the listing to one organization; a key only ever sees its own organization's resources.",
        protect: true,
      },
    })
    .input(z.object({ orgId: z.string().max(128).optional().meta({ description: 'Only resources of this organization' }) }).optional())
    .output(AllResources)
    .query(({ ctx, input }) => ctx.services.resources.listAll(ctx.orgId, input?.orgId)),
});
