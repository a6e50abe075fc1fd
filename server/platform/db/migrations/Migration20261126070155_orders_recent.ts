import { Migration } from '@mikro-orm/migrations';

export class Migration20261126070155_orders_recent extends Migration {

  override name = 'Migration20261126070155_orders_recent';

  override up(): void | Promise<void> {
    this.addSql(`drop index "orders_client_wallet_created_at_index";`);
    this.addSql(`create index "orders_client_recent_index" on "orders" ("client_wallet", "created_at" desc, "id") include ("status");`);
    this.addSql(`create index "orders_agent_recent_index" on "orders" ("agent_id", "created_at" desc, "id") include ("status", "client_wallet");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "orders_client_recent_index";`);
    this.addSql(`drop index "orders_agent_recent_index";`);
    this.addSql(`create index "orders_client_wallet_created_at_index" on "orders" ("client_wallet", "created_at");`);
  }

}
