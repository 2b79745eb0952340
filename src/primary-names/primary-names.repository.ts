import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A choice to store: the address (EIP-55), the name (null to clear) and the signature's issuedAt. */
export interface PrimaryNameWrite {
  address: string;
  name: string | null;
  issuedAt: number;
}

@Injectable()
export class PrimaryNamesRepository {
  /**
   * Stores the choice only when its issuedAt is later than the one stored, decided by the one statement (two racing
   * choices of one address cannot both pass with the same or an older issuedAt). Returns the name it replaced
   * (null: none), or undefined when the stored issuedAt is as late or later.
   */
  async choose(manager: EntityManager, write: PrimaryNameWrite): Promise<{ previous: string | null } | undefined> {
    // "old" is the statement's snapshot, read as the row was; the xmin guard makes it the version replaced.
    const rows = (await manager.query(
      `WITH "old" AS (SELECT "name", "xmin"::text AS "version" FROM "primary_names" WHERE "address" = $1),
       "up" AS (
         INSERT INTO "primary_names" ("address", "name", "issued_at") VALUES ($1, $2, $3)
         ON CONFLICT ("address") DO UPDATE
           SET "name" = EXCLUDED."name", "issued_at" = EXCLUDED."issued_at", "updated_at" = now()
           WHERE "primary_names"."issued_at" < EXCLUDED."issued_at"
             AND "primary_names"."xmin"::text = (SELECT "version" FROM "old")
         RETURNING 1
       )
       SELECT (SELECT "name" FROM "old") AS "previous" FROM "up"`,
      [write.address, write.name, write.issuedAt],
    )) as { previous: string | null }[];
    return rows[0];
  }

  /**
   * Records a holder action's issuedAt for the signer (its choice of name kept) only when it is later than the one
   * stored, decided by the one statement as `choose` is: false when the stored one is as late or later.
   */
  async accept(manager: EntityManager, address: string, issuedAt: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO "primary_names" ("address", "name", "issued_at") VALUES ($1, NULL, $2)
       ON CONFLICT ("address") DO UPDATE SET "issued_at" = EXCLUDED."issued_at", "updated_at" = now()
         WHERE "primary_names"."issued_at" < EXCLUDED."issued_at"
       RETURNING 1`,
      [address, issuedAt],
    );
    return rows.length > 0;
  }

  /** The name an address chose, or null when it chose none (or cleared its choice). */
  async findName(manager: EntityManager, address: string): Promise<string | null> {
    const rows = (await manager.query(`SELECT "name" FROM "primary_names" WHERE "address" = $1`, [address])) as {
      name: string | null;
    }[];
    return rows[0]?.name ?? null;
  }

  /** Every (address, name) choice of one of these names. */
  async choosersOf(manager: EntityManager, names: string[]): Promise<{ address: string; name: string }[]> {
    if (names.length === 0) return [];
    return (await manager.query(`SELECT "address", "name" FROM "primary_names" WHERE "name" = ANY($1::text[])`, [
      names,
    ])) as { address: string; name: string }[];
  }
}
