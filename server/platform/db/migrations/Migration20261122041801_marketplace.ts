import { Migration } from '@mikro-orm/migrations';

export class Migration20261122041801_marketplace extends Migration {

  override name = 'Migration20261122041801_marketplace';

  override up(): void | Promise<void> {
    // Trigram indexes for substring search (added by hand: the entity diff does not emit extensions).
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "agent" ("id" uuid not null, "wallet_address" varchar(44) not null, "name" varchar(100) not null, "tagline" varchar(200) not null, "description" text not null, "avatar_url" text null, "banner_url" text null, "categories" jsonb not null, "base_price_micro" bigint not null, "endpoint" text not null, "stake_amount_micro" bigint not null, "services" jsonb not null, "status" varchar(16) not null, "rating" numeric(6,4) not null default 0, "review_count" int not null default 0, "total_orders" int not null default 0, "completed_orders" int not null default 0, "response_minutes_sum" numeric(18,6) not null default 0, "response_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, "search_vector" tsvector generated always as (to_tsvector('english', name || ' ' || tagline || ' ' || description)) stored null, primary key ("id"));`);
    this.addSql(`alter table "agent" add constraint "agent_wallet_address_unique" unique ("wallet_address");`);
    this.addSql(`create index "agent_search_vector_index" on "agent" using gin ("search_vector");`);
    this.addSql(`create index "agent_search_text_index" on "agent" using gin ((name || ' ' || tagline || ' ' || description) gin_trgm_ops);`);
    this.addSql(`create index "agent_status_rating_completed_orders_index" on "agent" ("status", "rating", "completed_orders");`);

    this.addSql(`create table "conversation" ("id" uuid not null, "agent_id" uuid not null, "client_wallet" varchar(44) not null, "status" varchar(16) not null, "first_reply_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "conversation_agent_id_created_at_index" on "conversation" ("agent_id", "created_at");`);
    this.addSql(`create index "conversation_client_wallet_created_at_index" on "conversation" ("client_wallet", "created_at");`);

    this.addSql(`create table "message" ("seq" bigserial primary key, "id" uuid not null, "conversation_id" uuid not null, "sender_wallet" varchar(44) not null, "content" text not null, "message_type" varchar(16) not null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "message" add constraint "message_id_unique" unique ("id");`);
    this.addSql(`create index "message_conversation_id_created_at_index" on "message" ("conversation_id", "created_at");`);

    this.addSql(`create table "orders" ("id" uuid not null, "conversation_id" uuid not null, "agent_id" uuid not null, "client_wallet" varchar(44) not null, "description" text not null, "price_micro" bigint not null, "delivery_time" int not null, "status" varchar(16) not null, "commission_bps" int not null, "agent_amount_micro" bigint null, "commission_amount_micro" bigint null, "tx_signature" varchar(100) null, "paid_at" timestamptz null, "delivered_at" timestamptz null, "completed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "orders" add constraint "orders_tx_signature_unique" unique ("tx_signature");`);
    this.addSql(`create index "orders_agent_id_status_index" on "orders" ("agent_id", "status");`);
    this.addSql(`create index "orders_client_wallet_created_at_index" on "orders" ("client_wallet", "created_at");`);

    this.addSql(`create table "review" ("id" uuid not null, "order_id" uuid not null, "agent_id" uuid not null, "client_wallet" varchar(44) not null, "rating" int not null, "comment" text null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "review" add constraint "review_order_id_unique" unique ("order_id");`);
    this.addSql(`create index "review_agent_id_index" on "review" ("agent_id");`);

    this.addSql(`create table "used_signature" ("key_hash" varchar(64) not null, "expires_at" timestamptz not null, primary key ("key_hash"));`);
    this.addSql(`create index "used_signature_expires_at_index" on "used_signature" ("expires_at");`);

    this.addSql(`alter table "conversation" add constraint "conversation_agent_id_foreign" foreign key ("agent_id") references "agent" ("id");`);

    this.addSql(`alter table "message" add constraint "message_conversation_id_foreign" foreign key ("conversation_id") references "conversation" ("id");`);

    this.addSql(`alter table "orders" add constraint "orders_conversation_id_foreign" foreign key ("conversation_id") references "conversation" ("id");`);
    this.addSql(`alter table "orders" add constraint "orders_agent_id_foreign" foreign key ("agent_id") references "agent" ("id");`);

    this.addSql(`alter table "review" add constraint "review_order_id_foreign" foreign key ("order_id") references "orders" ("id");`);
    this.addSql(`alter table "review" add constraint "review_agent_id_foreign" foreign key ("agent_id") references "agent" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "conversation" drop constraint "conversation_agent_id_foreign";`);
    this.addSql(`alter table "orders" drop constraint "orders_agent_id_foreign";`);
    this.addSql(`alter table "review" drop constraint "review_agent_id_foreign";`);
    this.addSql(`alter table "message" drop constraint "message_conversation_id_foreign";`);
    this.addSql(`alter table "orders" drop constraint "orders_conversation_id_foreign";`);
    this.addSql(`alter table "review" drop constraint "review_order_id_foreign";`);

    this.addSql(`drop table if exists "agent" cascade;`);
    this.addSql(`drop table if exists "conversation" cascade;`);
    this.addSql(`drop table if exists "message" cascade;`);
    this.addSql(`drop table if exists "orders" cascade;`);
    this.addSql(`drop table if exists "review" cascade;`);
    this.addSql(`drop table if exists "used_signature" cascade;`);
  }

}
