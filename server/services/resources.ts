import { UniqueConstraintViolationException, type EntityName, type FilterQuery, type RequiredEntityData } from '@mikro-orm/core';
import type { Database } from '../db/orm.ts';
import { AssetResource, EmployeeResource } from '../db/entities.ts';
import { conflict, notFound } from '../errors.ts';
import type {
  AllResources,
  Asset,
  AssetCreate,
  AssetPatch,
  Employee,
  EmployeeCreate,
  EmployeePatch,
  EmployeeWithOrg,
} from '../../routers/schemas/resources.ts';

/** What the listing and update helpers need of either kind. */
type Resource = { seq: number; organization: string; resourceId: string };

/** Columns read for listings; rows come back as plain objects (no entity hydration). */
const COMMON = ['resourceId', 'resourceName', 'timezone', 'createdAt', 'displayPictureUri', 'notificationsEnabled', 'isActive', 'note'] as const;
const EMPLOYEE_COLUMNS = [...COMMON, 'userId', 'email', 'phone', 'onboardingPreference', 'calendarSync', 'role'] as const;
const ASSET_COLUMNS = [...COMMON, 'assetType', 'userIdsToNotify'] as const;

/** How one listed property is read from a raw row: its column, and whether it is a timestamp. */
type ColumnReader = { property: string; column: string; timestamp: boolean };

/**
 * Listings are the hot path (the whole organization per call), so rows skip the ORM's result mapping:
 * raw rows are read through column names taken from the entity metadata, once.
 */
function readRows<T>(rows: Record<string, unknown>[], readers: readonly ColumnReader[]): T[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const { property, column, timestamp } of readers) {
      const value = row[column];
      if (value !== null && value !== undefined) out[property] = timestamp ? new Date(value as string | Date).toISOString() : value;
    }
    return out as T;
  });
}

/** Employee and asset resources of one organization. Every call is scoped by the caller's orgId. */
export class ResourceService {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The created resource is the validated input as stored: nothing else is generated. */
  async createEmployee(orgId: string, input: EmployeeCreate): Promise<EmployeeWithOrg> {
    const createdAt = new Date(input.createdAt);
    await this.#insert(EmployeeResource, 'Employee', { ...input, organization: orgId, createdAt });
    return { orgId, ...input, createdAt: createdAt.toISOString() };
  }

  async createAsset(orgId: string, input: AssetCreate): Promise<void> {
    await this.#insert(AssetResource, 'Asset', { ...input, organization: orgId, createdAt: new Date(input.createdAt) });
  }

  async listEmployees(orgId: string): Promise<Employee[]> {
    return this.#list<Employee>(EmployeeResource as EntityName<Resource>, EMPLOYEE_COLUMNS, orgId);
  }

  async listAssets(orgId: string): Promise<Asset[]> {
    const rows = await this.#list<Omit<Asset, 'orgId'>>(AssetResource as EntityName<Resource>, ASSET_COLUMNS, orgId);
    return rows.map((row) => ({ orgId, ...row }));
  }

  /** Both kinds with `orgId`. `filterOrgId` narrows the listing; a key never sees another organization. */
  async listAll(orgId: string, filterOrgId?: string): Promise<AllResources> {
    if (filterOrgId !== undefined && filterOrgId !== orgId) return { employees: [], assets: [] };
    const [employees, assets] = [await this.listEmployees(orgId), await this.listAssets(orgId)];
    return { employees: employees.map((e) => ({ orgId, ...e })), assets };
  }

  async updateEmployee(orgId: string, resourceId: string, patch: EmployeePatch): Promise<void> {
    await this.#update(EmployeeResource as EntityName<Resource>, 'Employee', orgId, resourceId, patch);
  }

  async updateAsset(orgId: string, resourceId: string, patch: AssetPatch): Promise<void> {
    await this.#update(AssetResource as EntityName<Resource>, 'Asset', orgId, resourceId, patch);
  }

  /** A single INSERT (no unit of work to flush); the unique index turns a duplicate resourceId into 409. */
  async #insert<T extends object>(entity: EntityName<T>, kind: string, row: RequiredEntityData<T> & { resourceId: string }): Promise<void> {
    try {
      await this.#db.em().insert(entity, row);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw conflict(`${kind} resource '${row.resourceId}' already exists in this organization`);
      }
      throw error;
    }
  }

  async #list<T extends object>(entity: EntityName<Resource>, properties: readonly string[], orgId: string) {
    const em = this.#db.em();
    const { sql, readers } = this.#listing(em, entity, properties);
    const rows = await em.getConnection().execute<Record<string, unknown>[]>(sql, [orgId]);
    return readRows<T>(rows, readers);
  }

  readonly #listings = new Map<EntityName<Resource>, { sql: string; readers: ColumnReader[] }>();

  /** The listing query (built by the query builder once) and how to read its rows. */
  #listing(em: ReturnType<Database['em']>, entity: EntityName<Resource>, properties: readonly string[]) {
    let listing = this.#listings.get(entity);
    if (!listing) {
      const meta = em.getMetadata().get(entity);
      const sql = em
        .createQueryBuilder(entity)
        .select(properties as never)
        .where({ organization: '?' })
        .orderBy({ seq: 'asc' })
        .getQuery();
      const readers = properties.map((property) => {
        const prop = meta.properties[property as keyof Resource];
        return { property, column: prop.fieldNames[0]!, timestamp: prop.runtimeType === 'Date' };
      });
      listing = { sql, readers };
      this.#listings.set(entity, listing);
    }
    return listing;
  }

  /** One UPDATE ... WHERE org AND resourceId: atomic, and 0 rows touched means unknown resourceId. */
  async #update(
    entity: EntityName<Resource>,
    kind: string,
    orgId: string,
    resourceId: string,
    patch: Record<string, unknown>,
  ): Promise<void> {
    const em = this.#db.em();
    const where: FilterQuery<Resource> = { organization: orgId, resourceId };
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const touched = Object.keys(changes).length
      ? await em.nativeUpdate(entity, where, changes as never)
      : await em.count(entity, where);
    if (touched === 0) throw notFound(`${kind} resource '${resourceId}' not found`);
  }
}
