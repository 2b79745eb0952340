import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The primary names addresses chose (ENSIP-19). Every committed change notifies channel `primary_name_changes`
 * with the address (`*` for a TRUNCATE), so that each replica drops what it cached of it, as
 * SubnameChangeNotifications does for subnames.
 */
export class PrimaryNames1795756307000 implements MigrationInterface {
  name = 'PrimaryNames1795756307000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "primary_names" ("address" text NOT NULL, "name" text, "issued_at" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_primary_names" PRIMARY KEY ("address"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_primary_names_name" ON "primary_names" ("name") `);
    await queryRunner.query(`
      CREATE FUNCTION "primary_names_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          PERFORM pg_notify('primary_name_changes', '*');
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM pg_notify('primary_name_changes', OLD.address);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.address IS DISTINCT FROM OLD.address) THEN
          PERFORM pg_notify('primary_name_changes', NEW.address);
        END IF;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "TR_primary_names_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "primary_names" FOR EACH ROW EXECUTE FUNCTION "primary_names_notify_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TR_primary_names_notify_truncate" AFTER TRUNCATE ON "primary_names" FOR EACH STATEMENT EXECUTE FUNCTION "primary_names_notify_change"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TR_primary_names_notify_truncate" ON "primary_names"`);
    await queryRunner.query(`DROP TRIGGER "TR_primary_names_notify_change" ON "primary_names"`);
    await queryRunner.query(`DROP FUNCTION "primary_names_notify_change"()`);
    await queryRunner.query(`DROP INDEX "public"."IDX_primary_names_name"`);
    await queryRunner.query(`DROP TABLE "primary_names"`);
  }
}
