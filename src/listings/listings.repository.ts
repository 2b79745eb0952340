import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { bigintAsNumber } from '../common/persistence/column-transformers';
import { ListingEntity } from './listing.entity';
import type { Network } from '../signing/mint-context';

/** Every field of a listing that PUT sets; PUT replaces the whole listing. */
export interface ListingWrite {
  network: Network;
  parentName: string;
  price: string;
  lengthPrices: Record<string, string>;
  fee: string;
  paymentReceiver: string;
  expirable: boolean;
  fuses: number;
  reservedLabels: string[];
  active: boolean;
}

interface ListingRow {
  id: string;
  network: Network;
  parent_name: string;
  price: string;
  length_prices: Record<string, string>;
  fee: string;
  payment_receiver: string;
  expirable: boolean;
  fuses: string;
  reserved_labels: string[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

function rowToEntity(r: ListingRow): ListingEntity {
  return Object.assign(new ListingEntity(), {
    id: r.id,
    network: r.network,
    parentName: r.parent_name,
    price: r.price,
    lengthPrices: r.length_prices,
    fee: r.fee,
    paymentReceiver: r.payment_receiver,
    expirable: r.expirable,
    fuses: bigintAsNumber.from(r.fuses)!,
    reservedLabels: r.reserved_labels,
    active: r.active,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
}

/** The columns a PUT replaces. */
const REPLACED_COLUMNS = [
  'price',
  'length_prices',
  'fee',
  'payment_receiver',
  'expirable',
  'fuses',
  'reserved_labels',
  'active',
] as const;

@Injectable()
export class ListingsRepository {
  /**
   * Create-or-replace keyed by the unique (network, parent name), handing back the listing as it was before a
   * replacement (for the audit trail): an insert that stops at the unique index, and only when the listing
   * exists, a second statement that locks and replaces it, returning its old values too.
   */
  async upsert(
    manager: EntityManager,
    w: ListingWrite,
  ): Promise<{ entity: ListingEntity; previous: ListingEntity | null }> {
    const params = [
      w.network,
      w.parentName,
      w.price,
      JSON.stringify(w.lengthPrices),
      w.fee,
      w.paymentReceiver,
      w.expirable,
      w.fuses,
      w.reservedLabels,
      w.active,
    ];
    const insert = `
      INSERT INTO listings (network, parent_name, price, length_prices, fee, payment_receiver, expirable, fuses,
                            reserved_labels, active)
      VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9::text[], $10)
      ON CONFLICT (network, parent_name) DO NOTHING
      RETURNING *`;
    // The locked self-join reads the listing as it was before this statement replaced it.
    const replace = `
      UPDATE listings l SET
        price = $3, length_prices = $4::jsonb, fee = $5, payment_receiver = $6, expirable = $7, fuses = $8,
        reserved_labels = $9::text[], active = $10, updated_at = now()
        FROM (SELECT * FROM listings WHERE network = $1 AND parent_name = $2 FOR UPDATE) old
       WHERE l.id = old.id
      RETURNING l.*, ${REPLACED_COLUMNS.map((c) => `old.${c} AS old_${c}`).join(', ')}`;
    // A listing deleted between the two statements lets the insert win on the next round.
    for (let round = 0; round < 3; round++) {
      const created: ListingRow[] = await manager.query(insert, params);
      if (created[0]) return { entity: rowToEntity(created[0]), previous: null };
      // An UPDATE answers [rows, rowCount] through TypeORM's postgres driver.
      const [replaced]: [(ListingRow & Record<string, unknown>)[], number] = await manager.query(replace, params);
      if (replaced[0]) {
        const row = replaced[0];
        const old = Object.fromEntries(REPLACED_COLUMNS.map((c) => [c, row[`old_${c}`]]));
        return { entity: rowToEntity(row), previous: rowToEntity({ ...row, ...old } as ListingRow) };
      }
    }
    throw new Error(`upsert of listing ${w.network}/${w.parentName} kept meeting concurrent deletes`);
  }

  async findOne(manager: EntityManager, network: Network, parentName: string): Promise<ListingEntity | null> {
    const rows: ListingRow[] = await manager.query('SELECT * FROM listings WHERE network = $1 AND parent_name = $2', [
      network,
      parentName,
    ]);
    return rows[0] ? rowToEntity(rows[0]) : null;
  }

  async listAll(manager: EntityManager): Promise<ListingEntity[]> {
    const rows: ListingRow[] = await manager.query('SELECT * FROM listings ORDER BY network, parent_name');
    return rows.map(rowToEntity);
  }

  /** The deleted listing, or null when there was none. */
  async delete(manager: EntityManager, network: Network, parentName: string): Promise<ListingEntity | null> {
    // TypeORM's postgres driver answers a DELETE … RETURNING with [rows, rowCount].
    const [rows]: [ListingRow[], number] = await manager.query(
      'DELETE FROM listings WHERE network = $1 AND parent_name = $2 RETURNING *',
      [network, parentName],
    );
    return rows[0] ? rowToEntity(rows[0]) : null;
  }
}
