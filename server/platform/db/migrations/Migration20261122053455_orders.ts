import { Migration } from '@mikro-orm/migrations';

export class Migration20261122053455_orders extends Migration {

  override name = 'Migration20261122053455_orders';

  override up(): void | Promise<void> {
    this.addSql(`create table "idempotency_record" ("key_hash" varchar(64) not null, "request_hash" varchar(64) not null, "outcome" jsonb null, "locked_until" timestamptz not null, "expires_at" timestamptz not null, primary key ("key_hash"));`);
    this.addSql(`create index "idempotency_record_expires_at_index" on "idempotency_record" ("expires_at");`);

    this.addSql(`create table "payment" ("tx_signature" varchar(100) not null, "order_id" uuid not null, "transaction" text not null, "amount_micro" bigint not null, "agent_amount_micro" bigint not null, "commission_amount_micro" bigint not null, "state" varchar(16) not null, "split_signature" varchar(100) null, "split_transaction" text null, "failure" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("tx_signature"));`);
    this.addSql(`create unique index "payment_live_order_unique" on "payment" ("order_id") where "state" <> 'FAILED';`);
    this.addSql(`create index "payment_state_updated_at_index" on "payment" ("state", "updated_at");`);

    this.addSql(`create table "provider_event" ("id" bigserial primary key, "wallet" varchar(44) not null, "event" varchar(32) not null, "data" jsonb not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "provider_event_wallet_id_index" on "provider_event" ("wallet", "id");`);
    this.addSql(`create index "provider_event_created_at_index" on "provider_event" ("created_at");`);

    this.addSql(`alter table "orders" add "split_signature" varchar(100) null, add "delivery_result" text null, add "delivery_message" text null, add "delivery_attachments" jsonb null;`);

    this.addSql(`alter table "payment" add constraint "payment_order_id_foreign" foreign key ("order_id") references "orders" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_record" cascade;`);
    this.addSql(`drop table if exists "payment" cascade;`);
    this.addSql(`drop table if exists "provider_event" cascade;`);

    this.addSql(`alter table "orders" drop column "split_signature", drop column "delivery_result", drop column "delivery_message", drop column "delivery_attachments";`);
  }

}
