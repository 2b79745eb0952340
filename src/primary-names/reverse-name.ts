import { checksumAddress } from '../common/ens/evm-address';

/** `<40 lower-case hex digits>.addr.reverse`, as ENSIP-19 names an Ethereum address's reverse node. */
const REVERSE_NAME = /^([0-9a-f]{40})\.addr\.reverse$/;

/** The EIP-55 address whose reverse name this normalised name is, or null for any other name. */
export function reverseAddress(name: string): string | null {
  const match = REVERSE_NAME.exec(name);
  return match ? checksumAddress(`0x${match[1]}`) : null;
}
