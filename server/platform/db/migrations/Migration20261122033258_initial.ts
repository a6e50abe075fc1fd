import { Migration } from '@mikro-orm/migrations';

export class Migration20261122033258_initial extends Migration {

  override name = 'Migration20261122033258_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "organization" ("id" uuid not null, "name" varchar(200) not null, "created_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "employee_resource" ("seq" bigserial primary key, "organization_id" uuid not null, "resource_id" varchar(128) not null, "resource_name" varchar(256) not null, "timezone" varchar(64) not null, "created_at" timestamptz not null, "display_picture_uri" text null, "notifications_enabled" boolean null, "is_active" boolean not null, "note" text null, "user_id" varchar(128) not null, "email" varchar(320) not null, "phone" varchar(32) null, "onboarding_preference" text null, "calendar_sync" text null, "role" varchar(256) null);`);
    this.addSql(`alter table "employee_resource" add constraint "employee_resource_organization_id_resource_id_unique" unique ("organization_id", "resource_id");`);

    this.addSql(`create table "asset_resource" ("seq" bigserial primary key, "organization_id" uuid not null, "resource_id" varchar(128) not null, "resource_name" varchar(256) not null, "timezone" varchar(64) not null, "created_at" timestamptz not null, "display_picture_uri" text null, "notifications_enabled" boolean null, "is_active" boolean not null, "note" text null, "asset_type" varchar(256) not null, "user_ids_to_notify" jsonb not null);`);
    this.addSql(`alter table "asset_resource" add constraint "asset_resource_organization_id_resource_id_unique" unique ("organization_id", "resource_id");`);

    this.addSql(`create table "api_key" ("id" uuid not null, "organization_id" uuid not null, "key_hash" varchar(64) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "api_key_organization_id_index" on "api_key" ("organization_id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_key_hash_unique" unique ("key_hash");`);

    this.addSql(`alter table "employee_resource" add constraint "employee_resource_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`);
    this.addSql(`alter table "employee_resource" add constraint "employee_resource_onboarding_preference_check" check ("onboarding_preference" in ('SEND_EMAIL_INVITE', 'SET_USERNAME_PASSWORD'));`);
    this.addSql(`alter table "employee_resource" add constraint "employee_resource_calendar_sync_check" check ("calendar_sync" in ('GCal', 'Apple', 'Outlook', 'None'));`);

    this.addSql(`alter table "asset_resource" add constraint "asset_resource_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`);

    this.addSql(`alter table "api_key" add constraint "api_key_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "employee_resource" drop constraint "employee_resource_organization_id_foreign";`);
    this.addSql(`alter table "asset_resource" drop constraint "asset_resource_organization_id_foreign";`);
    this.addSql(`alter table "api_key" drop constraint "api_key_organization_id_foreign";`);

    this.addSql(`drop table if exists "organization" cascade;`);
    this.addSql(`drop table if exists "employee_resource" cascade;`);
    this.addSql(`drop table if exists "asset_resource" cascade;`);
    this.addSql(`drop table if exists "api_key" cascade;`);
  }

}
