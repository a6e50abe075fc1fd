/**
 * Property-based: random and malformed requests at every endpoint never produce a 500, always get
 * the documented error body, and change nothing when refused.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useOrganizationServer, type TestServer } from '../helpers/server.ts';
import { ENDPOINTS, type Endpoint } from '../helpers/endpoints.ts';
import { asset, employee, type Rest } from '../helpers/rest.ts';

let server: TestServer;
let apiKey: string;
let rest: Rest;
const seeded = { employee: employee({ resourceId: 'seed-emp' }), asset: asset({ resourceId: 'seed-asset' }) };

useOrganizationServer((f) => ({ server, apiKey, rest } = f));
beforeAll(async () => {
  await rest('POST', '/employee-resources', seeded.employee);
  await rest('POST', '/asset-resources', seeded.asset);
});

/** Everything a client can observe of the stored data. */
const snapshot = async () => ({
  all: (await rest('GET', '/all-resources')).body,
  organizations: await server.services.organizations.count(),
});

const SHARED_FIELDS = ['resourceName', 'timezone', 'displayPictureUri', 'notificationsEnabled', 'isActive', 'note'];
const EMPLOYEE_FIELDS = [...SHARED_FIELDS, 'email', 'phone', 'onboardingPreference', 'calendarSync', 'role'];
const ASSET_FIELDS = [...SHARED_FIELDS, 'assetType', 'userIdsToNotify'];
const IDENTIFIERS = ['resourceId', 'createdAt', 'userId', 'orgId', '__proto__', 'constructor', 'unknownField'];

const isEmployee = (endpoint: Endpoint) => endpoint.path.startsWith('/employee');
const fieldsOf = (endpoint: Endpoint) => [...(isEmployee(endpoint) ? EMPLOYEE_FIELDS : ASSET_FIELDS), ...IDENTIFIERS];

/** A valid body for the endpoint, so that mutations of it land just beside the valid space. */
function validBody(endpoint: Endpoint): Record<string, unknown> {
  if (endpoint.method === 'PUT') return { note: 'fine' };
  return isEmployee(endpoint) ? employee() : asset();
}

/** Values that have broken JSON APIs before: NUL bytes, lone surrogates, huge or odd numbers, empty things. */
const nasty = fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '', ' ', 'x'.repeat(5000), -1, 1e308, 0.5, true, null, [], {}, ['\u0000']);
const anyText = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udc00', 'é', '😀'), fc.string({ unit: 'binary', maxLength: 1 })) });

/** One field of a valid body replaced by something odd, or removed. */
const nearlyValid = (endpoint: Endpoint) =>
  fc
    .tuple(
      fc.constantFrom(...fieldsOf(endpoint)),
      fc.option(fc.oneof({ arbitrary: nasty, weight: 2 }, anyText, fc.anything({ withNullPrototype: true })), { nil: undefined, freq: 8 }),
    )
    .map(([field, value]) => {
      const body = validBody(endpoint);
      if (value === undefined) delete body[field];
      else Object.defineProperty(body, field, { value, enumerable: true, writable: true, configurable: true });
      return JSON.stringify(body);
    });

const rawBody = (endpoint: Endpoint) =>
  fc.oneof(
    { arbitrary: nearlyValid(endpoint), weight: 6 },
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.object().map((v) => JSON.stringify(v)),
    fc.string(), // mostly not JSON at all
    fc.constantFrom('', '{', '{"a":1', '[1,2', 'null', '{"isActive":"yes"}', '\u0000', '{"note":"\\u0000"}'),
  );

const request = fc.constantFrom(...ENDPOINTS).chain((endpoint) =>
  fc.record({
    endpoint: fc.constant(endpoint),
    id: fc.oneof(
      { arbitrary: fc.constant(isEmployee(endpoint) ? 'seed-emp' : 'seed-asset'), weight: 3 },
      fc.constant('missing'),
      fc.string({ minLength: 1, maxLength: 40 }),
    ),
    body: rawBody(endpoint),
    contentType: fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', ''),
    authorized: fc.oneof({ arbitrary: fc.constant(true), weight: 7 }, fc.constant(false)),
    query: fc.option(fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }), { nil: undefined }),
  }),
);

describe('random and malformed requests to every endpoint', () => {
  it('never answer 500, always answer errors with { message, error }, and change nothing when refused', async () => {
    let before = await snapshot();
    await fc.assert(
      fc.asyncProperty(request, async ({ endpoint, id, body, contentType, authorized, query }) => {
        const path = endpoint.path.replace('{id}', encodeURIComponent(id));
        const search = query ? `?${new URLSearchParams(query)}` : '';
        const res = await fetch(`${server.url}${path}${search}`, {
          method: endpoint.method,
          headers: {
            ...(authorized ? { authorization: `Bearer ${apiKey}` } : {}),
            ...(endpoint.body && contentType ? { 'content-type': contentType } : {}),
          },
          ...(endpoint.body ? { body } : {}),
        });
        const text = await res.text();
        expect(res.status, text).toBeLessThan(500);
        if (res.status >= 400) {
          expect(JSON.parse(text)).toEqual({ message: expect.any(String), error: expect.any(String) });
          expect(await snapshot()).toEqual(before);
        } else {
          before = await snapshot(); // a request that happened to be valid may change data
        }
      }),
      { numRuns: 400 },
    );
  }, 180_000); // hundreds of real HTTP calls: room for a loaded machine
});

describe('valid resources', () => {
  /** Any text a client may store: well-formed, no NUL, not blank; biased towards what breaks SQL literals. */
  const storable = fc
    .string({ minLength: 1, maxLength: 40, unit: fc.oneof(fc.constantFrom('NULL', 'null', '{', '}', ',', '"', "'", '\\', ' ', 'é', '😀'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })) })
    .filter((s) => !s.includes('\u0000') && s.trim().length > 0 && s.length <= 128);
  let n = 0;

  it('read back exactly as they were created', async () => {
    await fc.assert(
      fc.asyncProperty(storable, storable, fc.array(storable, { maxLength: 5 }), fc.option(storable, { nil: undefined }), async (name, type, userIds, note) => {
        const input = asset({ resourceId: `prop-${++n}`, resourceName: name, assetType: type, userIdsToNotify: userIds, ...(note ? { note } : {}) });
        const created = await rest('POST', '/asset-resources', input);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const listed = (await rest('GET', '/asset-resources')).body.find((a: any) => a.resourceId === input.resourceId);
        expect(listed).toEqual({ ...input, orgId: listed.orgId });
      }),
      { numRuns: 60 },
    );
  }, 180_000); // hundreds of real HTTP calls: room for a loaded machine
});
