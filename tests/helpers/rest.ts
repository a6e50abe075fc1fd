import type { EmployeeCreateInput, AssetCreateInput } from '../../client-sdk/index.ts';

export interface RestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Plain REST calls as any HTTP client makes them. `apiKey: null` sends no Authorization header. */
export function restClient(baseUrl: string, apiKey: string | null) {
  return async function rest<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RestResponse<T>> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
}

export type Rest = ReturnType<typeof restClient>;

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** A valid employee with only the required fields. */
export const employee = (overrides: Partial<EmployeeCreateInput> = {}): EmployeeCreateInput => ({
  resourceId: nextId('emp'),
  resourceName: 'Ada Lovelace',
  timezone: 'Europe/London',
  createdAt: '2026-01-15T09:30:00.000Z',
  isActive: true,
  userId: nextId('user'),
  email: 'ada@example.com',
  ...overrides,
});

/** A valid asset with only the required fields. */
export const asset = (overrides: Partial<AssetCreateInput> = {}): AssetCreateInput => ({
  resourceId: nextId('asset'),
  resourceName: 'Meeting room 1',
  timezone: 'UTC',
  createdAt: '2026-01-15T09:30:00.000Z',
  isActive: true,
  assetType: 'room',
  userIdsToNotify: ['user-1', 'user-2'],
  ...overrides,
});

/** Every optional employee field, set. */
export const fullEmployee = (overrides: Partial<EmployeeCreateInput> = {}): EmployeeCreateInput =>
  employee({
    displayPictureUri: 'https://cdn.example.com/ada.png',
    notificationsEnabled: false,
    note: 'Prefers mornings',
    phone: '+44 20 7946 0958',
    onboardingPreference: 'SEND_EMAIL_INVITE',
    calendarSync: 'GCal',
    role: 'Engineer',
    ...overrides,
  });
