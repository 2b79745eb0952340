import { concat, keccak256, toUtf8Bytes, ZeroHash } from 'ethers';
import { isSameOrUnder, nameHash, normalizeLabel, normalizeName } from './ens';

describe('ens', () => {
  describe(normalizeName.name, () => {
    it.each([
      ['foo.eth', 'foo.eth'],
      ['Foo.ETH', 'foo.eth'],
      ['🦊.eth', '🦊.eth'],
      ['ΕΛΛΗΝΙΚΑ.eth', 'ελληνικα.eth'],
      ['Ёлка.oak.eth', 'ёлка.oak.eth'],
      ['中文.eth', '中文.eth'],
    ])('normalises %s to %s', (raw, expected) => {
      expect(normalizeName(raw)).toBe(expected);
    });

    it.each([
      ['', 'must not be empty'],
      ['eth', 'must have at least 2 labels'],
      ['foo..eth', 'ENSIP-15'],
      ['a b.eth', 'ENSIP-15'],
      ['ΑΒΓ.eth', 'whole-script confusable'],
      ['Ѐ.oak.eth', 'disallowed character'],
      ['foo.eth.', 'ENSIP-15'],
    ])('refuses %j (%s)', (raw, reason) => {
      expect(() => normalizeName(raw)).toThrow(reason);
    });

    it('refuses a label over 255 UTF-8 bytes', () => {
      expect(() => normalizeName(`${'a'.repeat(256)}.eth`)).toThrow('255 UTF-8 bytes');
    });
  });

  describe(normalizeLabel.name, () => {
    it('lower-cases and keeps emoji', () => {
      expect(normalizeLabel('Alice')).toBe('alice');
      expect(normalizeLabel('👍🏽')).toBe('👍🏽');
    });

    it.each(['a.b', '', 'a b', '\u0000'])('refuses %j', (raw) => {
      expect(() => normalizeLabel(raw)).toThrow();
    });

    it('counts bytes, not characters: 64 four-byte emoji (256 bytes) are refused, 63 accepted', () => {
      expect(normalizeLabel('🦊'.repeat(63))).toBe('🦊'.repeat(63));
      expect(() => normalizeLabel('🦊'.repeat(64))).toThrow('255 UTF-8 bytes');
    });
  });

  describe(nameHash.name, () => {
    it.each([
      ['eth', '0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae'],
      ['foo.eth', '0xde9b09fd7c5f901e23a3f19fecc54828e9c848539801e86591bd9801b019f84f'],
    ])('namehash(%j) is the ENSIP-1 vector', (name, hash) => {
      expect(nameHash(name)).toBe(hash);
    });

    it('hashes the normalised form, so Foo.ETH and foo.eth agree', () => {
      expect(nameHash(normalizeName('Foo.ETH'))).toBe(nameHash('foo.eth'));
    });

    // ENSIP-1 spelled out: node = keccak256(parent node ++ keccak256(utf8(label))), from the root of 32 zero bytes.
    const byDefinition = (name: string) =>
      name
        .split('.')
        .reverse()
        .reduce((node, label) => keccak256(concat([node, keccak256(toUtf8Bytes(label))])), ZeroHash);

    it.each(['🦊.eth', 'ελληνικα.eth', '中文.eth', 'مرحبا.eth', 'alice.oak.eth'])(
      'hashes %s by the ENSIP-1 definition',
      (n) => {
        expect(nameHash(n)).toBe(byDefinition(n));
        expect(nameHash(n)).toMatch(/^0x[0-9a-f]{64}$/);
      },
    );
  });

  describe(isSameOrUnder.name, () => {
    it.each([
      ['oak.eth', 'oak.eth', true],
      ['x.oak.eth', 'oak.eth', true],
      ['y.x.oak.eth', 'oak.eth', true],
      ['oakk.eth', 'oak.eth', false],
      ['xoak.eth', 'oak.eth', false],
      ['eth', 'oak.eth', false],
    ])('%s under %s: %s', (name, ancestor, expected) => {
      expect(isSameOrUnder(name, ancestor)).toBe(expected);
    });
  });
});
