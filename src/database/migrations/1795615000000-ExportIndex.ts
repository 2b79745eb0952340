import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /subnames/export reads every name under a parent at any depth: full names ending in `.oak.eth`. Reversed,
 * those are the names starting with `hte.kao.`, one range of this index in byte order (COLLATE "C"), which is
 * also the export's keyset order. Declared on SubnameEntity with synchronize: false (an expression index).
 */
export class ExportIndex1795610000000 implements MigrationInterface {
  name = 'ExportIndex1795610000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_subnames_full_name_reversed" ON "subnames" ((reverse("full_name")) COLLATE "C")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_subnames_full_name_reversed"`);
  }
}
