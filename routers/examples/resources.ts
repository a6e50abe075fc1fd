/**
 * Example inputs and answers of the resource API's operations (openapi.json shows them; the input's body part as
 * the request example). tests/platform/openapi-document.test.ts checks each against the procedure's zod schemas.
 */
const createdAt = '2026-01-15T09:30:00.000Z';

const employee = {
  resourceId: 'emp-1001',
  resourceName: 'Ada Lovelace',
  timezone: 'Europe/London',
  createdAt,
  isActive: true,
  userId: 'user-42',
  email: 'ada@example.com',
  phone: '+44 20 7946 0958',
  onboardingPreference: 'SEND_EMAIL_INVITE',
  calendarSync: 'GCal',
  role: 'Engineer',
};
const assetInput = {
  resourceId: 'room-4',
  resourceName: 'Meeting room 4',
  timezone: 'Europe/London',
  createdAt,
  isActive: true,
  assetType: 'Room',
  userIdsToNotify: ['user-42'],
};
const asset = { orgId: 'org-acme', ...assetInput };

export const resourceExamples = {
  employeesCreate: { request: employee, response: { orgId: 'org-acme', ...employee } },
  employeesList: { response: [employee] },
  employeesUpdate: { request: { resourceId: 'emp-1001', role: 'Staff engineer', phone: null }, response: { message: 'Employee resource updated' } },
  assetsCreate: { request: assetInput, response: { message: 'Asset resource created' } },
  assetsList: { response: [asset] },
  assetsUpdate: { request: { resourceId: 'room-4', isActive: false }, response: { message: 'Asset resource updated' } },
  all: { response: { employees: [{ orgId: 'org-acme', ...employee }], assets: [asset] } },
};
