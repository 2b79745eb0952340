import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `sns_refuse(reason)` raises SQLSTATE SNS01 with that message: how one statement that wrote rows undoes them
 * all when a condition it computed fails (a creation charged in the statement that makes it, when the quota has
 * no room: SubnamesRepository.write).
 */
export class StatementRefusal1795700000000 implements MigrationInterface {
  name = 'StatementRefusal1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "sns_refuse"(reason text) RETURNS integer LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION USING ERRCODE = 'SNS01', MESSAGE = reason;
      END
      $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "sns_refuse"(text)`);
  }
}
