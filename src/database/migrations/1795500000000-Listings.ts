import { MigrationInterface, QueryRunner } from 'typeorm';

export class Listings1795500000000 implements MigrationInterface {
  name = 'Listings1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "listings" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "network" text NOT NULL, "parent_name" text NOT NULL, "price" numeric(78,0) NOT NULL, "length_prices" jsonb NOT NULL, "fee" numeric(78,0) NOT NULL, "payment_receiver" text NOT NULL, "expirable" boolean NOT NULL, "fuses" bigint NOT NULL, "reserved_labels" text array NOT NULL, "active" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_listings_network" CHECK ("network" IN ('mainnet', 'testnet')), CONSTRAINT "CHK_listings_fuses" CHECK ("fuses" >= 0 AND "fuses" <= 4294967295), CONSTRAINT "PK_listings" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_listings_network_parent" ON "listings" ("network", "parent_name") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_listings_network_parent"`);
    await queryRunner.query(`DROP TABLE "listings"`);
  }
}
