import type { SubnameEntity } from './subname.entity';

/** A primary name that a write ended: `address` had chosen `name`, whose coin-60 address the write moved away. */
export interface EndedPrimaryName {
  address: string;
  name: string;
}

/** A stored name whose coin-60 address a write changed, and the address it had before. */
export interface EthAddressChange {
  name: string;
  before: string;
}

/**
 * Which of these changes end some address's primary name. The primary-names module provides it (globally);
 * subnames knows only this question, so that it depends on nothing above it. Absent: no primary names exist.
 */
export abstract class PrimaryNameEndings {
  abstract endedBy(changes: EthAddressChange[]): Promise<EndedPrimaryName[]>;
}

const COIN_ETH = '60';

/** The writes that moved a name's coin-60 address away from one it had (a creation or a first address ends none). */
export function ethAddressChanges(
  writes: { entity: SubnameEntity; previous: SubnameEntity | null }[],
): EthAddressChange[] {
  const changes: EthAddressChange[] = [];
  for (const { entity, previous } of writes) {
    const before = previous?.addresses[COIN_ETH];
    if (before && before.toLowerCase() !== entity.addresses[COIN_ETH]?.toLowerCase()) {
      changes.push({ name: entity.fullName, before });
    }
  }
  return changes;
}

/** Which primary names these committed writes ended (told to the writer, never refused); none without `endings`. */
export function endedBy(
  endings: PrimaryNameEndings | undefined,
  writes: { entity: SubnameEntity; previous: SubnameEntity | null }[],
): Promise<EndedPrimaryName[]> {
  const changes = ethAddressChanges(writes);
  return changes.length > 0 && endings ? endings.endedBy(changes) : Promise.resolve([]);
}

/**
 * The X-Primary-Name-Ended header: `<address> <name>` per ended choice, comma-separated; names percent-encoded as
 * in a URI component, since header values carry ASCII only (an ASCII name reads as itself).
 */
export function primaryNameEndedHeader(ended: EndedPrimaryName[]): Record<string, string> {
  if (ended.length === 0) return {};
  const value = ended.map((e) => `${e.address} ${encodeURIComponent(e.name)}`).join(', ');
  return { [PRIMARY_NAME_ENDED_HEADER]: value };
}

export const PRIMARY_NAME_ENDED_HEADER = 'X-Primary-Name-Ended';
