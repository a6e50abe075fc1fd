import {
  IsolationLevel,
  UniqueConstraintViolationException,
  type EntityName,
  type FilterQuery,
  type RequiredEntityData,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from '../platform/db/orm.ts';
import { AssetResource, EmployeeResource } from './entities.ts';
import { conflict, notFound } from '../platform/errors.ts';
import type {
  AllResources,
  Asset,
  AssetCreate,
  AssetPatch,
  Employee,
  EmployeeCreate,
  EmployeePatch,
  EmployeeWithOrg,
} from './schemas.ts';

/** What the listing and update helpers need of either kind. */
type Resource = { seq: number; organization: string; resourceId: string };
const EMPLOYEES = EmployeeResource as EntityName<Resource>;
const ASSETS = AssetResource as EntityName<Resource>;

/** Internal columns that are not part of a resource as clients see it. */
const INTERNAL = new Set(['seq', 'organization']);

/** How one listed property is read from a raw row: its column, and whether it is a timestamp. */
type ColumnReader = { property: string; column: string; timestamp: boolean };
type Listing = { sql: string; readers: ColumnReader[] };

/**
 * Listings are the hot path (the whole organization per call), so rows skip the ORM's result mapping:
 * raw rows are read through the columns the entity metadata names. Never-set optional fields are absent.
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
  readonly #listings = new Map<EntityName<Resource>, Listing>();

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
    return this.#list<Employee>(this.#db.em(), EMPLOYEES, orgId);
  }

  async listAssets(orgId: string): Promise<Asset[]> {
    return this.#listAssets(this.#db.em(), orgId);
  }

  /**
   * Both kinds with `orgId`, read in one repeatable-read transaction so they show one moment.
   * `filterOrgId` narrows the listing; a key never sees another organization.
   */
  async listAll(orgId: string, filterOrgId?: string): Promise<AllResources> {
    if (filterOrgId !== undefined && filterOrgId !== orgId) return { employees: [], assets: [] };
    return this.#db.em().transactional(
      async (em) => {
        const employees = await this.#list<Employee>(em, EMPLOYEES, orgId);
        return { employees: employees.map((e) => ({ orgId, ...e })), assets: await this.#listAssets(em, orgId) };
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
  }

  async updateEmployee(orgId: string, resourceId: string, patch: EmployeePatch): Promise<void> {
    await this.#update(EMPLOYEES, 'Employee', orgId, resourceId, patch);
  }

  async updateAsset(orgId: string, resourceId: string, patch: AssetPatch): Promise<void> {
    await this.#update(ASSETS, 'Asset', orgId, resourceId, patch);
  }

  /** A single INSERT (no unit of work to flush); the unique index turns a duplicate resourceId into 409. */
  async #insert<T extends object>(entity: EntityName<T>, kind: string, row: RequiredEntityData<T> & { resourceId: string }) {
    try {
      await this.#db.em().insert(entity, row);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw conflict(`${kind} resource '${row.resourceId}' already exists in this organization`);
      }
      throw error;
    }
  }

  async #listAssets(em: EntityManager, orgId: string): Promise<Asset[]> {
    const rows = await this.#list<Omit<Asset, 'orgId'>>(em, ASSETS, orgId);
    return rows.map((row) => ({ orgId, ...row }));
  }

  async #list<T extends object>(em: EntityManager, entity: EntityName<Resource>, orgId: string): Promise<T[]> {
    const { sql, readers } = this.#listing(em, entity);
    const rows = await em.getConnection().execute<Record<string, unknown>[]>(sql, [orgId], 'all', em.getTransactionContext());
    return readRows<T>(rows, readers);
  }

  /** The listing query of a kind (built by the query builder once) and how to read its rows. */
  #listing(em: EntityManager, entity: EntityName<Resource>): Listing {
    let listing = this.#listings.get(entity);
    if (!listing) {
      const readers = Object.values(em.getMetadata().get(entity).properties)
        .filter((prop) => !INTERNAL.has(prop.name))
        .map((prop) => ({ property: prop.name, column: prop.fieldNames[0]!, timestamp: prop.runtimeType === 'Date' }));
      const sql = em
        .createQueryBuilder(entity)
        .select(readers.map((r) => r.property) as never)
        .where({ organization: '?' })
        .orderBy({ seq: 'asc' })
        .getQuery();
      listing = { sql, readers };
      this.#listings.set(entity, listing);
    }
    return listing;
  }

  /** One UPDATE ... WHERE org AND resourceId: atomic, and 0 rows touched means unknown resourceId. */
  async #update(entity: EntityName<Resource>, kind: string, orgId: string, resourceId: string, patch: object): Promise<void> {
    const em = this.#db.em();
    const where: FilterQuery<Resource> = { organization: orgId, resourceId };
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const touched = Object.keys(changes).length
      ? await em.nativeUpdate(entity, where, changes as never)
      : await em.count(entity, where);
    if (touched === 0) throw notFound(`${kind} resource '${resourceId}' not found`);
  }
}
