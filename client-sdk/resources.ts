import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../routers/index.ts';
import { call } from './errors.ts';

type Inputs = inferRouterInputs<AppRouter>['resources'];
type Outputs = inferRouterOutputs<AppRouter>['resources'];

export type EmployeeCreateInput = Inputs['employees']['create'];
export type EmployeeUpdateInput = Omit<Inputs['employees']['update'], 'resourceId'>;
export type AssetCreateInput = Inputs['assets']['create'];
export type AssetUpdateInput = Omit<Inputs['assets']['update'], 'resourceId'>;
export type EmployeeResource = Outputs['employees']['create'];
export type AssetResource = Outputs['assets']['list'][number];
export type AllResources = Outputs['all'];

export interface ResourceClientOptions {
  /** Server origin, e.g. "http://localhost:3000". */
  baseUrl: string;
  /** Organization API key (`npm run org:create`). */
  apiKey: string;
  fetch?: typeof globalThis.fetch;
}

/** Typed client of the resource management API (native tRPC under the hood). Failures throw ApiError. */
export function createResourceClient({ baseUrl, apiKey, fetch }: ResourceClientOptions) {
  const trpc = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl.replace(/\/$/, '')}/trpc`,
        headers: { authorization: `Bearer ${apiKey}` },
        ...(fetch ? { fetch } : {}),
      }),
    ],
  });
  const { employees, assets, all } = trpc.resources;
  return {
    employees: {
      create: (input: EmployeeCreateInput) => call(() => employees.create.mutate(input)),
      list: () => call(() => employees.list.query()),
      update: (resourceId: string, changes: EmployeeUpdateInput) =>
        call(() => employees.update.mutate({ ...changes, resourceId })),
    },
    assets: {
      create: (input: AssetCreateInput) => call(() => assets.create.mutate(input)),
      list: () => call(() => assets.list.query()),
      update: (resourceId: string, changes: AssetUpdateInput) =>
        call(() => assets.update.mutate({ ...changes, resourceId })),
    },
    /** Both kinds, each with `orgId`; `orgId` narrows the listing to one organization. */
    all: (filter: { orgId?: string } = {}) => call(() => all.query(filter)),
  };
}

export type ResourceClient = ReturnType<typeof createResourceClient>;
