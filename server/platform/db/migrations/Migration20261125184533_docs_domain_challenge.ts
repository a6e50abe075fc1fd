import { Migration } from '@mikro-orm/migrations';

export class Migration20261125184533_docs_domain_challenge extends Migration {

  override name = 'Migration20261125184533_docs_domain_challenge';

  override up(): void | Promise<void> {
    // Domains mapped before challenges existed get a token and must answer it like new ones before they serve again.
    this.addSql(`alter table "docs_domain" add "token" varchar(64) null, add "verified_at" timestamptz null, add "checked_at" timestamptz null;`);
    this.addSql(`update "docs_domain" set "token" = md5(random()::text || "hostname");`);
    this.addSql(`alter table "docs_domain" alter column "token" set not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "docs_domain" drop column "token", drop column "verified_at", drop column "checked_at";`);
  }

}
