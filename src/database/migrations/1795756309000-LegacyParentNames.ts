import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Parent names stored while length bounds held the raw input can be outside today's bounds (7–255 UTF-16 units
 * of the normalised form); the service records them at start-up in legacy_parent_names and accepts them back.
 * The partial index holds only the parents that could be such (fewer than 7 or more than 127 code points: a
 * UTF-16 length over 255 is over 127 code points), so finding them reads a few entries, not the table.
 * Declared on SubnameEntity with synchronize: false (a partial index).
 */
export class LegacyParentNames1795756309000 implements MigrationInterface {
  name = 'LegacyParentNames1795756309000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "legacy_parent_names" ("name" text NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_legacy_parent_names" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_subnames_parent_name_length_outliers" ON "subnames" ("parent_name") WHERE char_length("parent_name") < 7 OR char_length("parent_name") > 127`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_subnames_parent_name_length_outliers"`);
    await queryRunner.query(`DROP TABLE "legacy_parent_names"`);
  }
}
