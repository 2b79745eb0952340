import type { EntityManager } from 'typeorm';
import type { Actor } from '../../src/audit/audit.types';
import type { AuthenticatedKey } from '../../src/auth/api-key';
import { SubnameEntity } from '../../src/subnames/subname.entity';

/** The key, manager and actor the subnames unit specs write with. */
export const KEY: AuthenticatedKey = { id: 'k1', keyPrefix: 'sns_abcdefgh', parentNames: ['oak.eth'] };
export const MANAGER = {} as EntityManager;
export const BY: Actor = { actor: KEY.id, requestId: 'req-1' };

/** A stored subname as the repository returns it, with a coin-60 address. */
export function entity(fullName: string): SubnameEntity {
  const [label, ...parent] = fullName.split('.');
  return Object.assign(new SubnameEntity(), {
    id: `id-${label}`,
    fullName,
    parentName: parent.join('.'),
    label,
    namehash: `0x${'0'.repeat(64)}`,
    texts: {},
    addresses: { '60': '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    metadata: {},
    contenthash: null,
    owner: null,
    ttl: null,
    createdBy: KEY.id,
    createdAt: new Date('2026-11-22T10:00:00Z'),
    updatedAt: new Date('2026-11-22T10:00:00Z'),
  });
}
