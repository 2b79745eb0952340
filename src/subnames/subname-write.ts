import { nameHash } from '../common/ens/names';
import { CreateSubnameDto } from './dto/create-subname.dto';
import type { SubnameWrite } from './subname-row';
import type { RecordMap } from './subname.entity';

function toMap<T>(entries: T[] | undefined, key: (e: T) => string, value: (e: T) => string): RecordMap | undefined {
  if (entries === undefined) return undefined;
  return Object.fromEntries(entries.map((e) => [key(e), value(e)]));
}

/**
 * The stored form of a create-or-update body. The pipe has already normalised and canonicalised every value
 * (label, parent, addresses, owner, contenthash), so this only arranges them: nothing is normalised twice.
 */
export function toSubnameWrite(createdBy: string, dto: CreateSubnameDto): SubnameWrite {
  const fullName = `${dto.label}.${dto.parentName}`;
  return {
    fullName,
    parentName: dto.parentName,
    label: dto.label,
    namehash: nameHash(fullName),
    createdBy,
    texts: toMap(
      dto.texts,
      (t) => t.key,
      (t) => t.value,
    ),
    addresses: toMap(
      dto.addresses,
      (a) => String(a.coin),
      (a) => a.value,
    ),
    metadata: toMap(
      dto.metadata,
      (m) => m.key,
      (m) => m.value,
    ),
    owner: dto.owner,
    contenthash: dto.contenthash,
    ttl: dto.ttl,
  };
}
