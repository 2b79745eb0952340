import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every committed change of a listing notifies channel `listing_changes` with `network/parent_name` (`*` for a
 * TRUNCATE), so that each replica drops what it cached of that listing; as SubnameChangeNotifications does for
 * subnames, through a trigger so that any writer is covered.
 */
export class ListingChangeNotifications1795630000000 implements MigrationInterface {
  name = 'ListingChangeNotifications1795630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "listings_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          PERFORM pg_notify('listing_changes', '*');
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM pg_notify('listing_changes', OLD.network || '/' || OLD.parent_name);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (NEW.network, NEW.parent_name) IS DISTINCT FROM (OLD.network, OLD.parent_name)) THEN
          PERFORM pg_notify('listing_changes', NEW.network || '/' || NEW.parent_name);
        END IF;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "TR_listings_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "listings" FOR EACH ROW EXECUTE FUNCTION "listings_notify_change"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TR_listings_notify_truncate" AFTER TRUNCATE ON "listings" FOR EACH STATEMENT EXECUTE FUNCTION "listings_notify_change"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TR_listings_notify_truncate" ON "listings"`);
    await queryRunner.query(`DROP TRIGGER "TR_listings_notify_change" ON "listings"`);
    await queryRunner.query(`DROP FUNCTION "listings_notify_change"()`);
  }
}
