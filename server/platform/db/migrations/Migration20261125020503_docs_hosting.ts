import { Migration } from '@mikro-orm/migrations';

export class Migration20261125020503_docs_hosting extends Migration {

  override name = 'Migration20261125020503_docs_hosting';

  override up(): void | Promise<void> {
    this.addSql(`create table "docs_blob" ("hash" varchar(64) not null, "data" bytea not null, "size" int not null, primary key ("hash"));`);

    this.addSql(`create table "docs_repository" ("id" uuid not null, "organization_id" uuid not null, "owner" varchar(64) not null, "name" varchar(100) not null, "slug" varchar(165) not null, "source" text not null, "default_branch" varchar(255) null, "webhook_secret" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "docs_repository_organization_id_index" on "docs_repository" ("organization_id");`);
    this.addSql(`alter table "docs_repository" add constraint "docs_repository_slug_unique" unique ("slug");`);

    this.addSql(`create table "docs_domain" ("hostname" varchar(253) not null, "repository_id" uuid not null, "created_at" timestamptz not null, primary key ("hostname"));`);
    this.addSql(`create index "docs_domain_repository_id_index" on "docs_domain" ("repository_id");`);

    this.addSql(`create table "docs_build" ("id" uuid not null, "repository_id" uuid not null, "commit" varchar(40) not null, "status" varchar(16) not null, "refs" jsonb not null, "problems" jsonb null, "error" text null, "pages" int null, "manifest" jsonb null, "progress" jsonb null, "attempts" int not null default 0, "lease_until" timestamptz null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "docs_build_status_lease_until_index" on "docs_build" ("status", "lease_until");`);
    this.addSql(`alter table "docs_build" add constraint "docs_build_repository_id_commit_unique" unique ("repository_id", "commit");`);

    this.addSql(`create table "docs_file" ("build_id" uuid not null, "path" varchar(1024) not null, "blob" varchar(64) not null, "size" int not null, primary key ("build_id", "path"));`);
    this.addSql(`create index "docs_file_blob_index" on "docs_file" ("blob");`);

    this.addSql(`create table "docs_deployment" ("repository_id" uuid not null, "ref" varchar(255) not null, "wanted_commit" varchar(40) not null, "build_id" uuid null, "updated_at" timestamptz not null, primary key ("repository_id", "ref"));`);

    this.addSql(`create table "docs_agent" ("id" uuid not null, "repository_id" uuid not null, "key_hash" varchar(64) not null, "provider" varchar(16) not null, "provider_key" text not null, "model" varchar(200) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "docs_agent_repository_id_index" on "docs_agent" ("repository_id");`);
    this.addSql(`alter table "docs_agent" add constraint "docs_agent_key_hash_unique" unique ("key_hash");`);

    this.addSql(`alter table "docs_repository" add constraint "docs_repository_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`);

    this.addSql(`alter table "docs_domain" add constraint "docs_domain_repository_id_foreign" foreign key ("repository_id") references "docs_repository" ("id") on delete cascade;`);

    this.addSql(`alter table "docs_build" add constraint "docs_build_repository_id_foreign" foreign key ("repository_id") references "docs_repository" ("id") on delete cascade;`);

    this.addSql(`alter table "docs_file" add constraint "docs_file_build_id_foreign" foreign key ("build_id") references "docs_build" ("id") on delete cascade;`);

    this.addSql(`alter table "docs_deployment" add constraint "docs_deployment_repository_id_foreign" foreign key ("repository_id") references "docs_repository" ("id") on delete cascade;`);
    this.addSql(`alter table "docs_deployment" add constraint "docs_deployment_build_id_foreign" foreign key ("build_id") references "docs_build" ("id") on delete set null;`);

    this.addSql(`alter table "docs_agent" add constraint "docs_agent_repository_id_foreign" foreign key ("repository_id") references "docs_repository" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "docs_domain" drop constraint "docs_domain_repository_id_foreign";`);
    this.addSql(`alter table "docs_build" drop constraint "docs_build_repository_id_foreign";`);
    this.addSql(`alter table "docs_deployment" drop constraint "docs_deployment_repository_id_foreign";`);
    this.addSql(`alter table "docs_agent" drop constraint "docs_agent_repository_id_foreign";`);
    this.addSql(`alter table "docs_file" drop constraint "docs_file_build_id_foreign";`);
    this.addSql(`alter table "docs_deployment" drop constraint "docs_deployment_build_id_foreign";`);

    this.addSql(`drop table if exists "docs_blob" cascade;`);
    this.addSql(`drop table if exists "docs_repository" cascade;`);
    this.addSql(`drop table if exists "docs_domain" cascade;`);
    this.addSql(`drop table if exists "docs_build" cascade;`);
    this.addSql(`drop table if exists "docs_file" cascade;`);
    this.addSql(`drop table if exists "docs_deployment" cascade;`);
    this.addSql(`drop table if exists "docs_agent" cascade;`);
  }

}
