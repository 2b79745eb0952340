import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every committed change of a subname row notifies channel `subname_changes` with its full name (`*` for a
 * TRUNCATE), so that each replica drops what it cached of that name. A trigger rather than the write paths, so that
 * any writer (batch, import, a hand-run statement) is covered; NOTIFY is delivered at commit, never for a rollback.
 */
export class SubnameChangeNotifications1795600000000 implements MigrationInterface {
  name = 'SubnameChangeNotifications1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "subnames_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          PERFORM pg_notify('subname_changes', '*');
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM pg_notify('subname_changes', OLD.full_name);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.full_name IS DISTINCT FROM OLD.full_name) THEN
          PERFORM pg_notify('subname_changes', NEW.full_name);
        END IF;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "TR_subnames_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "subnames" FOR EACH ROW EXECUTE FUNCTION "subnames_notify_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TR_subnames_notify_truncate" AFTER TRUNCATE ON "subnames" FOR EACH STATEMENT EXECUTE FUNCTION "subnames_notify_change"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TR_subnames_notify_truncate" ON "subnames"`);
    await queryRunner.query(`DROP TRIGGER "TR_subnames_notify_change" ON "subnames"`);
    await queryRunner.query(`DROP FUNCTION "subnames_notify_change"()`);
  }
}
