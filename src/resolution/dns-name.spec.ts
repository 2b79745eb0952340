import { dnsEncode, hexlify, namehash, toUtf8Bytes } from 'ethers';
import { decodeName } from './dns-name';
import { bytes, refusal } from '../../test/support/calldata';

describe(decodeName.name, () => {
  /** The decoded name alone. */
  const decodeDnsName = (dns: Uint8Array) => decodeName(dns).name;

  it('reads length-prefixed labels up to the zero-length root label', () => {
    expect(decodeDnsName(bytes(5, 'alice', 3, 'oak', 3, 'eth', 0))).toBe('alice.oak.eth');
    expect(decodeDnsName(toUtf8Bytes('\u0003eth\u0000'))).toBe('eth');
    expect(decodeDnsName(new Uint8Array(Buffer.from(dnsEncode('🙂.oak.eth').slice(2), 'hex')))).toBe('🙂.oak.eth');
  });

  it('normalises the name (ENSIP-15) and gives its namehash, as hex and as bytes', () => {
    const decoded = decodeName(bytes(5, 'Alice', 3, 'OAK', 3, 'eth', 0));
    expect(decoded).toEqual({ name: 'alice.oak.eth', node: namehash('alice.oak.eth'), nodeBytes: expect.anything() });
    expect(hexlify(decoded.nodeBytes)).toBe(namehash('alice.oak.eth'));
    // Remembered by encoding: asked again, the same answer.
    expect(decodeName(bytes(5, 'Alice', 3, 'OAK', 3, 'eth', 0))).toEqual(decoded);
  });

  it('refuses a name ENSIP-15 refuses, naming data.name', () => {
    expect(refusal(() => decodeName(bytes(3, 'a b', 3, 'eth', 0)))).toMatchObject({
      field: 'data.name',
      message: expect.stringMatching(/^is not a valid ENS name \(ENSIP-15: /),
    });
  });

  it('refuses an empty label inside the name (a zero length ends it, so bytes follow the end)', () => {
    expect(refusal(() => decodeDnsName(bytes(5, 'alice', 0, 3, 'eth', 0)))).toEqual({
      field: 'data.name',
      message: 'has 5 bytes after its zero-length root label (an empty label ends the name)',
      unsupported: false,
    });
  });

  it('refuses truncated input: a label running past the end, or no root label', () => {
    expect(refusal(() => decodeDnsName(bytes(5, 'ali'))).message).toBe(
      'is truncated: label 1 claims 5 bytes past the end',
    );
    expect(refusal(() => decodeDnsName(bytes(5, 'alice', 3, 'oak'))).message).toBe(
      'is truncated: it ends before its zero-length root label',
    );
    expect(refusal(() => decodeDnsName(new Uint8Array())).message).toMatch(/^is truncated/);
  });

  it('refuses the root name, a label holding a dot, and bytes that are not UTF-8', () => {
    expect(refusal(() => decodeDnsName(bytes(0))).message).toBe('is the root name, which has no records here');
    expect(refusal(() => decodeDnsName(bytes(3, 'a.b', 3, 'eth', 0))).message).toBe('label 1 contains a dot');
    expect(refusal(() => decodeDnsName(bytes(3, 'oak', 2, 0xff, 0xfe, 0))).message).toBe('label 2 is not valid UTF-8');
  });
});
