import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What holders may do under a parent (its policy, set by a key that covers it and charged to that key), and how
 * many names each address has claimed under each parent, ever (so that a transfer or delete never frees a claim).
 */
export class HolderPolicies1795761694934 implements MigrationInterface {
  name = 'HolderPolicies1795761694934';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "holder_policies" ("parent_name" text NOT NULL, "claims" text NOT NULL, "allowlist" jsonb NOT NULL DEFAULT '[]'::jsonb, "claims_per_address" integer NOT NULL, "labels" jsonb NOT NULL, "holder_records" jsonb NOT NULL, "transfers" boolean NOT NULL, "deletes" boolean NOT NULL, "charged_key_id" uuid NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_holder_policies" PRIMARY KEY ("parent_name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "holder_claims" ("parent_name" text NOT NULL, "address" text NOT NULL, "claims" integer NOT NULL, CONSTRAINT "PK_holder_claims" PRIMARY KEY ("parent_name", "address"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "holder_claims"`);
    await queryRunner.query(`DROP TABLE "holder_policies"`);
  }
}
