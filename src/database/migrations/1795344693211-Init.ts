import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795344693211 implements MigrationInterface {
  name = 'Init1795344693211';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "key_prefix" text NOT NULL, "key_hash" character(64) NOT NULL, "parent_names" text array NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "api_keys" ("key_hash") `);
    await queryRunner.query(
      `CREATE TABLE "key_quotas" ("api_key_id" uuid NOT NULL, "quota_limit" integer NOT NULL, "used" integer NOT NULL DEFAULT '0', CONSTRAINT "CHK_key_quotas_used" CHECK ("used" >= 0), CONSTRAINT "PK_70b30666c41b4bd4347c88ec7f7" PRIMARY KEY ("api_key_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "subnames" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "full_name" text NOT NULL, "parent_name" text NOT NULL, "label" text NOT NULL, "namehash" character(66) NOT NULL, "texts" jsonb NOT NULL DEFAULT '{}'::jsonb, "addresses" jsonb NOT NULL DEFAULT '{}'::jsonb, "metadata" jsonb NOT NULL DEFAULT '{}'::jsonb, "contenthash" text, "owner" text, "ttl" bigint, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_379cf4fd50ffe340b032b41707f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_subnames_full_name" ON "subnames" ("full_name") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_subnames_parent_created" ON "subnames" ("parent_name", "created_at", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "key_quotas" ADD CONSTRAINT "FK_key_quotas_api_key" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "key_quotas" DROP CONSTRAINT "FK_key_quotas_api_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_subnames_parent_created"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_subnames_full_name"`);
    await queryRunner.query(`DROP TABLE "subnames"`);
    await queryRunner.query(`DROP TABLE "key_quotas"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_api_keys_key_hash"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}
