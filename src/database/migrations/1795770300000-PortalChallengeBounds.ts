import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in challenges remember the client address that asked (bounded per client as per address), and are counted
 * and purged through indexes instead of whole-table scans. Rows from before have no client and count for none.
 */
export class PortalChallengeBounds1795770300000 implements MigrationInterface {
  name = 'PortalChallengeBounds1795770300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "portal_challenges" ADD "client" text`);
    await queryRunner.query(`CREATE INDEX "IDX_portal_challenges_expires_at" ON "portal_challenges" ("expires_at") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_portal_challenges_address_expires_at" ON "portal_challenges" ("address", "expires_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_portal_challenges_client_expires_at" ON "portal_challenges" ("client", "expires_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_portal_challenges_client_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_portal_challenges_address_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_portal_challenges_expires_at"`);
    await queryRunner.query(`ALTER TABLE "portal_challenges" DROP COLUMN "client"`);
  }
}
