import { Interface } from 'ethers';

/** ENS's ReverseRegistrar: claimWithResolver sets the sender's `<address>.addr.reverse` owner and resolver. */
export const REVERSE_REGISTRAR = new Interface([
  'function claimWithResolver(address owner, address resolver) returns (bytes32)',
]);

/** An unsigned transaction: what to send, to which contract, on which chain, and what it does. */
export interface ReverseSetup {
  to: string;
  data: string;
  chainId: number;
  note: string;
}

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/**
 * The one transaction an address sends before choosing primary names here: the reverse registrar makes the
 * address own its reverse node and sets the node's resolver, the offchain resolver that asks this service.
 */
export function reverseSetup(
  address: string,
  resolver: string,
  ens: { chainId: number; reverseRegistrar: string },
): ReverseSetup {
  const reverseName = `${address.slice(2).toLowerCase()}.addr.reverse`;
  return {
    to: ens.reverseRegistrar,
    data: REVERSE_REGISTRAR.encodeFunctionData('claimWithResolver', [address, resolver]),
    chainId: ens.chainId,
    note:
      `Send this transaction from ${address} itself (the registrar acts for its sender), on chain ${ens.chainId}. ` +
      `It makes ${short(address)} the owner of ${reverseName} and sets its resolver to ${resolver}, so that the ` +
      'primary name chosen here (POST /api/v1/primary-names, a signature and no gas) is what wallets show. Clients ' +
      "that read addr.reverse first will no longer see the address's ENSIP-19 default name (default.reverse).",
  };
}
