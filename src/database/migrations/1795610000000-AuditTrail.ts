import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditTrail1795610000000 implements MigrationInterface {
  name = 'AuditTrail1795610000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_events" ("id" BIGSERIAL NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "actor" text NOT NULL, "request_id" text NOT NULL, "action" text NOT NULL, "subject" text NOT NULL, "before" jsonb, "after" jsonb, CONSTRAINT "PK_audit_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_audit_events_subject_at" ON "audit_events" ("subject", "at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_audit_events_actor_at" ON "audit_events" ("actor", "at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_audit_events_at" ON "audit_events" ("at", "id") `);
    // Append-only for every role the service may run as (PGlite included): rows can be added, never changed.
    await queryRunner.query(
      `CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_audit_events_append_only" ON "audit_events"`);
    await queryRunner.query(`DROP FUNCTION "audit_events_append_only"()`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_events_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_events_actor_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_events_subject_at"`);
    await queryRunner.query(`DROP TABLE "audit_events"`);
  }
}
