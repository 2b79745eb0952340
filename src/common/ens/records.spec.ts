import {
  canonicalAddress,
  canonicalContenthash,
  coinName,
  coinProblem,
  contenthashBytes,
  evmAddressProblem,
  metadataKeyProblem,
  recordValueProblem,
  textKeyProblem,
} from './records';

const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('records', () => {
  describe('text keys', () => {
    it.each(['avatar', 'url', 'primary-contact', 'timezone', 'com.github', 'org.telegram', 'io.keybase'])(
      'accepts %s',
      (key) => expect(textKeyProblem(key)).toBeNull(),
    );
    it.each(['Avatar', 'twitter', 'com.', '.com', 'com..x', 'com github', '', 5])('refuses %j', (key) =>
      expect(textKeyProblem(key)).not.toBeNull(),
    );
    // ENSIP-26's keys and ENSIP-25's, with its own example of an ERC-7930 registry (ERC-8004 on mainnet).
    it.each([
      'agent-context',
      'agent-endpoint[mcp]',
      'agent-endpoint[a2a]',
      'agent-endpoint[web]',
      'agent-registration[0x000100000101148004a169fb4a3325136eb29fa0ceb6d2e539a432][167]',
      'agent-registration[0x000100000101148004a169fb4a3325136eb29fa0ceb6d2e539a432][agent-7.alpha]',
    ])('accepts the agent key %s', (key) => expect(textKeyProblem(key)).toBeNull());
    it.each([
      'agent-endpoint',
      'agent-endpoint[]',
      'agent-endpoint[ftp]',
      'agent-endpoint[MCP]',
      'agent-context[x]',
      'agent-registration[0x0001][]',
      'agent-registration[0x001][7]',
      'agent-registration[registry][7]',
      'agent-registration[0x0001][7',
      'agent-registration[0x0001][a]b]',
      'agent-registration[0x0001][a b]',
      'agent-registration[0x0001][7][8]',
      `agent-registration[0x${'00'.repeat(120)}][7]`,
    ])('refuses %j', (key) => expect(textKeyProblem(key)).not.toBeNull());
  });

  describe('values and metadata keys', () => {
    it('counts characters as code points: 2000 emoji pass, 2001 fail', () => {
      expect(recordValueProblem('🦊'.repeat(2000))).toBeNull();
      expect(recordValueProblem('🦊'.repeat(2001))).toBe('must be 1 to 2000 characters');
      expect(recordValueProblem('')).toBe('must be 1 to 2000 characters');
    });
    it('refuses control characters in metadata keys', () => {
      expect(metadataKeyProblem('tier')).toBeNull();
      expect(metadataKeyProblem('a\nb')).toBe('must contain only printable characters');
      expect(metadataKeyProblem('x'.repeat(256))).toBe('must be 1 to 255 characters');
    });
  });

  describe('coin types', () => {
    it.each([
      [60, 'eth'],
      [0, 'btc'],
      [501, 'sol'],
      [2147492101, 'base'],
      [2147483658, 'op'],
    ])('names coin %d %s', (coin, name) => {
      expect(coinProblem(coin)).toBeNull();
      expect(coinName(coin)).toBe(name);
    });

    it('refuses a raw chain id and names the ENSIP-11 coin type to use', () => {
      expect(coinProblem(8453)).toBe(
        '8453 is not an ENSIP-9 coin type; for the EVM chain with id 8453 use its ENSIP-11 coin type 2147492101',
      );
    });

    it.each([-1, 1.5, 2 ** 32, '60', 9999999])('refuses %j', (coin) => expect(coinProblem(coin)).not.toBeNull());
  });

  describe('addresses', () => {
    it.each([
      [60, CHECKSUMMED.toLowerCase(), CHECKSUMMED],
      [60, CHECKSUMMED, CHECKSUMMED],
      [2147492101, CHECKSUMMED.toLowerCase(), CHECKSUMMED],
      [0, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
      [0, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
      [501, '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'],
    ])('coin %d accepts %s as %s', (coin, input, canonical) => {
      expect(canonicalAddress(coin, input)).toBe(canonical);
    });

    it.each([
      [60, '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'fails its EIP-55 checksum'],
      [60, '0x1234', 'not a valid eth address'],
      [2147492101, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'not a valid base address'],
      [0, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'not a valid btc address'],
      [0, CHECKSUMMED, 'not a valid btc address'],
      [501, '0OIl', 'not a valid sol address'],
      [501, CHECKSUMMED, 'not a valid sol address'],
    ])('coin %d refuses %s', (coin, input, reason) => {
      expect(() => canonicalAddress(coin, input)).toThrow(reason);
    });
  });

  describe('owner', () => {
    it('accepts lower case and correct mixed case, refuses a bad checksum', () => {
      expect(evmAddressProblem(CHECKSUMMED)).toBeNull();
      expect(evmAddressProblem(CHECKSUMMED.toLowerCase())).toBeNull();
      expect(evmAddressProblem('0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toContain('checksum');
      expect(evmAddressProblem('0x123')).toContain('20-byte');
    });
  });

  describe('contenthash', () => {
    const IPFS_V0 = 'QmRAQB6YaCyidP37UdDnjFY5vQuiBrcqdyoW1CuDgwxkD4';
    const IPFS_V1 = 'bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4';
    const IPFS_HEX = '0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f';
    const IPNS = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8';
    const SWARM = 'd1de9994b4d039f6548d191eb26786769f580809256b4685ef316805265ea162';

    it.each([
      [`ipfs://${IPFS_V0}`, `ipfs://${IPFS_V0}`],
      [`ipfs://${IPFS_V1}`, `ipfs://${IPFS_V1}`],
      [IPFS_HEX, `ipfs://${IPFS_V1}`],
      [`ipns://${IPNS}`, `ipns://${IPNS}`],
      [`bzz://${SWARM}`, `bzz://${SWARM}`],
      ['ar://ys32Pt8uC7TrVxHdOLByOspfPEq2LO63wREHQIM9SJQ', 'ar://ys32Pt8uC7TrVxHdOLByOspfPEq2LO63wREHQIM9SJQ'],
    ])('accepts %s as %s', (input, uri) => {
      expect(canonicalContenthash(input)).toBe(uri);
    });

    it('encodes the ENSIP-7 bytes that ENS resolvers return', () => {
      expect(contenthashBytes(`ipfs://${IPFS_V0}`)).toBe(IPFS_HEX);
    });

    it.each([
      'ipfs://garbage',
      'ipns://not a cid',
      'bzz://zz',
      'bzz://abc',
      'http://example.com',
      'foo://bar',
      'QmRAQB6YaCyidP37UdDnjFY5vQuiBrcqdyoW1CuDgwxkD4',
      '0xdeadbeef',
      '0x',
      '0xzz',
      '0xe301',
      '0x00000000000000000000626172',
    ])('refuses %s', (input) => {
      expect(() => canonicalContenthash(input)).toThrow();
    });
  });
});
