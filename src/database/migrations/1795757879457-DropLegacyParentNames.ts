import { MigrationInterface, QueryRunner } from 'typeorm';

/** No release predates the normalised length rule: the legacy parents' table and its partial index go. */
export class DropLegacyParentNames1795757879457 implements MigrationInterface {
  name = 'DropLegacyParentNames1795757879457';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "public"."IDX_subnames_parent_name_length_outliers"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "legacy_parent_names"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "legacy_parent_names" ("name" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_legacy_parent_names" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subnames_parent_name_length_outliers" ON "subnames" ("parent_name") WHERE char_length("parent_name") < 7 OR char_length("parent_name") > 127`,
    );
  }
}
