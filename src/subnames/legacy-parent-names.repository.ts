import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** legacy_parent_names, and the stored parents that may belong there; every method runs on the manager it is given. */
@Injectable()
export class LegacyParentNamesRepository {
  /**
   * The distinct stored parents of fewer than 7 or more than 127 code points: a superset of those outside 7–255
   * UTF-16 units. The condition is the partial index's predicate, word for word, so the planner reads that index.
   */
  async lengthOutliers(manager: EntityManager): Promise<string[]> {
    const rows: { parent_name: string }[] = await manager.query(
      `SELECT DISTINCT "parent_name" FROM "subnames" WHERE char_length("parent_name") < 7 OR char_length("parent_name") > 127`,
    );
    return rows.map((r) => r.parent_name);
  }

  /** Records the names not recorded yet; how many were new. */
  async record(manager: EntityManager, names: string[]): Promise<number> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO "legacy_parent_names" ("name") SELECT unnest($1::text[]) ON CONFLICT ("name") DO NOTHING RETURNING "name"`,
      [names],
    );
    return rows.length;
  }

  async findAll(manager: EntityManager): Promise<string[]> {
    const rows: { name: string }[] = await manager.query(`SELECT "name" FROM "legacy_parent_names"`);
    return rows.map((r) => r.name);
  }
}
