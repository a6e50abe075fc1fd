import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asset, employee } from '../helpers/rest.ts';
import { createOrganization, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * A third party's view of the API: all they have is openapi.json. They generate types with
 * openapi-typescript and call the API with openapi-fetch. This file checks both halves of that:
 *
 * 1. Compile time. beforeAll generates tests/generated/resources-api.d.ts from openapi.json and writes
 *    tests/generated/usage.ts (CONTRACT below): typed openapi-fetch calls of every endpoint plus type
 *    assertions that pin the generated types to the documented contract (fields, required fields, statuses, response and error
 *    bodies) and `@ts-expect-error` lines that must stay errors (unknown fields, missing required fields,
 *    changing identifiers...). The TypeScript compiler API then checks usage.ts: any diagnostic fails the
 *    test, so a schema that is too loose, too strict or wrong is caught.
 *    Nothing generated is committed (tests/generated is git-ignored and excluded from tsconfig), so this
 *    file imports nothing from there and `tsc -p .` stays green on a clean clone.
 *
 * 2. Run time. The same openapi-fetch client calls every endpoint of the real server; each answer must be
 *    a status openapi.json documents for that operation, with a body matching the documented schema.
 *    (The runtime client is untyped: its types are the ones checked in part 1.)
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const generatedDir = join(root, 'tests', 'generated');
const typesFile = join(generatedDir, 'resources-api.d.ts');
const usageFile = join(generatedDir, 'usage.ts');
const openapi = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8'));

/** Generated types, exactly as a third party would produce them from openapi.json. */
async function generateTypes() {
  const ast = await openapiTS(structuredClone(openapi));
  const banner = '// Generated from openapi.json by tests/platform/third-party-client.test.ts. Do not edit.\n\n';
  mkdirSync(generatedDir, { recursive: true });
  writeFileSync(typesFile, banner + astToString(ast));
}

/** Type-checks one file with the project's compiler options; returns the formatted diagnostics ('' when clean). */
function typeCheck(file: string): string {
  const configPath = join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath));
  const program = ts.createProgram([file], { ...options, noEmit: true });
  return ts.formatDiagnostics(ts.getPreEmitDiagnostics(program), {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
}

/**
 * tests/generated/usage.ts: a typed third-party client of every endpoint. It is only type-checked, never
 * run. Each `@ts-expect-error` call must stay on one line (the directive covers the next line only).
 */
const CONTRACT = `// Written by tests/platform/third-party-client.test.ts; type-checked there against resources-api.d.ts.
import createClient from 'openapi-fetch';
import type { components, paths } from './resources-api.d.ts';

type Schemas = components['schemas'];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
const assertType = <T extends true>(): T | void => {};

type Body<Path extends keyof paths, Method extends 'post' | 'put'> = NonNullable<paths[Path][Method]>['requestBody'] extends
  | { content: { 'application/json': infer B } }
  | undefined
  ? B
  : never;
type Statuses<Path extends keyof paths, Method extends 'get' | 'post' | 'put'> = keyof NonNullable<paths[Path][Method]>['responses'];
// openapi-fetch infers each call's init generically, so an unknown field in a call's body is not an excess
// property error (openapi-ts/openapi-typescript#2329); unknown fields are checked against Body<> instead.

// The documented fields.
type Shared = 'resourceId' | 'resourceName' | 'timezone' | 'createdAt' | 'displayPictureUri' | 'notificationsEnabled' | 'isActive' | 'note';
type EmployeeField = Shared | 'userId' | 'email' | 'phone' | 'onboardingPreference' | 'calendarSync' | 'role';
type AssetField = Shared | 'assetType' | 'userIdsToNotify';
type EmployeeRequired = 'resourceId' | 'resourceName' | 'timezone' | 'createdAt' | 'isActive' | 'userId' | 'email';
type AssetRequired = 'resourceId' | 'resourceName' | 'timezone' | 'createdAt' | 'isActive' | 'assetType' | 'userIdsToNotify';
/** Update bodies list no identifiers. */
type EmployeeUpdatable = Exclude<EmployeeField, 'resourceId' | 'userId' | 'createdAt'>;
type AssetUpdatable = Exclude<AssetField, 'resourceId' | 'createdAt'>;
type Message = { message: string };
type ResourceError = { message: string; error: string };

assertType<Equal<Schemas['ResourceError'], ResourceError>>();
assertType<Equal<keyof Schemas['EmployeeResourceWithOrg'], EmployeeField | 'orgId'>>();
assertType<Equal<keyof Schemas['EmployeeResource'], EmployeeField>>();
assertType<Equal<keyof Schemas['AssetResource'], AssetField | 'orgId'>>();
assertType<Equal<RequiredKeys<Schemas['EmployeeResourceWithOrg']>, EmployeeRequired | 'orgId'>>();
assertType<Equal<RequiredKeys<Schemas['EmployeeResource']>, EmployeeRequired>>();
assertType<Equal<RequiredKeys<Schemas['AssetResource']>, AssetRequired | 'orgId'>>();
assertType<Equal<Schemas['AssetResource']['userIdsToNotify'], string[]>>();
assertType<Equal<Schemas['EmployeeResource']['calendarSync'], 'GCal' | 'Apple' | 'Outlook' | 'None' | undefined>>();
assertType<Equal<Schemas['EmployeeResource']['onboardingPreference'], 'SEND_EMAIL_INVITE' | 'SET_USERNAME_PASSWORD' | undefined>>();

assertType<Equal<keyof Body<'/employee-resources', 'post'>, EmployeeField>>();
assertType<Equal<RequiredKeys<Body<'/employee-resources', 'post'>>, EmployeeRequired>>();
assertType<Equal<keyof Body<'/asset-resources', 'post'>, AssetField>>();
assertType<Equal<RequiredKeys<Body<'/asset-resources', 'post'>>, AssetRequired>>();
assertType<Equal<keyof Body<'/employee-resources/{resourceId}', 'put'>, EmployeeUpdatable>>();
assertType<Equal<RequiredKeys<Body<'/employee-resources/{resourceId}', 'put'>>, never>>();
assertType<Equal<keyof Body<'/asset-resources/{resourceId}', 'put'>, AssetUpdatable>>();
assertType<Equal<RequiredKeys<Body<'/asset-resources/{resourceId}', 'put'>>, never>>();

// The statuses each operation answers (openapi-fetch's data/error types do not show them).
assertType<Equal<Statuses<'/employee-resources', 'post'>, 201 | 400 | 401 | 409 | 413 | 500>>();
assertType<Equal<Statuses<'/asset-resources', 'post'>, 201 | 400 | 401 | 409 | 413 | 500>>();
assertType<Equal<Statuses<'/employee-resources', 'get'>, 200 | 401 | 500>>();
assertType<Equal<Statuses<'/asset-resources', 'get'>, 200 | 401 | 500>>();
assertType<Equal<Statuses<'/employee-resources/{resourceId}', 'put'>, 200 | 400 | 401 | 404 | 413 | 500>>();
assertType<Equal<Statuses<'/asset-resources/{resourceId}', 'put'>, 200 | 400 | 401 | 404 | 413 | 500>>();
assertType<Equal<Statuses<'/all-resources', 'get'>, 200 | 400 | 401 | 500>>();

export async function thirdPartyClient(baseUrl: string, apiKey: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${apiKey}\` } });
  const createdAt = '2026-01-15T09:30:00.000Z';

  // 1. POST /employee-resources -> 201, the employee with orgId
  const e = await client.POST('/employee-resources', {
    body: { resourceId: 'e1', resourceName: 'Ada', timezone: 'UTC', createdAt, isActive: true, userId: 'u1', email: 'ada@example.com', calendarSync: 'GCal', onboardingPreference: 'SEND_EMAIL_INVITE' },
  });
  assertType<Equal<typeof e.data, Schemas['EmployeeResourceWithOrg'] | undefined>>();
  assertType<Equal<typeof e.error, ResourceError | undefined>>();
  if (e.data) e.data.orgId satisfies string;
  // @ts-expect-error email is required
  await client.POST('/employee-resources', { body: { resourceId: 'e1', resourceName: 'Ada', timezone: 'UTC', createdAt, isActive: true, userId: 'u1' } });
  // @ts-expect-error orgId is not part of the request
  ({ resourceId: 'e1', resourceName: 'Ada', timezone: 'UTC', createdAt, isActive: true, userId: 'u1', email: 'a@example.com', orgId: 'o' }) satisfies Body<'/employee-resources', 'post'>;
  // @ts-expect-error calendarSync is one of GCal, Apple, Outlook, None
  await client.POST('/employee-resources', { body: { resourceId: 'e1', resourceName: 'Ada', timezone: 'UTC', createdAt, isActive: true, userId: 'u1', email: 'a@example.com', calendarSync: 'gcal' } });
  // @ts-expect-error isActive is a boolean
  await client.POST('/employee-resources', { body: { resourceId: 'e1', resourceName: 'Ada', timezone: 'UTC', createdAt, isActive: 'yes', userId: 'u1', email: 'a@example.com' } });

  // 2. POST /asset-resources -> 201 { message }
  const a = await client.POST('/asset-resources', {
    body: { resourceId: 'a1', resourceName: 'Room', timezone: 'UTC', createdAt, isActive: true, assetType: 'room', userIdsToNotify: ['u1'], note: 'n' },
  });
  assertType<Equal<typeof a.data, Message | undefined>>();
  assertType<Equal<typeof a.error, ResourceError | undefined>>();
  // @ts-expect-error userIdsToNotify is required
  await client.POST('/asset-resources', { body: { resourceId: 'a1', resourceName: 'Room', timezone: 'UTC', createdAt, isActive: true, assetType: 'room' } });
  // @ts-expect-error userIdsToNotify is an array of strings
  await client.POST('/asset-resources', { body: { resourceId: 'a1', resourceName: 'Room', timezone: 'UTC', createdAt, isActive: true, assetType: 'room', userIdsToNotify: 'u1' } });

  // 3. GET /employee-resources -> 200, employees without orgId
  const employees = await client.GET('/employee-resources');
  assertType<Equal<typeof employees.data, Schemas['EmployeeResource'][] | undefined>>();
  assertType<Equal<typeof employees.error, ResourceError | undefined>>();

  // 4. GET /asset-resources -> 200, assets with orgId
  const assets = await client.GET('/asset-resources');
  assertType<Equal<typeof assets.data, Schemas['AssetResource'][] | undefined>>();

  // 5. PUT /employee-resources/{resourceId} -> 200 { message }; optional fields may be cleared with null
  const eu = await client.PUT('/employee-resources/{resourceId}', {
    params: { path: { resourceId: 'e1' } },
    body: { resourceName: 'Ada King', calendarSync: 'Outlook', phone: null, note: null, role: null },
  });
  assertType<Equal<typeof eu.data, Message | undefined>>();
  assertType<Equal<typeof eu.error, ResourceError | undefined>>();
  // @ts-expect-error the path names the resource
  await client.PUT('/employee-resources/{resourceId}', { body: { note: 'x' } });
  // @ts-expect-error userId cannot change
  ({ note: 'x', userId: 'u2' }) satisfies Body<'/employee-resources/{resourceId}', 'put'>;
  // @ts-expect-error resourceId cannot change
  ({ note: 'x', resourceId: 'e2' }) satisfies Body<'/employee-resources/{resourceId}', 'put'>;
  // @ts-expect-error a required field cannot be cleared
  await client.PUT('/employee-resources/{resourceId}', { params: { path: { resourceId: 'e1' } }, body: { email: null } });

  // 6. PUT /asset-resources/{resourceId} -> 200 { message }
  const au = await client.PUT('/asset-resources/{resourceId}', {
    params: { path: { resourceId: 'a1' } },
    body: { assetType: 'desk', userIdsToNotify: [], displayPictureUri: null },
  });
  assertType<Equal<typeof au.data, Message | undefined>>();
  // @ts-expect-error orgId cannot change
  ({ note: 'x', orgId: 'o2' }) satisfies Body<'/asset-resources/{resourceId}', 'put'>;
  // @ts-expect-error userIdsToNotify cannot be cleared
  await client.PUT('/asset-resources/{resourceId}', { params: { path: { resourceId: 'a1' } }, body: { userIdsToNotify: null } });

  // 7. GET /all-resources[?orgId=] -> 200 { employees, assets }, both with orgId
  const all = await client.GET('/all-resources');
  const filtered = await client.GET('/all-resources', { params: { query: { orgId: 'org-1' } } });
  type All = { employees: Schemas['EmployeeResourceWithOrg'][]; assets: Schemas['AssetResource'][] };
  assertType<Equal<typeof all.data, All | undefined>>();
  assertType<Equal<typeof filtered.data, All | undefined>>();
  // @ts-expect-error the filter is called orgId
  await client.GET('/all-resources', { params: { query: { org: 'org-1' } } });

  // There is no delete operation.
  // @ts-expect-error
  await client.DELETE('/employee-resources/{resourceId}', { params: { path: { resourceId: 'e1' } } });
}
`;

// ---- run time: documented statuses and bodies -------------------------------------------------

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  format?: string;
};

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Where `value` breaks `schema` (empty when it conforms). Covers the JSON Schema keywords openapi.json
 * uses for response bodies; string lengths and patterns are the server's input rules, not checked here.
 */
function problems(schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return problems(openapi.components.schemas[name], value, at);
  }
  if (schema.anyOf) return schema.anyOf.some((s) => problems(s, value, at).length === 0) ? [] : [`${at}: matches no anyOf branch`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  const types = [schema.type ?? []].flat();
  if (types.length && !types.includes(typeOf(value))) return [`${at}: expected ${types.join(' | ')}, got ${typeOf(value)}`];
  if (schema.format === 'date-time' && typeof value === 'string' && Number.isNaN(Date.parse(value))) return [`${at}: not a date-time`];
  if (Array.isArray(value) && schema.items) return value.flatMap((item, i) => problems(schema.items!, item, `${at}[${i}]`));
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = schema.properties ?? {};
    return [
      ...(schema.required ?? []).filter((key) => !(key in object)).map((key) => `${at}.${key}: missing`),
      ...Object.entries(object).flatMap(([key, v]) =>
        properties[key]
          ? problems(properties[key], v, `${at}.${key}`)
          : schema.additionalProperties === false
            ? [`${at}.${key}: not documented`]
            : [],
      ),
    ];
  }
  return [];
}

/** An openapi-fetch result, as the untyped runtime client returns it. */
type Result = { data?: any; error?: any; response: Response };
type Init = { params?: { path?: Record<string, string>; query?: Record<string, string> }; body?: unknown };
/** openapi-fetch without path types (those are checked at compile time above, in usage.ts). */
type UntypedClient = Record<'GET' | 'POST' | 'PUT', (path: string, init?: Init) => Promise<Result>>;

/** The third party's client: openapi-fetch, with an organization's API key (or none). */
const openapiFetch = (apiKey?: string) =>
  createClient({ baseUrl: server.url, headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} }) as unknown as UntypedClient;

/** Asserts the answer is documented for the operation (status and body); returns its body. */
function expectDocumented(method: string, path: string, { data, error, response }: Result, status: number): any {
  const where = `${method} ${path}`;
  expect(response.status, `${where}: status`).toBe(status);
  const documented = openapi.paths[path][method.toLowerCase()].responses[String(status)];
  expect(documented, `${where} answered ${status}, which openapi.json does not document`).toBeDefined();
  const body = response.ok ? data : error;
  const schema = documented.content?.['application/json']?.schema;
  expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(problems(schema, body), `${where} ${status}: body ${JSON.stringify(body)}`).toEqual([]);
  return body;
}

let server: TestServer;
let orgId: string;
let client: UntypedClient;

beforeAll(async () => {
  await generateTypes();
  writeFileSync(usageFile, CONTRACT);
  server = await startTestServer();
  const org = await createOrganization(server);
  orgId = org.orgId;
  client = openapiFetch(org.apiKey);
});
afterAll(() => server?.destroy());

describe('types generated from openapi.json (openapi-typescript)', () => {
  it('declare every operation and the schemas the contract names', () => {
    const types = readFileSync(typesFile, 'utf8');
    for (const path of ['/employee-resources', '/employee-resources/{resourceId}', '/asset-resources', '/asset-resources/{resourceId}', '/all-resources']) {
      expect(types).toContain(`"${path}": {`);
    }
    for (const schema of ['EmployeeResourceWithOrg', 'EmployeeResource', 'AssetResource', 'ResourceError']) {
      expect(types).toMatch(new RegExp(`\\b${schema}: \\{`));
    }
  });

  it('type-check a typed openapi-fetch client of every endpoint against the documented contract (no diagnostics)', () => {
    expect(typeCheck(usageFile)).toBe('');
  }, 60_000);

  it('are really checked: a call the schema forbids is reported', () => {
    // An employee without its required email: the check above would have let this through if the types were loose.
    const broken = join(generatedDir, 'usage-broken.ts');
    writeFileSync(
      broken,
      `import createClient from 'openapi-fetch';\nimport type { paths } from './resources-api.d.ts';\n` +
        `await createClient<paths>().POST('/employee-resources', { body: { resourceId: 'e1', resourceName: 'Ada', timezone: 'UTC', createdAt: '2026-01-15T09:30:00.000Z', isActive: true, userId: 'u1' } });\n`,
    );
    expect(typeCheck(broken)).toMatch(/usage-broken\.ts\(3,\d+\): error TS\d+: .*'email' is missing/s);
  }, 60_000);
});

describe('a third-party client (openapi-fetch) against the real server', () => {
  describe('employee resources', () => {
    it('POST /employee-resources answers 201 with the employee and its orgId', async () => {
      const input = employee({ phone: '+44 20 7946 0958', calendarSync: 'Apple', onboardingPreference: 'SET_USERNAME_PASSWORD', role: 'Engineer' });
      const body = expectDocumented('POST', '/employee-resources', await client.POST('/employee-resources', { body: input }), 201);
      expect(body).toEqual({ ...input, orgId });
    });

    it('POST /employee-resources answers 400 { message, error } for an invalid body', async () => {
      const result = await client.POST('/employee-resources', { body: employee({ email: 'not-an-email' }) });
      const body = expectDocumented('POST', '/employee-resources', result, 400);
      expect(body).toEqual({ message: 'Error creating employee resource', error: expect.stringContaining('email:') });
    });

    it('POST /employee-resources answers 409 { message, error } for a duplicate resourceId', async () => {
      const input = employee();
      expectDocumented('POST', '/employee-resources', await client.POST('/employee-resources', { body: input }), 201);
      const body = expectDocumented('POST', '/employee-resources', await client.POST('/employee-resources', { body: input }), 409);
      expect(body).toEqual({ message: 'Error creating employee resource', error: expect.stringContaining(input.resourceId) });
    });

    it('GET /employee-resources answers 200 with the employees, without orgId', async () => {
      const input = employee();
      await client.POST('/employee-resources', { body: input });
      const body = expectDocumented('GET', '/employee-resources', await client.GET('/employee-resources'), 200);
      expect(body).toContainEqual(input);
      for (const item of body) expect(item).not.toHaveProperty('orgId');
    });

    it('PUT /employee-resources/{resourceId} answers 200 { message } and the change is listed', async () => {
      const input = employee({ note: 'old', role: 'Engineer' });
      await client.POST('/employee-resources', { body: input });
      const result = await client.PUT('/employee-resources/{resourceId}', {
        params: { path: { resourceId: input.resourceId } },
        body: { resourceName: 'Ada King', note: null, calendarSync: 'Outlook' },
      });
      expect(expectDocumented('PUT', '/employee-resources/{resourceId}', result, 200)).toEqual({ message: expect.any(String) });
      const { data } = await client.GET('/employee-resources');
      const { note: _cleared, ...rest } = input;
      expect(data.find((e: any) => e.resourceId === input.resourceId)).toEqual({ ...rest, resourceName: 'Ada King', calendarSync: 'Outlook' });
    });

    it('PUT /employee-resources/{resourceId} answers 404 { message, error } for an unknown id', async () => {
      const result = await client.PUT('/employee-resources/{resourceId}', { params: { path: { resourceId: 'no-such-employee' } }, body: { note: 'x' } });
      const body = expectDocumented('PUT', '/employee-resources/{resourceId}', result, 404);
      expect(body).toEqual({ message: 'Error updating employee resource', error: expect.stringContaining('no-such-employee') });
    });

    it('PUT /employee-resources/{resourceId} answers 400 { message, error } for a body the schema forbids', async () => {
      const input = employee();
      await client.POST('/employee-resources', { body: input });
      const result = await client.PUT('/employee-resources/{resourceId}', { params: { path: { resourceId: input.resourceId } }, body: { userId: 'u2' } });
      const body = expectDocumented('PUT', '/employee-resources/{resourceId}', result, 400);
      expect(body).toEqual({ message: 'Error updating employee resource', error: expect.stringContaining('userId') });
    });
  });

  describe('asset resources', () => {
    it('POST /asset-resources answers 201 { message }', async () => {
      const body = expectDocumented('POST', '/asset-resources', await client.POST('/asset-resources', { body: asset() }), 201);
      expect(body).toEqual({ message: expect.any(String) });
    });

    it('POST /asset-resources answers 400 and 409 { message, error }', async () => {
      const invalid = await client.POST('/asset-resources', { body: asset({ userIdsToNotify: 'user-1' as never }) });
      expect(expectDocumented('POST', '/asset-resources', invalid, 400)).toEqual({
        message: 'Error creating asset resource',
        error: expect.stringContaining('userIdsToNotify:'),
      });
      const input = asset();
      await client.POST('/asset-resources', { body: input });
      const duplicate = await client.POST('/asset-resources', { body: input });
      expect(expectDocumented('POST', '/asset-resources', duplicate, 409)).toEqual({ message: 'Error creating asset resource', error: expect.any(String) });
    });

    it('GET /asset-resources answers 200 with the assets, with orgId', async () => {
      const input = asset({ note: 'second floor', notificationsEnabled: true });
      await client.POST('/asset-resources', { body: input });
      const body = expectDocumented('GET', '/asset-resources', await client.GET('/asset-resources'), 200);
      expect(body).toContainEqual({ ...input, orgId });
      for (const item of body) expect(item.orgId).toBe(orgId);
    });

    it('PUT /asset-resources/{resourceId} answers 200 { message } and the change is listed', async () => {
      const input = asset({ displayPictureUri: 'https://cdn.example.com/room.png' });
      await client.POST('/asset-resources', { body: input });
      const result = await client.PUT('/asset-resources/{resourceId}', {
        params: { path: { resourceId: input.resourceId } },
        body: { assetType: 'desk', userIdsToNotify: ['user-9'], displayPictureUri: null },
      });
      expect(expectDocumented('PUT', '/asset-resources/{resourceId}', result, 200)).toEqual({ message: expect.any(String) });
      const { data } = await client.GET('/asset-resources');
      const { displayPictureUri: _cleared, ...rest } = input;
      expect(data.find((a: any) => a.resourceId === input.resourceId)).toEqual({ ...rest, orgId, assetType: 'desk', userIdsToNotify: ['user-9'] });
    });

    it('PUT /asset-resources/{resourceId} answers 404 { message, error } for an unknown id', async () => {
      const result = await client.PUT('/asset-resources/{resourceId}', { params: { path: { resourceId: 'no-such-asset' } }, body: { note: 'x' } });
      const body = expectDocumented('PUT', '/asset-resources/{resourceId}', result, 404);
      expect(body).toEqual({ message: 'Error updating asset resource', error: expect.stringContaining('no-such-asset') });
    });
  });

  describe('all resources', () => {
    it('GET /all-resources answers 200 { employees, assets }, both with orgId', async () => {
      const [e, a] = [employee(), asset()];
      await client.POST('/employee-resources', { body: e });
      await client.POST('/asset-resources', { body: a });
      const body = expectDocumented('GET', '/all-resources', await client.GET('/all-resources'), 200);
      expect(body.employees).toContainEqual({ ...e, orgId });
      expect(body.assets).toContainEqual({ ...a, orgId });
      expect(body.employees).toEqual((await client.GET('/employee-resources')).data.map((item: object) => ({ orgId, ...item })));
      expect(body.assets).toEqual((await client.GET('/asset-resources')).data);
    });

    it('GET /all-resources?orgId= narrows to one organization; another organization is never listed', async () => {
      const other = await createOrganization(server, 'Other org');
      const otherClient = openapiFetch(other.apiKey);
      const theirs = employee();
      expectDocumented('POST', '/employee-resources', await otherClient.POST('/employee-resources', { body: theirs }), 201);

      const unfiltered = expectDocumented('GET', '/all-resources', await client.GET('/all-resources'), 200);
      const own = expectDocumented('GET', '/all-resources', await client.GET('/all-resources', { params: { query: { orgId } } }), 200);
      expect(own).toEqual(unfiltered);
      expect(own.employees.map((e: any) => e.resourceId)).not.toContain(theirs.resourceId);

      const foreign = await client.GET('/all-resources', { params: { query: { orgId: other.orgId } } });
      expect(expectDocumented('GET', '/all-resources', foreign, 200)).toEqual({ employees: [], assets: [] });

      const theirView = await otherClient.GET('/all-resources', { params: { query: { orgId: other.orgId } } });
      expect(expectDocumented('GET', '/all-resources', theirView, 200)).toEqual({ employees: [{ ...theirs, orgId: other.orgId }], assets: [] });
    });

    it('GET /all-resources answers 400 { message, error } for an invalid orgId filter', async () => {
      const result = await client.GET('/all-resources', { params: { query: { orgId: 'x'.repeat(129) } } });
      const body = expectDocumented('GET', '/all-resources', result, 400);
      expect(body).toEqual({ message: 'Error fetching all resources', error: expect.stringContaining('orgId') });
    });
  });

  it('every endpoint answers the documented 401 { message, error } without an API key', async () => {
    const anonymous = openapiFetch();
    const byId = { params: { path: { resourceId: 'any-id' } }, body: { note: 'x' } };
    const calls: [string, string, Promise<Result>][] = [
      ['POST', '/employee-resources', anonymous.POST('/employee-resources', { body: employee() })],
      ['GET', '/employee-resources', anonymous.GET('/employee-resources')],
      ['PUT', '/employee-resources/{resourceId}', anonymous.PUT('/employee-resources/{resourceId}', byId)],
      ['POST', '/asset-resources', anonymous.POST('/asset-resources', { body: asset() })],
      ['GET', '/asset-resources', anonymous.GET('/asset-resources')],
      ['PUT', '/asset-resources/{resourceId}', anonymous.PUT('/asset-resources/{resourceId}', byId)],
      ['GET', '/all-resources', anonymous.GET('/all-resources', { params: { query: { orgId } } })],
    ];
    for (const [method, path, call] of calls) {
      expect(expectDocumented(method, path, await call, 401)).toEqual({ message: expect.any(String), error: expect.any(String) });
    }
  });
});
