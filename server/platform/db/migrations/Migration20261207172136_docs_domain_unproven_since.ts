import { Migration } from '@mikro-orm/migrations';

export class Migration20261207172136_docs_domain_unproven_since extends Migration {

  override name = 'Migration20261207172136_docs_domain_unproven_since';

  override up(): void | Promise<void> {
    this.addSql(`alter table "docs_domain" add "unproven_since" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "docs_domain" drop column "unproven_since";`);
  }

}
