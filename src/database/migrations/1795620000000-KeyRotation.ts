import { MigrationInterface, QueryRunner } from 'typeorm';

export class KeyRotation1795620000000 implements MigrationInterface {
  name = 'KeyRotation1795620000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "previous_key_hash" character(64)`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "previous_key_expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_api_keys_previous_key_hash" ON "api_keys" ("previous_key_hash") WHERE "previous_key_hash" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_api_keys_previous_key_hash"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "previous_key_expires_at"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "previous_key_hash"`);
  }
}
