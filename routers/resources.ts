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
import { resourceExamples as examples } from './examples/resources.ts';
import { orgProcedure } from './procedures.ts';
import { type Meta, router } from './trpc.ts';

/**
 * A resource API call: `action` names it in error messages; `errors` are its service's own (the API key, body reading,
 * validation and failures are documented from the middlewares and the input).
 */
const resource = (action: string, errors: Meta['errors'] = {}) => orgProcedure.meta({ action, errors });
const conflict = { 409: ['CONFLICT'] } as const;
const notFound = { 404: ['NOT_FOUND'] } as const;

const byId = { resourceId: identifier.meta({ description: 'The resource to update' }) };
const tags = { employees: ['Employee resources'], assets: ['Asset resources'], all: ['All resources'] };

export const resourcesRouter = router({
  employees: router({
    create: resource('creating employee resource', conflict)
      .meta({
        successStatus: 201,
        examples: examples.employeesCreate,
        openapi: {
          method: 'POST',
          path: '/employee-resources',
          tags: tags.employees,
          summary: 'Create an employee resource',
          description: "Answers the stored resource with the key's organization. `resourceId` is unique per organization and kind.",
          protect: true,
        },
      })
      .input(EmployeeCreate)
      .output(EmployeeWithOrg)
      .mutation(({ ctx, input }) => ctx.services.resources.createEmployee(ctx.orgId, input)),

    list: resource('fetching employee resources')
      .meta({
        examples: examples.employeesList,
        openapi: {
          method: 'GET',
          path: '/employee-resources',
          tags: tags.employees,
          summary: "List the organization's employee resources",
          description: "Every employee resource of the key's organization, without `orgId`; optional fields never set are absent.",
          protect: true,
        },
      })
      .input(z.void())
      .output(z.array(Employee))
      .query(({ ctx }) => ctx.services.resources.listEmployees(ctx.orgId)),

    update: resource('updating employee resource', notFound)
      .meta({
        examples: examples.employeesUpdate,
        openapi: {
          method: 'PUT',
          path: '/employee-resources/{resourceId}',
          tags: tags.employees,
          summary: 'Update an employee resource',
          description: 'Changes the fields sent and keeps the others; `null` clears an optional field. Identifiers cannot be changed.',
          protect: true,
        },
      })
      .input(EmployeePatch.extend(byId))
      .output(message)
      .mutation(async ({ ctx, input: { resourceId, ...patch } }) => {
        await ctx.services.resources.updateEmployee(ctx.orgId, resourceId, patch);
        return { message: 'Employee resource updated' };
      }),
  }),

  assets: router({
    create: resource('creating asset resource', conflict)
      .meta({
        successStatus: 201,
        examples: examples.assetsCreate,
        openapi: {
          method: 'POST',
          path: '/asset-resources',
          tags: tags.assets,
          summary: 'Create an asset resource',
          description: "Stores the asset in the key's organization. `resourceId` is unique per organization and kind.",
          protect: true,
        },
      })
      .input(AssetCreate)
      .output(message)
      .mutation(async ({ ctx, input }) => {
        await ctx.services.resources.createAsset(ctx.orgId, input);
        return { message: 'Asset resource created' };
      }),

    list: resource('fetching asset resources')
      .meta({
        examples: examples.assetsList,
        openapi: {
          method: 'GET',
          path: '/asset-resources',
          tags: tags.assets,
          summary: "List the organization's asset resources",
          description: "Every asset resource of the key's organization; optional fields never set are absent.",
          protect: true,
        },
      })
      .input(z.void())
      .output(z.array(Asset))
      .query(({ ctx }) => ctx.services.resources.listAssets(ctx.orgId)),

    update: resource('updating asset resource', notFound)
      .meta({
        examples: examples.assetsUpdate,
        openapi: {
          method: 'PUT',
          path: '/asset-resources/{resourceId}',
          tags: tags.assets,
          summary: 'Update an asset resource',
          description: 'Changes the fields sent and keeps the others; `null` clears an optional field. Identifiers cannot be changed.',
          protect: true,
        },
      })
      .input(AssetPatch.extend(byId))
      .output(message)
      .mutation(async ({ ctx, input: { resourceId, ...patch } }) => {
        await ctx.services.resources.updateAsset(ctx.orgId, resourceId, patch);
        return { message: 'Asset resource updated' };
      }),
  }),

  all: resource('fetching all resources')
    .meta({
      examples: examples.all,
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
