import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { HolderPolicyEntity } from './holder-policy.entity';

interface PolicyRow {
  parent_name: string;
  claims: HolderPolicyEntity['claims'];
  allowlist: string[];
  claims_per_address: number;
  labels: HolderPolicyEntity['labels'];
  holder_records: HolderPolicyEntity['holderRecords'];
  transfers: boolean;
  deletes: boolean;
  charged_key_id: string;
  updated_at: Date;
}

function toEntity(r: PolicyRow): HolderPolicyEntity {
  return {
    parentName: r.parent_name,
    claims: r.claims,
    allowlist: r.allowlist,
    claimsPerAddress: r.claims_per_address,
    labels: r.labels,
    holderRecords: r.holder_records,
    transfers: r.transfers,
    deletes: r.deletes,
    chargedKeyId: r.charged_key_id,
    updatedAt: r.updated_at,
  };
}

export type PolicyWrite = Omit<HolderPolicyEntity, 'updatedAt'>;

/** Holder policies and per-address claim counts. */
@Injectable()
export class HoldersRepository {
  async put(manager: EntityManager, p: PolicyWrite): Promise<HolderPolicyEntity> {
    const rows: PolicyRow[] = await manager.query(
      `INSERT INTO holder_policies (parent_name, claims, allowlist, claims_per_address, labels, holder_records,
                                    transfers, deletes, charged_key_id)
       VALUES ($1, $2, $3::jsonb, $4, $5::jsonb, $6::jsonb, $7, $8, $9)
       ON CONFLICT (parent_name) DO UPDATE SET claims = EXCLUDED.claims, allowlist = EXCLUDED.allowlist,
         claims_per_address = EXCLUDED.claims_per_address, labels = EXCLUDED.labels,
         holder_records = EXCLUDED.holder_records, transfers = EXCLUDED.transfers, deletes = EXCLUDED.deletes,
         charged_key_id = EXCLUDED.charged_key_id, updated_at = now()
       RETURNING *`,
      [
        p.parentName,
        p.claims,
        JSON.stringify(p.allowlist),
        p.claimsPerAddress,
        JSON.stringify(p.labels),
        JSON.stringify(p.holderRecords),
        p.transfers,
        p.deletes,
        p.chargedKeyId,
      ],
    );
    return toEntity(rows[0]);
  }

  async find(manager: EntityManager, parentName: string): Promise<HolderPolicyEntity | null> {
    const rows: PolicyRow[] = await manager.query('SELECT * FROM holder_policies WHERE parent_name = $1', [parentName]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  /** False when there was none. */
  async remove(manager: EntityManager, parentName: string): Promise<boolean> {
    // For DELETE … RETURNING the postgres driver answers [rows, affectedCount].
    const [rows]: [unknown[], number] = await manager.query(
      'DELETE FROM holder_policies WHERE parent_name = $1 RETURNING parent_name',
      [parentName],
    );
    return rows.length > 0;
  }

  /** Names the address claimed under the parent, ever. */
  async claimsOf(manager: EntityManager, parentName: string, address: string): Promise<number> {
    const rows: { claims: number }[] = await manager.query(
      'SELECT claims FROM holder_claims WHERE parent_name = $1 AND address = $2',
      [parentName, address.toLowerCase()],
    );
    return rows[0]?.claims ?? 0;
  }

  /** Counts one more claim unless `limit` are counted already, decided by the one statement (racing claims included). */
  async countClaim(manager: EntityManager, parentName: string, address: string, limit: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO holder_claims (parent_name, address, claims) VALUES ($1, $2, 1)
       ON CONFLICT (parent_name, address) DO UPDATE SET claims = holder_claims.claims + 1
         WHERE holder_claims.claims < $3
       RETURNING claims`,
      [parentName, address.toLowerCase(), limit],
    );
    return rows.length > 0;
  }
}
