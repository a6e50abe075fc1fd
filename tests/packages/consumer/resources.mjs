/* global process */
// The resource API with an organization's API key: create an employee resource, then list them.
import { createResourceClient } from '@typed-platform/client';

const api = createResourceClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const created = await api.employees.create({
  resourceId: 'emp-1',
  resourceName: 'Ada Lovelace',
  timezone: 'Europe/London',
  createdAt: new Date().toISOString(),
  isActive: true,
  userId: 'user-1',
  email: 'ada@example.com',
});
const employees = await api.employees.list();

process.stdout.write(JSON.stringify({ node: process.version, created, employees }));
