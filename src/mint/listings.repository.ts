import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { bigintAsNumber } from '../common/column-transformers';
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

@Injectable()
export class ListingsRepository {
  /** Create-or-replace in one statement keyed by the unique (network, parent name). */
  async upsert(manager: EntityManager, w: ListingWrite): Promise<ListingEntity> {
    const rows: ListingRow[] = await manager.query(
      `INSERT INTO listings (network, parent_name, price, length_prices, fee, payment_receiver, expirable, fuses,
                             reserved_labels, active)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9::text[], $10)
       ON CONFLICT (network, parent_name) DO UPDATE SET
         price = EXCLUDED.price, length_prices = EXCLUDED.length_prices, fee = EXCLUDED.fee,
         payment_receiver = EXCLUDED.payment_receiver, expirable = EXCLUDED.expirable, fuses = EXCLUDED.fuses,
         reserved_labels = EXCLUDED.reserved_labels, active = EXCLUDED.active, updated_at = now()
       RETURNING *`,
      [
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
      ],
    );
    return rowToEntity(rows[0]);
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

  async delete(manager: EntityManager, network: Network, parentName: string): Promise<boolean> {
    // TypeORM's postgres driver answers a DELETE with [rows, rowCount].
    const [, count]: [unknown[], number] = await manager.query(
      'DELETE FROM listings WHERE network = $1 AND parent_name = $2',
      [network, parentName],
    );
    return count > 0;
  }
}
