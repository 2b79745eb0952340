import { getBytes, toUtf8Bytes, TypedDataEncoder, TypedDataField } from 'ethers';
import { keccak256Bytes } from '../common/crypto/keccak';
import { StructDigester } from './eip712-struct';

/**
 * The EIP-712 digest of one flat struct type (atomic fields only) under one domain, with the type hash and
 * the domain separator computed once: keccak256(0x1901 ‖ domainSeparator ‖ keccak256(typeHash ‖ fields)).
 * ethers' TypedDataEncoder re-derives the type encoding on every call; this does the hashing only. A unit
 * test proves it equal to TypedDataEncoder.hash over generated structs.
 */
export class Eip712Digester extends StructDigester {
  constructor(domain: Parameters<typeof TypedDataEncoder.hashDomain>[0], types: Record<string, TypedDataField[]>) {
    const [primary, ...others] = Object.keys(types);
    if (others.length > 0) throw new Error('the fast EIP-712 hasher takes a single struct type');
    const fields = types[primary].map((f) => ({ name: f.name, type: f.type }));
    const prefix = new Uint8Array(2 + 32);
    prefix.set([0x19, 0x01]);
    prefix.set(getBytes(TypedDataEncoder.hashDomain(domain)), 2);
    const typeHash = keccak256Bytes(toUtf8Bytes(new TypedDataEncoder(types).encodeType(primary)));
    super({ prefix, typeHash, fields });
  }
}
