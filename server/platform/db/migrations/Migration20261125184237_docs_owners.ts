import { Migration } from '@mikro-orm/migrations';

export class Migration20261125184237_docs_owners extends Migration {

  override name = 'Migration20261125184237_docs_owners';

  override up(): void | Promise<void> {
    this.addSql(`create table "docs_owner" ("name" varchar(64) not null, "organization_id" uuid not null, "created_at" timestamptz not null, primary key ("name"));`);
    this.addSql(`create index "docs_owner_organization_id_index" on "docs_owner" ("organization_id");`);

    this.addSql(`alter table "docs_owner" add constraint "docs_owner_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`);
    // Owners already in use go to the organization that registered the first repository under them.
    this.addSql(`insert into "docs_owner" ("name", "organization_id", "created_at") select distinct on (lower("owner")) lower("owner"), "organization_id", "created_at" from "docs_repository" order by lower("owner"), "created_at", "id";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "docs_owner" cascade;`);
  }

}
