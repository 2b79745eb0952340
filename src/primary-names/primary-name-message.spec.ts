import { TypedDataEncoder, verifyTypedData, Wallet } from 'ethers';
import { primaryNameDigest, serviceOf } from './primary-name-message';

/** The message as docs/reference.md#primary-names spells it, written out here rather than imported. */
const DOMAIN = { name: 'ENS subname service', version: '1', chainId: 1 };
const TYPES = {
  PrimaryName: [
    { name: 'addr', type: 'address' },
    { name: 'name', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'service', type: 'string' },
  ],
};
const HOLDER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('primaryNameDigest', () => {
  it("is ethers' TypedDataEncoder hash of PrimaryName under the documented domain", () => {
    expect(TypedDataEncoder.from(TYPES).encodeType('PrimaryName')).toBe(
      'PrimaryName(address addr,string name,uint256 issuedAt,string service)',
    );
    for (const [chainId, name, issuedAt, service] of [
      [1, 'alice.oak.eth', 1795800000, 'https://subnames.example.com'],
      [11155111, '', 0, 'http://localhost:3000'],
      [31337, '🙂.oak.eth', Number.MAX_SAFE_INTEGER, 'https://a.example:8443'],
    ] as const) {
      const message = { addr: HOLDER, name, issuedAt, service };
      expect(primaryNameDigest(chainId, message)).toBe(TypedDataEncoder.hash({ ...DOMAIN, chainId }, TYPES, message));
    }
  });

  it('differs with each field and with the chain, so no signature serves another choice or service', () => {
    const base = { addr: HOLDER, name: 'alice.oak.eth', issuedAt: 1795800000, service: 'https://a.example' };
    const digests = new Set([
      primaryNameDigest(1, base),
      primaryNameDigest(5, base),
      primaryNameDigest(1, { ...base, addr: '0x' + '11'.repeat(20) }),
      primaryNameDigest(1, { ...base, name: 'bob.oak.eth' }),
      primaryNameDigest(1, { ...base, issuedAt: base.issuedAt + 1 }),
      primaryNameDigest(1, { ...base, service: 'https://b.example' }),
    ]);
    expect(digests.size).toBe(6);
  });

  it("is what a wallet's signTypedData signs", async () => {
    const wallet = Wallet.createRandom();
    const message = { addr: wallet.address, name: 'alice.oak.eth', issuedAt: 1795800000, service: 'https://a.example' };
    const signature = await wallet.signTypedData(DOMAIN, TYPES, message);
    expect(verifyTypedData(DOMAIN, TYPES, message, signature)).toBe(wallet.address);
    expect(wallet.signingKey.sign(primaryNameDigest(1, message)).serialized).toBe(signature);
  });
});

describe('serviceOf', () => {
  it("is the public URL's origin: scheme, host and a port other than the scheme's", () => {
    expect(serviceOf('https://subnames.example.com')).toBe('https://subnames.example.com');
    expect(serviceOf('https://Subnames.Example.com:443/')).toBe('https://subnames.example.com');
    expect(serviceOf('http://localhost:3000')).toBe('http://localhost:3000');
  });
});
