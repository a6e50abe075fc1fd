/**
 * The honest floor for the resource API's write, in the manner of orders/baseline.ts: a hand-written node:http
 * server doing what ours does on the same table, with none of our layers.
 *
 *   POST /employee-resources   the API key's organization (looked up once, then cached, as ours); the body checked
 *                              field by field as the schema does (unknown fields, lengths, NUL and unpaired
 *                              surrogates, the identifier's characters, e-mail, the time zone canonicalised, the
 *                              date-time's form and years); one insert; 201 with the resource
 */
import { createHash } from 'node:crypto';
import type { DatabaseConfig } from '../../server/platform/config.ts';
import { canonicalTimeZone } from '../../server/platform/schemas.ts';
import { CALENDAR_SYNCS, ONBOARDING_PREFERENCES } from '../../server/resources/schemas.ts';
import { startFloor, type Answer, type Query } from './common/floor.ts';

/** Each field's column. */
const COLUMNS: Record<string, string> = {
  resourceId: 'resource_id',
  resourceName: 'resource_name',
  timezone: 'timezone',
  createdAt: 'created_at',
  displayPictureUri: 'display_picture_uri',
  notificationsEnabled: 'notifications_enabled',
  isActive: 'is_active',
  note: 'note',
  userId: 'user_id',
  email: 'email',
  phone: 'phone',
  onboardingPreference: 'onboarding_preference',
  calendarSync: 'calendar_sync',
  role: 'role',
};

const text = (max: number) => (v: unknown) => typeof v === 'string' && v.length <= max && v.isWellFormed() && !v.includes('\0');
const required = (max: number) => (v: unknown) => text(max)(v) && (v as string).trim().length > 0;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const CHECKS: Record<string, (v: unknown) => boolean> = {
  resourceId: (v) => typeof v === 'string' && /^[A-Za-z0-9._~@:-]{1,128}$/.test(v) && !/^\.+$/.test(v),
  createdAt: (v) => typeof v === 'string' && ISO.test(v) && ((y) => y >= 1 && y <= 9999)(new Date(v).getUTCFullYear()),
  userId: required(128),
  resourceName: required(256),
  timezone: (v) => typeof v === 'string' && v.length <= 64 && canonicalTimeZone(v) !== undefined,
  isActive: (v) => typeof v === 'boolean',
  email: (v) => typeof v === 'string' && v.length <= 320 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  displayPictureUri: text(2048),
  notificationsEnabled: (v) => typeof v === 'boolean',
  note: text(4000),
  phone: (v) => typeof v === 'string' && /^\+?[0-9][0-9 ().-]{2,30}$/.test(v),
  onboardingPreference: (v) => (ONBOARDING_PREFERENCES as readonly unknown[]).includes(v),
  calendarSync: (v) => (CALENDAR_SYNCS as readonly unknown[]).includes(v),
  role: text(256),
};
const REQUIRED = ['resourceId', 'createdAt', 'userId', 'resourceName', 'timezone', 'isActive', 'email'];

const resourcesFloor = (query: Query): Answer => {
  const organizations = new Map<string, string>();
  const organization = async (authorization: string | undefined) => {
    if (!authorization?.startsWith('Bearer ')) return undefined;
    const hash = createHash('sha256').update(authorization.slice(7)).digest('hex');
    const known = organizations.get(hash);
    if (known) return known;
    const [row] = await query('select organization_id from api_key where key_hash = $1', [hash]);
    if (row) organizations.set(hash, row.organization_id as string);
    return row?.organization_id as string | undefined;
  };
  return async (method, url, headers, body) => {
    if (url !== '/employee-resources') return [404, { error: 'NOT_FOUND' }];
    const orgId = await organization(headers.authorization);
    if (!orgId) return [401, { error: 'UNAUTHORIZED' }];
    if (method !== 'POST') return [405, { error: 'METHOD_NOT_ALLOWED' }];
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return [400, { error: 'VALIDATION_ERROR' }];
    }
    const bad = Object.entries(input).filter(([field, value]) => !CHECKS[field]?.(value)).map(([field]) => field);
    const missing = REQUIRED.filter((field) => !(field in input));
    if (bad.length > 0 || missing.length > 0) return [400, { error: 'VALIDATION_ERROR', details: [...bad, ...missing] }];
    const resource = { ...input, timezone: canonicalTimeZone(input.timezone as string), createdAt: new Date(input.createdAt as string).toISOString() };
    const fields = Object.keys(resource);
    try {
      await query(
        `insert into employee_resource (organization_id, ${fields.map((f) => COLUMNS[f]).join(', ')}) values ($1, ${fields.map((_, i) => `$${i + 2}`).join(', ')})`,
        [orgId, ...fields.map((f) => (resource as Record<string, unknown>)[f])],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return [409, { error: 'CONFLICT' }];
      throw error;
    }
    return [201, { orgId, ...resource }];
  };
};

/** The floor of POST /employee-resources on a database our server has closed. */
export const resourcesFloorOn = (database: DatabaseConfig) => startFloor(database, resourcesFloor);
