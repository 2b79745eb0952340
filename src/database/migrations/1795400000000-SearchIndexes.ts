import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for POST /subnames/search and GET /subnames at a million rows. Every search names its parents:
 * IDX_subnames_parent_created (parent_name, created_at, id) from Init gives the order of a page and an
 * index-only count; the indexes here serve the filters (see buildSearchQuery in the subnames repository).
 * Declared on SubnameEntity with synchronize: false, since TypeORM cannot express them.
 */
export class SearchIndexes1795400000000 implements MigrationInterface {
  name = 'SearchIndexes1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Trusted extension (PostgreSQL 13+): the database owner may create it; PGlite ships it.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    // labelSearch: label ILIKE '%fragment%'.
    await queryRunner.query(`CREATE INDEX "IDX_subnames_label_trgm" ON "subnames" USING gin ("label" gin_trgm_ops)`);
    // metadata, keyed by parent: jsonb_set(…) @> '{"oak.eth": {"k": "v"}}' is one lookup of parent + key + value.
    // (jsonb_set is immutable, unlike jsonb_build_object.)
    await queryRunner.query(
      `CREATE INDEX "IDX_subnames_parent_metadata" ON "subnames" USING gin ((jsonb_set('{}'::jsonb, ARRAY["parent_name"], "metadata")) jsonb_path_ops)`,
    );
    // owner (any letter case): lower(owner) = $1, then parent and page order, as for the parent index.
    await queryRunner.query(
      `CREATE INDEX "IDX_subnames_owner_parent_created" ON "subnames" (lower("owner"), "parent_name", "created_at", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_subnames_owner_parent_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_subnames_parent_metadata"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_subnames_label_trgm"`);
    // pg_trgm stays: other objects may have come to depend on it.
  }
}
