import type { Database } from '../db/orm.ts';
import { OrganizationService } from './organizations.ts';
import { ResourceService } from './resources.ts';

/** The domain services, built once per server and shared by every request. */
export interface Services {
  organizations: OrganizationService;
  resources: ResourceService;
}

export function createServices(db: Database): Services {
  return {
    organizations: new OrganizationService(db),
    resources: new ResourceService(db),
  };
}
