import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CALENDAR_SYNCS, ONBOARDING_PREFERENCES } from './schemas.ts';

/** An organization owns resources; its API keys authenticate the resource API. */
export const Organization = defineEntity({
  name: 'Organization',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(200),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Organization = InferEntity<typeof Organization>;

/** Only the SHA-256 of a key is stored; keys carry 256 random bits, so a fast hash is enough. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(Organization).index(),
    keyHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;

/** Columns both kinds of bookable resource share. `seq` keeps listings in creation order. */
const resourceColumns = {
  seq: p.bigint('number').primary().autoincrement(),
  organization: () => p.manyToOne(Organization).mapToPk(),
  resourceId: p.string().length(128),
  resourceName: p.string().length(256),
  timezone: p.string().length(64),
  createdAt: p.datetime(),
  displayPictureUri: p.text().nullable(),
  notificationsEnabled: p.boolean().nullable(),
  isActive: p.boolean(),
  note: p.text().nullable(),
};

export const EmployeeResource = defineEntity({
  name: 'EmployeeResource',
  uniques: [{ properties: ['organization', 'resourceId'] }],
  properties: {
    ...resourceColumns,
    userId: p.string().length(128),
    email: p.string().length(320),
    phone: p.string().length(32).nullable(),
    onboardingPreference: p.enum(ONBOARDING_PREFERENCES).nullable(),
    calendarSync: p.enum(CALENDAR_SYNCS).nullable(),
    role: p.string().length(256).nullable(),
  },
});
export type EmployeeResource = InferEntity<typeof EmployeeResource>;

export const AssetResource = defineEntity({
  name: 'AssetResource',
  uniques: [{ properties: ['organization', 'resourceId'] }],
  properties: {
    ...resourceColumns,
    assetType: p.string().length(256),
    // jsonb, not text[]: array literals turn strings such as "NULL" into SQL NULL.
    userIdsToNotify: p.json<string[]>(),
  },
});
export type AssetResource = InferEntity<typeof AssetResource>;

