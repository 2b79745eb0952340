import type { TypedDataField } from 'ethers';

/** The networks a listing and a signature belong to; each has its own chain id, contract and signer. */
export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

export function networkOf(isTestnet: boolean | undefined): Network {
  return isTestnet === true ? 'testnet' : 'mainnet';
}

/** The `expiry` of a name that never expires: the largest uint32, as the Name Wrapper reads it. */
export const NO_EXPIRY = 4294967295;

export const MINT_PRIMARY_TYPE = 'MintContext';

/**
 * The EIP-712 struct the Namespace L1 MintController verifies (docs/reference.md#mint). Field order is part of the
 * type hash; the contract's Solidity struct orders its members differently, which does not matter to EIP-712.
 */
export const MINT_CONTEXT_TYPES: Record<string, TypedDataField[]> = {
  MintContext: [
    { name: 'label', type: 'string' },
    { name: 'parentNode', type: 'bytes32' },
    { name: 'owner', type: 'address' },
    { name: 'price', type: 'uint256' },
    { name: 'fee', type: 'uint256' },
    { name: 'paymentReceiver', type: 'address' },
    { name: 'expiry', type: 'uint256' },
    { name: 'signatureExpiry', type: 'uint256' },
    { name: 'verifiedMinter', type: 'address' },
    { name: 'fuses', type: 'uint32' },
  ],
};

export const DOMAIN_NAME = 'namespace';
export const DOMAIN_VERSION = '1';

export interface MintDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

/** The signed content exactly as the response carries it: wei as decimal strings, times as integers. */
export interface MintContent {
  label: string;
  parentNode: string;
  owner: string;
  price: string;
  fee: string;
  paymentReceiver: string;
  expiry: number;
  signatureExpiry: number;
  verifiedMinter: string;
  fuses: number;
}
