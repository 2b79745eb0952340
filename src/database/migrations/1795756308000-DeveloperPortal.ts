import { MigrationInterface, QueryRunner } from 'typeorm';

/** The developer portal: sign-in challenges, sessions, the names wallets proved, and who issued a key. */
export class DeveloperPortal1795756308000 implements MigrationInterface {
  name = 'DeveloperPortal1795756308000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "portal_challenges" ("nonce" text NOT NULL, "address" text NOT NULL, "message" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_portal_challenges" PRIMARY KEY ("nonce"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "portal_sessions" ("id_hash" character(64) NOT NULL, "address" text NOT NULL, "csrf_token" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_portal_sessions" PRIMARY KEY ("id_hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_portal_sessions_address" ON "portal_sessions" ("address") `);
    await queryRunner.query(
      `CREATE TABLE "portal_names" ("address" text NOT NULL, "name" text NOT NULL, "role" text NOT NULL, "wrapped" boolean NOT NULL, "checked_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_portal_names" PRIMARY KEY ("address", "name"))`,
    );
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "issued_by" text`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "suspended_reason" text`);
    await queryRunner.query(`CREATE INDEX "IDX_api_keys_issued_by" ON "api_keys" ("issued_by") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_api_keys_issued_by"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "suspended_reason"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "issued_by"`);
    await queryRunner.query(`DROP TABLE "portal_names"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_portal_sessions_address"`);
    await queryRunner.query(`DROP TABLE "portal_sessions"`);
    await queryRunner.query(`DROP TABLE "portal_challenges"`);
  }
}
