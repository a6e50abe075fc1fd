/** The seven endpoints of the resource management API (docs/resource-management.md), with the action each names in its errors. */
export const ENDPOINTS = [
  { method: 'POST', path: '/employee-resources', action: 'creating employee resource', body: true },
  { method: 'POST', path: '/asset-resources', action: 'creating asset resource', body: true },
  { method: 'GET', path: '/employee-resources', action: 'fetching employee resources', body: false },
  { method: 'GET', path: '/asset-resources', action: 'fetching asset resources', body: false },
  { method: 'PUT', path: '/employee-resources/{id}', action: 'updating employee resource', body: true },
  { method: 'PUT', path: '/asset-resources/{id}', action: 'updating asset resource', body: true },
  { method: 'GET', path: '/all-resources', action: 'fetching all resources', body: false },
] as const;

export type Endpoint = (typeof ENDPOINTS)[number];
