import { describe, expect, it } from 'vitest';
import type { ResourceClient } from '../../client-sdk/index.ts';
import { useOrganizationServer } from '../helpers/server.ts';
import { employee, fullEmployee, type Rest } from '../helpers/rest.ts';

let orgId: string;
let rest: Rest;
let sdk: ResourceClient;
useOrganizationServer((f) => ({ orgId, rest, sdk } = f));

describe('POST /employee-resources', () => {
  it('answers 201 Created with the created employee resource, all fields, including orgId', async () => {
    const input = fullEmployee();
    const res = await rest('POST', '/employee-resources', input);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ ...input, orgId });
  });

  it('omits optional fields that were not sent', async () => {
    const input = employee();
    const res = await rest('POST', '/employee-resources', input);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['orgId', 'resourceId', 'resourceName', 'timezone', 'createdAt', 'isActive', 'userId', 'email'].sort(),
    );
  });

  it('returns createdAt as an ISO 8601 timestamp (UTC)', async () => {
    const res = await rest('POST', '/employee-resources', employee({ createdAt: '2026-03-01T12:00:00+02:00' }));
    expect(res.body.createdAt).toBe('2026-03-01T10:00:00.000Z');
  });

  it('accepts IANA time zone names, UTC included, in canonical casing', async () => {
    for (const [sent, stored] of [['UTC', 'UTC'], ['utc', 'UTC'], ['america/new_york', 'America/New_York'], ['Asia/Kolkata', 'Asia/Kolkata']]) {
      const res = await rest('POST', '/employee-resources', employee({ timezone: sent! }));
      expect(res.status, sent).toBe(201);
      expect(res.body.timezone).toBe(stored);
    }
  });

  it('accepts every onboardingPreference and calendarSync value documented', async () => {
    for (const onboardingPreference of ['SEND_EMAIL_INVITE', 'SET_USERNAME_PASSWORD'] as const) {
      for (const calendarSync of ['GCal', 'Apple', 'Outlook', 'None'] as const) {
        const res = await rest('POST', '/employee-resources', employee({ onboardingPreference, calendarSync }));
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ onboardingPreference, calendarSync });
      }
    }
  });

  it.each([
    ['resourceId'], ['resourceName'], ['timezone'], ['createdAt'], ['isActive'], ['userId'], ['email'],
  ])('rejects a body without the required field %s (400, naming it)', async (field) => {
    const input: Record<string, unknown> = employee();
    delete input[field];
    const res = await rest('POST', '/employee-resources', input);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Error creating employee resource', error: expect.stringContaining(`${field}:`) });
  });

  it.each([
    ['email', 'not-an-email'],
    ['timezone', 'Mars/Olympus_Mons'],
    ['timezone', '+01:00'],
    ['createdAt', 'yesterday'],
    ['isActive', 'yes'],
    ['notificationsEnabled', 'true'],
    ['onboardingPreference', 'SEND_SMS'],
    ['calendarSync', 'gcal'],
    ['phone', 'call me'],
    ['resourceId', 'has spaces'],
    ['resourceName', ''],
    ['note', 'nul \u0000 byte'],
    ['resourceName', 'x'.repeat(257)],
    ['resourceId', '.'],
    ['resourceId', '..'],
    ['createdAt', '0000-01-01T00:00:00Z'],
    ['createdAt', '9999-12-31T23:59:59-23:59'],
  ])('rejects an invalid %s (%j) with 400 naming the field', async (field, value) => {
    const res = await rest('POST', '/employee-resources', employee({ [field]: value }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Error creating employee resource');
    expect(res.body.error).toMatch(new RegExp(`\\b${field}: `));
  });

  it('rejects fields the request does not carry, such as orgId (400)', async () => {
    const res = await rest('POST', '/employee-resources', { ...employee(), orgId: 'someone-else' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('orgId: Unknown field');
  });

  it('refuses a duplicate resourceId within the organization (409) and keeps the first', async () => {
    const first = employee();
    expect((await rest('POST', '/employee-resources', first)).status).toBe(201);
    const res = await rest('POST', '/employee-resources', { ...first, resourceName: 'Impostor' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Error creating employee resource', error: expect.stringContaining(first.resourceId) });
    const listed = (await rest('GET', '/employee-resources')).body.find((e: any) => e.resourceId === first.resourceId);
    expect(listed.resourceName).toBe('Ada Lovelace');
  });

  it('creates through the SDK too', async () => {
    const input = employee();
    await expect(sdk.employees.create(input)).resolves.toEqual({ ...input, orgId });
  });
});

describe('GET /employee-resources', () => {
  it('answers 200 with an array of employee resources without orgId, in creation order', async () => {
    const created = [fullEmployee(), employee()];
    for (const input of created) await rest('POST', '/employee-resources', input);
    const res = await rest('GET', '/employee-resources');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    for (const item of res.body) expect(item).not.toHaveProperty('orgId');
    const ids = res.body.map((e: any) => e.resourceId);
    expect(ids.slice(-2)).toEqual(created.map((e) => e.resourceId));
    expect(res.body.at(-2)).toEqual(created[0]);
  });

  it('lists the same through the SDK', async () => {
    const viaRest = (await rest('GET', '/employee-resources')).body;
    await expect(sdk.employees.list()).resolves.toEqual(viaRest);
  });
});

describe('PUT /employee-resources/:resourceId', () => {
  it('answers 200 { message } and changes only the fields sent', async () => {
    const input = fullEmployee();
    await rest('POST', '/employee-resources', input);
    const res = await rest('PUT', `/employee-resources/${input.resourceId}`, { resourceName: 'Ada King', calendarSync: 'Outlook' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    const stored = (await rest('GET', '/employee-resources')).body.find((e: any) => e.resourceId === input.resourceId);
    expect(stored).toEqual({ ...input, resourceName: 'Ada King', calendarSync: 'Outlook' });
  });

  it('updates every documented optional field', async () => {
    const input = employee();
    await rest('POST', '/employee-resources', input);
    const changes = {
      resourceName: 'Grace Hopper',
      timezone: 'America/New_York',
      displayPictureUri: 'https://cdn.example.com/grace.png',
      notificationsEnabled: true,
      isActive: false,
      note: 'Navy',
      email: 'grace@example.com',
      phone: '+1 202 555 0100',
      onboardingPreference: 'SET_USERNAME_PASSWORD',
      calendarSync: 'Apple',
      role: 'Admiral',
    } as const;
    expect((await sdk.employees.update(input.resourceId, changes)).message).toBeTruthy();
    const stored = (await sdk.employees.list()).find((e) => e.resourceId === input.resourceId);
    expect(stored).toEqual({ ...input, ...changes });
  });

  it('clears an optional field sent as null', async () => {
    const input = fullEmployee();
    await rest('POST', '/employee-resources', input);
    expect((await rest('PUT', `/employee-resources/${input.resourceId}`, { note: null, phone: null })).status).toBe(200);
    const stored = (await sdk.employees.list()).find((e) => e.resourceId === input.resourceId)!;
    expect(stored).not.toHaveProperty('note');
    expect(stored).not.toHaveProperty('phone');
  });

  it.each([['resourceName'], ['email'], ['isActive'], ['timezone']])('refuses null for %s, which the resource must keep', async (field) => {
    const input = employee();
    await rest('POST', '/employee-resources', input);
    const res = await rest('PUT', `/employee-resources/${input.resourceId}`, { [field]: null });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(`${field}:`);
  });

  it.each([['userId'], ['orgId']])('can never change the identifier %s (400, nothing changed)', async (field) => {
    const input = employee();
    await rest('POST', '/employee-resources', input);
    const res = await rest('PUT', `/employee-resources/${input.resourceId}`, { [field]: 'changed', note: 'sneaky' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Error updating employee resource', error: expect.stringContaining(`${field}: Unknown field`) });
    const stored = (await sdk.employees.list()).find((e) => e.resourceId === input.resourceId);
    expect(stored).toEqual(input);
  });

  it('keeps resourceId as the path names it', async () => {
    const input = employee();
    await rest('POST', '/employee-resources', input);
    await rest('PUT', `/employee-resources/${input.resourceId}`, { resourceId: 'renamed', note: 'kept id' });
    const ids = (await sdk.employees.list()).map((e) => e.resourceId);
    expect(ids).toContain(input.resourceId);
    expect(ids).not.toContain('renamed');
  });

  it('addresses resourceIds with @ : ~ whether or not the client percent-escapes them', async () => {
    const input = employee({ resourceId: `ada-lovelace@example.com:desk~${Date.now()}` });
    await rest('POST', '/employee-resources', input);
    for (const path of [input.resourceId, encodeURIComponent(input.resourceId), input.resourceId.replace('-', '%2D')]) {
      const res = await rest('PUT', `/employee-resources/${path}`, { note: path });
      expect(res.status, path).toBe(200);
    }
    expect((await sdk.employees.list()).find((e) => e.resourceId === input.resourceId)?.note).toBe(input.resourceId.replace('-', '%2D'));
  });

  it('answers 404 for an unknown resourceId', async () => {
    const res = await rest('PUT', '/employee-resources/does-not-exist', { note: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Error updating employee resource', error: expect.stringContaining('does-not-exist') });
  });

  it('rejects invalid values with 400 and changes nothing', async () => {
    const input = employee();
    await rest('POST', '/employee-resources', input);
    const res = await rest('PUT', `/employee-resources/${input.resourceId}`, { note: 'ok', email: 'broken' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('email:');
    expect((await sdk.employees.list()).find((e) => e.resourceId === input.resourceId)).toEqual(input);
  });
});
