import fc from 'fast-check';
import { concat, ensNormalize, keccak256, namehash, toUtf8Bytes, ZeroHash } from 'ethers';
import {
  isSameOrUnder,
  labelLength,
  nameHash,
  normalizeLabel,
  normalizeName,
  normalizeOrThrow,
  parentNameHash,
} from './names';
import { runs } from '../../../test/support/property-runs';

/** ethers' ensNormalize, the reference: the name, or the error it throws. */
function reference(raw: string): { name: string } | { error: string } {
  try {
    return { name: ensNormalize(raw) };
  } catch (e) {
    return { error: (e as { shortMessage: string }).shortMessage };
  }
}

function ours(raw: string): { name: string } | { error: true } {
  try {
    return { name: normalizeOrThrow(raw) };
  } catch {
    return { error: true };
  }
}

describe('ens', () => {
  describe('normalizeOrThrow (shortcut and memo) equals ethers ensNormalize', () => {
    const near = fc.stringMatching(/^[a-zA-Z0-9_.-]{1,12}$/);
    const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 });
    it.each([
      ['near plain ASCII (letters, digits, hyphens, dots, capitals, underscores)', near],
      ['any Unicode', unicode],
    ])('for generated names: %s, asked twice (the second answer from the memo)', (_, names) => {
      fc.assert(
        fc.property(names, (raw) => {
          const expected = reference(raw);
          for (let i = 0; i < 2; i++) {
            const got = ours(raw);
            if ('name' in expected) expect(got).toEqual(expected);
            else expect(got).toEqual({ error: true });
          }
        }),
        { seed: 15, numRuns: runs(5000) },
      );
    });

    it('keeps the reason of a refusal each time, and the label-extension rule', () => {
      for (let i = 0; i < 2; i++) {
        expect(() => normalizeOrThrow('ab--cd.eth')).toThrow(/ENSIP-15: .*invalid label extension/);
        expect(() => normalizeOrThrow('a..eth')).toThrow(/ENSIP-15/);
      }
      expect(normalizeOrThrow('a--b.eth')).toBe('a--b.eth');
      expect(normalizeOrThrow('Alice.ETH')).toBe('alice.eth');
    });
  });

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

    it.each(['🦊.eth', 'ελληνικα.eth', '中文.eth', 'مرحبا.eth', 'alice.oak.eth', 'x.team.oak.eth', 'team.oak.eth'])(
      'hashes %s by the ENSIP-1 definition',
      (n) => {
        expect(nameHash(n)).toBe(byDefinition(n));
        expect(nameHash(n)).toMatch(/^0x[0-9a-f]{64}$/);
      },
    );

    it(`equals ethers' namehash over ${runs(3000)} generated names, parents repeated so the remembered nodes are used`, () => {
      const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/).filter((l) => !l.includes('--'));
      const parents = fc.constantFrom('oak.eth', 'team.oak.eth', 'pine.eth', 'x.y.z.eth');
      fc.assert(
        fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), parents, (labels, parent) => {
          const name = [...labels, parent].join('.');
          expect(nameHash(name)).toBe(namehash(name));
          expect(parentNameHash(name)).toBe(namehash(name));
          expect(parentNameHash(parent)).toBe(namehash(parent));
        }),
        { seed: 20261123, numRuns: runs(3000) },
      );
    });

    it('parentNameHash of a single label and of unicode names equals ethers', () => {
      for (const n of ['eth', 'box', '🦊.eth', 'ελληνικα.oak.eth']) expect(parentNameHash(n)).toBe(namehash(n));
    });
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

describe(labelLength.name, () => {
  it.each([
    ['a', 1],
    ['abc', 3],
    ['é', 1],
    ['🙂', 1], // one code point, two UTF-16 units
    ['👍🏽', 2], // base and skin-tone modifier
    ['👨‍👩‍👧', 5], // three people and two zero-width joiners
    ['x🙂y', 3],
  ])('%s has %i code points', (label, n) => {
    expect(labelLength(label)).toBe(n);
  });
});
