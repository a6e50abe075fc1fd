import { Migration } from '@mikro-orm/migrations';

export class Migration20261125191617_docs_reader_builds extends Migration {

  override name = 'Migration20261125191617_docs_reader_builds';

  override up(): void | Promise<void> {
    this.addSql(`alter table "docs_repository" add "reader_builds" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "docs_repository" drop column "reader_builds";`);
  }

}
