import { TypedDataEncoder, type TypedDataField } from 'ethers';
import { primaryNameDomain } from '../primary-names/primary-name-message';

export type HolderAction = 'claim' | 'records' | 'transfer' | 'delete';

const TEXT: TypedDataField[] = [
  { name: 'key', type: 'string' },
  { name: 'value', type: 'string' },
];
const ADDRESS: TypedDataField[] = [
  { name: 'coin', type: 'uint256' },
  { name: 'value', type: 'string' },
];
const SIGNED_AT: TypedDataField[] = [
  { name: 'issuedAt', type: 'uint256' },
  { name: 'service', type: 'string' },
];

/** Each action's primary type and the EIP-712 types it needs (CONTRACT section 15). */
export const HOLDER_TYPES: Record<HolderAction, { primaryType: string; types: Record<string, TypedDataField[]> }> = {
  claim: {
    primaryType: 'Claim',
    types: {
      Claim: [
        { name: 'name', type: 'string' },
        { name: 'owner', type: 'address' },
        { name: 'texts', type: 'Text[]' },
        { name: 'addresses', type: 'Address[]' },
        ...SIGNED_AT,
      ],
      Text: TEXT,
      Address: ADDRESS,
    },
  },
  records: {
    primaryType: 'SetRecords',
    types: {
      SetRecords: [
        { name: 'name', type: 'string' },
        { name: 'texts', type: 'Text[]' },
        { name: 'addresses', type: 'Address[]' },
        { name: 'contenthash', type: 'string' },
        ...SIGNED_AT,
      ],
      Text: TEXT,
      Address: ADDRESS,
    },
  },
  transfer: {
    primaryType: 'Transfer',
    types: {
      Transfer: [{ name: 'name', type: 'string' }, { name: 'newOwner', type: 'address' }, ...SIGNED_AT],
    },
  },
  delete: { primaryType: 'Delete', types: { Delete: [{ name: 'name', type: 'string' }, ...SIGNED_AT] } },
};

/** The domain's own type, which eth_signTypedData_v4 expects among the types (ethers wants it left out). */
const EIP712_DOMAIN: TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
];

export interface HolderTypedData {
  domain: { name: string; version: string; chainId: number };
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** What a wallet signs for an action: the fields as given plus `service`, ready for eth_signTypedData_v4. */
export function holderTypedData(
  action: HolderAction,
  chainId: number,
  service: string,
  fields: Record<string, unknown>,
): HolderTypedData {
  const { primaryType, types } = HOLDER_TYPES[action];
  const domain = primaryNameDomain(chainId) as HolderTypedData['domain'];
  return { domain, types: { EIP712Domain: EIP712_DOMAIN, ...types }, primaryType, message: { ...fields, service } };
}

/** The EIP-712 digest of an action's message (what ecrecover and ERC-1271 are asked about). */
export function holderDigest(action: HolderAction, chainId: number, message: Record<string, unknown>): string {
  return TypedDataEncoder.hash(primaryNameDomain(chainId), HOLDER_TYPES[action].types, message);
}
