import { TypedDataEncoder, type TypedDataDomain, type TypedDataField } from 'ethers';

/** The EIP-712 domain's name and version of every primary-name signature (docs/reference.md#primary-names). */
export const PRIMARY_NAME_DOMAIN_NAME = 'ENS subname service';
export const PRIMARY_NAME_DOMAIN_VERSION = '1';

export const PRIMARY_NAME_TYPES: Record<string, TypedDataField[]> = {
  PrimaryName: [
    { name: 'addr', type: 'address' },
    { name: 'name', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'service', type: 'string' },
  ],
};

/** What the holder signs: its address, the name chosen ("" to clear), when, and which service it is meant for. */
export interface PrimaryNameMessage {
  addr: string;
  name: string;
  issuedAt: number;
  /** The origin of PUBLIC_URL, so that a signature for another service is no use here. */
  service: string;
}

export function primaryNameDomain(chainId: number): TypedDataDomain {
  return { name: PRIMARY_NAME_DOMAIN_NAME, version: PRIMARY_NAME_DOMAIN_VERSION, chainId };
}

/** The EIP-712 digest a wallet signs for this message (what ecrecover and ERC-1271 are asked about). */
export function primaryNameDigest(chainId: number, message: PrimaryNameMessage): string {
  return TypedDataEncoder.hash(primaryNameDomain(chainId), PRIMARY_NAME_TYPES, message);
}

/** The service field: the origin of the public URL (scheme, host and port; no path). */
export function serviceOf(publicUrl: string): string {
  return new URL(publicUrl).origin;
}
