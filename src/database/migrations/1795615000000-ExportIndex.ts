import { MigrationInterface, QueryRunner } from 'typeorm';

/** The name this migration had while it shared AuditTrail's timestamp; databases of that time record it so. */
const FORMER_NAME = 'ExportIndex1795610000000';

/**
 * GET /subnames/export reads every name under a parent at any depth: full names ending in `.oak.eth`. Reversed,
 * those are the names starting with `hte.kao.`, one range of this index in byte order (COLLATE "C"), which is
 * also the export's keyset order. Declared on SubnameEntity with synchronize: false (an expression index).
 *
 * A database that ran it under its former name runs it again under this one: the index is then there already,
 * and the former row is removed, so the migrations table names each applied migration once.
 */
export class ExportIndex1795615000000 implements MigrationInterface {
  name = 'ExportIndex1795615000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "IDX_subnames_full_name_reversed" ON "subnames" ((reverse("full_name")) COLLATE "C")`,
    );
    await queryRunner.query(`DELETE FROM "migrations" WHERE "name" = $1`, [FORMER_NAME]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_subnames_full_name_reversed"`);
  }
}
