import { z } from 'zod';
import { dateTimeInput, identifier, isoDateTime, requiredText, text, timeZone } from '../platform/schemas.ts';

/**
 * The resource API's shapes (zod): every procedure's input and output, so they validate requests, type the
 * SDK and generate openapi.json (docs/resource-management.md).
 */

export const ONBOARDING_PREFERENCES = ['SEND_EMAIL_INVITE', 'SET_USERNAME_PASSWORD'] as const;
export const CALENDAR_SYNCS = ['GCal', 'Apple', 'Outlook', 'None'] as const;

const email = z.email().max(320).meta({ example: 'ada@example.com' });
const phone = z
  .string()
  .regex(/^\+?[0-9][0-9 ().-]{2,30}$/, 'Must be a phone number: digits, spaces, ( ) . - and an optional leading +')
  .meta({ example: '+44 20 7946 0958' });
const userId = requiredText(128);

/** Each kind's fields, split by whether create requires them. */
const sharedRequired = { resourceName: requiredText(256), timezone: timeZone, isActive: z.boolean() };
const sharedOptional = { displayPictureUri: text(2048), notificationsEnabled: z.boolean(), note: text(4000) };

const employeeRequired = { ...sharedRequired, email };
const employeeOptional = {
  ...sharedOptional,
  phone,
  onboardingPreference: z.enum(ONBOARDING_PREFERENCES),
  calendarSync: z.enum(CALENDAR_SYNCS),
  role: text(256),
};

const assetRequired = { ...sharedRequired, assetType: requiredText(256), userIdsToNotify: z.array(userId).max(1000) };
const assetOptional = sharedOptional;

type Shape = Record<string, z.ZodType>;
const optional = <T extends Shape>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };
/** Optional fields may be sent as null on update to clear them. */
const clearable = <T extends Shape>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.nullable().optional()])) as {
    [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>;
  };

// ---- requests -------------------------------------------------------------------------------

export const EmployeeCreate = z.strictObject({
  resourceId: identifier,
  createdAt: dateTimeInput,
  userId,
  ...employeeRequired,
  ...optional(employeeOptional),
});
export type EmployeeCreate = z.output<typeof EmployeeCreate>;

export const AssetCreate = z.strictObject({ resourceId: identifier, createdAt: dateTimeInput, ...assetRequired, ...optional(assetOptional) });
export type AssetCreate = z.output<typeof AssetCreate>;

/** Update bodies list no identifiers (`resourceId`, `userId`, `orgId`): sending one is an error. */
export const EmployeePatch = z.strictObject({ ...optional(employeeRequired), ...clearable(employeeOptional) });
export type EmployeePatch = z.output<typeof EmployeePatch>;
export const AssetPatch = z.strictObject({ ...optional(assetRequired), ...clearable(assetOptional) });
export type AssetPatch = z.output<typeof AssetPatch>;

// ---- responses ------------------------------------------------------------------------------

/** What every resource reads as: optional fields never set are absent. */
const resourceOut = {
  resourceId: z.string(),
  resourceName: z.string(),
  timezone: z.string(),
  createdAt: isoDateTime,
  displayPictureUri: z.string().optional(),
  notificationsEnabled: z.boolean().optional(),
  isActive: z.boolean(),
  note: z.string().optional(),
};

const employeeOut = {
  ...resourceOut,
  userId: z.string(),
  email: z.string(),
  phone: z.string().optional(),
  onboardingPreference: z.enum(ONBOARDING_PREFERENCES).optional(),
  calendarSync: z.enum(CALENDAR_SYNCS).optional(),
  role: z.string().optional(),
};

/** `GET /employee-resources` items: they are listed without `orgId` (docs/resource-management.md). */
export const Employee = z.object(employeeOut).meta({ id: 'EmployeeResource' });
export type Employee = z.output<typeof Employee>;
export const EmployeeWithOrg = z.object({ orgId: z.string(), ...employeeOut }).meta({ id: 'EmployeeResourceWithOrg' });
export type EmployeeWithOrg = z.output<typeof EmployeeWithOrg>;

export const Asset = z
  .object({ orgId: z.string(), ...resourceOut, assetType: z.string(), userIdsToNotify: z.array(z.string()) })
  .meta({ id: 'AssetResource' });
export type Asset = z.output<typeof Asset>;

export const AllResources = z.object({ employees: z.array(EmployeeWithOrg), assets: z.array(Asset) });
export type AllResources = z.output<typeof AllResources>;
