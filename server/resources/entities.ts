import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from '../platform/organizations/entities.ts';
import { CALENDAR_SYNCS, ONBOARDING_PREFERENCES } from './schemas.ts';

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

