import { describe, expect, it } from 'vitest';
import type { ResourceClient } from '../../client-sdk/index.ts';
import { useOrganizationServer } from '../helpers/server.ts';
import { asset, type Rest } from '../helpers/rest.ts';

let orgId: string;
let rest: Rest;
let sdk: ResourceClient;
useOrganizationServer((f) => ({ orgId, rest, sdk } = f));

const stored = async (resourceId: string) => (await sdk.assets.list()).find((a) => a.resourceId === resourceId);

describe('POST /asset-resources', () => {
  it('answers 201 Created with { message } and stores every field', async () => {
    const input = asset({ displayPictureUri: 'https://cdn.example.com/room.png', notificationsEnabled: true, note: 'Projector' });
    const res = await rest('POST', '/asset-resources', input);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(await stored(input.resourceId)).toEqual({ ...input, orgId });
  });

  it('stores userIdsToNotify exactly as sent, whatever the strings look like', async () => {
    const userIdsToNotify = ['NULL', 'null', ' spaced ', '{a,b}', '"quoted"', 'back\\slash', 'ünï'];
    const input = asset({ userIdsToNotify });
    expect((await rest('POST', '/asset-resources', input)).status).toBe(201);
    expect((await stored(input.resourceId))?.userIdsToNotify).toEqual(userIdsToNotify);
    await sdk.assets.update(input.resourceId, { userIdsToNotify: ['NULL', ' x '] });
    expect((await stored(input.resourceId))?.userIdsToNotify).toEqual(['NULL', ' x ']);
  });

  it('accepts an empty userIdsToNotify array', async () => {
    const input = asset({ userIdsToNotify: [] });
    expect((await rest('POST', '/asset-resources', input)).status).toBe(201);
    expect((await stored(input.resourceId))?.userIdsToNotify).toEqual([]);
  });

  it.each([['resourceId'], ['resourceName'], ['timezone'], ['createdAt'], ['isActive'], ['assetType'], ['userIdsToNotify']])(
    'rejects a body without the required field %s (400, naming it)',
    async (field) => {
      const input: Record<string, unknown> = asset();
      delete input[field];
      const res = await rest('POST', '/asset-resources', input);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Error creating asset resource', error: expect.stringContaining(`${field}:`) });
      expect(await stored(input.resourceId as string)).toBeUndefined();
    },
  );

  it.each([
    ['userIdsToNotify', 'user-1'],
    ['userIdsToNotify', [1, 2]],
    ['userIdsToNotify', ['']],
    ['timezone', 'Nowhere/Town'],
    ['isActive', 1],
    ['assetType', ''],
  ])('rejects an invalid %s (%j) with 400 naming the field', async (field, value) => {
    const res = await rest('POST', '/asset-resources', asset({ [field]: value }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(new RegExp(`\\b${field}(\\.\\d+)?: `));
  });

  it('refuses a duplicate resourceId within the organization (409)', async () => {
    const input = asset();
    await rest('POST', '/asset-resources', input);
    const res = await rest('POST', '/asset-resources', input);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Error creating asset resource', error: expect.stringContaining(input.resourceId) });
  });

  it('keeps employee and asset identifiers apart: the same resourceId may name one of each', async () => {
    const input = asset();
    await rest('POST', '/asset-resources', input);
    const res = await rest('POST', '/employee-resources', {
      resourceId: input.resourceId,
      resourceName: 'Namesake',
      timezone: 'UTC',
      createdAt: '2026-01-01T00:00:00Z',
      isActive: true,
      userId: 'u-namesake',
      email: 'namesake@example.com',
    });
    expect(res.status).toBe(201);
  });
});

describe('GET /asset-resources', () => {
  it('answers 200 with an array of asset resources with orgId, in creation order', async () => {
    const created = [asset(), asset({ userIdsToNotify: ['a', 'b', 'c'] })];
    for (const input of created) await sdk.assets.create(input);
    const res = await rest('GET', '/asset-resources');
    expect(res.status).toBe(200);
    expect(res.body.slice(-2)).toEqual(created.map((a) => ({ ...a, orgId })));
    for (const item of res.body) expect(item.orgId).toBe(orgId);
  });
});

describe('PUT /asset-resources/:resourceId', () => {
  it('answers 200 { message } and updates every documented optional field', async () => {
    const input = asset();
    await sdk.assets.create(input);
    const changes = {
      resourceName: 'Board room',
      timezone: 'Asia/Tokyo',
      displayPictureUri: 'https://cdn.example.com/board.png',
      notificationsEnabled: false,
      isActive: false,
      note: 'Seats 12',
      assetType: 'conference-room',
      userIdsToNotify: ['user-9'],
    };
    const res = await rest('PUT', `/asset-resources/${input.resourceId}`, changes);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(await stored(input.resourceId)).toEqual({ ...input, ...changes, orgId });
  });

  it('changes only the fields sent', async () => {
    const input = asset({ note: 'keep me' });
    await sdk.assets.create(input);
    await sdk.assets.update(input.resourceId, { isActive: false });
    expect(await stored(input.resourceId)).toEqual({ ...input, isActive: false, orgId });
  });

  it.each([['orgId'], ['userId'], ['createdAt']])('refuses %s, which updates do not carry (400, nothing changed)', async (field) => {
    const input = asset();
    await sdk.assets.create(input);
    const res = await rest('PUT', `/asset-resources/${input.resourceId}`, { [field]: 'x', note: 'sneaky' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Error updating asset resource', error: expect.stringContaining(`${field}: Unknown field`) });
    expect(await stored(input.resourceId)).toEqual({ ...input, orgId });
  });

  it('answers 404 for an unknown resourceId', async () => {
    const res = await rest('PUT', '/asset-resources/no-such-asset', { note: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Error updating asset resource', error: expect.stringContaining('no-such-asset') });
  });

  it('answers 404 for an employee resourceId: the kinds are separate', async () => {
    const employeeId = `emp-only-${Date.now()}`;
    await rest('POST', '/employee-resources', {
      resourceId: employeeId, resourceName: 'E', timezone: 'UTC', createdAt: '2026-01-01T00:00:00Z', isActive: true, userId: 'u', email: 'e@example.com',
    });
    expect((await rest('PUT', `/asset-resources/${employeeId}`, { note: 'x' })).status).toBe(404);
  });
});
