import {
  AbiCoder,
  concat,
  dnsEncode,
  getBytes,
  hexlify,
  Interface,
  keccak256,
  namehash,
  toUtf8Bytes,
  ZeroHash,
  zeroPadValue,
} from 'ethers';
import {
  CalldataError,
  decodeDnsName,
  decodeResolveCall,
  encodeGatewayResponse,
  encodeMulticallResult,
  encodeResult,
  RESOLVE_SELECTOR,
} from './ccip-codec';

const iface = new Interface([
  'function resolve(bytes name, bytes data)',
  'function addr(bytes32 node)',
  'function addr(bytes32 node, uint256 coinType)',
  'function text(bytes32 node, string key)',
  'function contenthash(bytes32 node)',
  'function multicall(bytes[] data)',
  'function name(bytes32 node)',
  'function pubkey(bytes32 node)',
]);
const NODE = namehash('alice.oak.eth');
const resolveCall = (dns: string, inner: string) => iface.encodeFunctionData('resolve', [dns, inner]);
const addr = (node = NODE) => iface.encodeFunctionData('addr(bytes32)', [node]);
const bytes = (...parts: (number | string)[]) =>
  getBytes(concat(parts.map((p) => (typeof p === 'number' ? new Uint8Array([p]) : toUtf8Bytes(p)))));
/** Hex of one 32-byte word holding n. */
const word = (n: number) => n.toString(16).padStart(64, '0');

function refusal(fn: () => unknown): { field: string; message: string; unsupported: boolean } {
  try {
    fn();
  } catch (e) {
    if (e instanceof CalldataError) return { field: e.field, message: e.message, unsupported: e.unsupported };
    throw e;
  }
  throw new Error('no refusal');
}

describe(decodeDnsName.name, () => {
  it('reads length-prefixed labels up to the zero-length root label', () => {
    expect(decodeDnsName(bytes(5, 'alice', 3, 'oak', 3, 'eth', 0))).toBe('alice.oak.eth');
    expect(decodeDnsName(toUtf8Bytes('\u0003eth\u0000'))).toBe('eth');
    expect(decodeDnsName(new Uint8Array(Buffer.from(dnsEncode('🙂.oak.eth').slice(2), 'hex')))).toBe('🙂.oak.eth');
  });

  it('returns a name that is not normalised as it is (normalisation is the next step)', () => {
    expect(decodeDnsName(bytes(5, 'Alice', 3, 'OAK', 3, 'eth', 0))).toBe('Alice.OAK.eth');
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

describe(decodeResolveCall.name, () => {
  const dns = dnsEncode('alice.oak.eth');

  it('decodes each answered inner call, normalising the name', () => {
    const raw = hexlify(bytes(5, 'Alice', 3, 'OAK', 3, 'eth', 0));
    expect(decodeResolveCall(resolveCall(raw, addr()))).toEqual({
      name: 'alice.oak.eth',
      node: NODE,
      queries: [{ kind: 'addr' }],
      multicall: false,
    });
    const coin = iface.encodeFunctionData('addr(bytes32,uint256)', [NODE, 2147492101n]);
    expect(decodeResolveCall(resolveCall(dns, coin)).queries).toEqual([{ kind: 'addrCoin', coinType: 2147492101n }]);
    const text = iface.encodeFunctionData('text', [NODE, 'com.github']);
    expect(decodeResolveCall(resolveCall(dns, text)).queries).toEqual([{ kind: 'text', key: 'com.github' }]);
    const ch = iface.encodeFunctionData('contenthash', [NODE]);
    expect(decodeResolveCall(resolveCall(dns, ch)).queries).toEqual([{ kind: 'contenthash' }]);
    const multi = iface.encodeFunctionData('multicall', [[addr(), text, coin]]);
    expect(decodeResolveCall(resolveCall(dns, multi))).toMatchObject({
      multicall: true,
      queries: [{ kind: 'addr' }, { kind: 'text', key: 'com.github' }, { kind: 'addrCoin', coinType: 2147492101n }],
    });
    expect(decodeResolveCall(resolveCall(dns, iface.encodeFunctionData('multicall', [[]]))).queries).toEqual([]);
  });

  it('accepts upper-case hex and parent names of any depth', () => {
    const call = resolveCall(dnsEncode('oak.eth'), addr(namehash('oak.eth')));
    expect(decodeResolveCall(`0x${call.slice(2).toUpperCase()}`).name).toBe('oak.eth');
  });

  it('refuses a node that is not the namehash of the name, naming the call', () => {
    expect(refusal(() => decodeResolveCall(resolveCall(dns, addr(namehash('bob.oak.eth')))))).toEqual({
      field: 'data.node',
      message: `is ${namehash('bob.oak.eth')}, not the namehash of alice.oak.eth (${NODE})`,
      unsupported: false,
    });
    // The raw (not normalised) name's namehash is not the name's node either.
    const raw = hexlify(bytes(5, 'Alice', 3, 'oak', 3, 'eth', 0));
    const rawNode = ['eth', 'oak', 'Alice'].reduce(
      (node, label) => keccak256(concat([node, keccak256(toUtf8Bytes(label))])),
      ZeroHash as string,
    );
    expect(rawNode).not.toBe(NODE);
    expect(refusal(() => decodeResolveCall(resolveCall(raw, addr(rawNode)))).field).toBe('data.node');
    const multi = iface.encodeFunctionData('multicall', [[addr(), addr(namehash('oak.eth'))]]);
    expect(refusal(() => decodeResolveCall(resolveCall(dns, multi))).field).toBe('data.calls[1].node');
  });

  it('marks an inner function it does not answer as unsupported, nested multicall included', () => {
    const pubkey = iface.encodeFunctionData('pubkey', [NODE]);
    expect(refusal(() => decodeResolveCall(resolveCall(dns, pubkey)))).toMatchObject({
      field: 'data.call',
      unsupported: true,
      message: expect.stringContaining('calls 0xc8690233; the gateway answers addr(bytes32), addr(bytes32,uint256)'),
    });
    const nested = iface.encodeFunctionData('multicall', [[addr(), iface.encodeFunctionData('multicall', [[]])]]);
    expect(refusal(() => decodeResolveCall(resolveCall(dns, nested)))).toMatchObject({
      field: 'data.calls[1]',
      unsupported: true,
    });
  });

  it('refuses calldata that is not a resolve call, or does not decode', () => {
    const fine = resolveCall(dns, addr());
    const cases: [string, string, string][] = [
      ['0x', 'data', 'is not a resolve(bytes,bytes) call (selector 0x9061b923)'],
      ['0x9061b9', 'data', 'is not a resolve(bytes,bytes) call (selector 0x9061b923)'],
      [addr(), 'data', 'is not a resolve(bytes,bytes) call (selector 0x9061b923)'],
      ['0x9061b92', 'data', 'must be 0x-prefixed hex bytes'],
      ['9061b923', 'data', 'must be 0x-prefixed hex bytes'],
      [RESOLVE_SELECTOR, 'data', 'does not decode as resolve(bytes,bytes)'],
      [fine.slice(0, 200), 'data', 'does not decode as resolve(bytes,bytes)'],
      [resolveCall(dns, '0x3b3b'), 'data.call', 'is shorter than a function selector'],
      [resolveCall(dns, addr().slice(0, 40)), 'data.call', 'does not decode as addr(bytes32)'],
      [resolveCall('0x05616c696365', addr()), 'data.name', 'is truncated: it ends before its zero-length root label'],
    ];
    for (const [data, field, message] of cases) {
      expect([data.slice(0, 20), refusal(() => decodeResolveCall(data))]).toEqual([
        data.slice(0, 20),
        { field, message, unsupported: false },
      ]);
    }
  });

  it('refuses a name ENSIP-15 refuses, and a text key that is not UTF-8', () => {
    expect(refusal(() => decodeResolveCall(resolveCall(hexlify(bytes(3, 'a b', 3, 'eth', 0)), addr())))).toMatchObject({
      field: 'data.name',
      message: expect.stringMatching(/^is not a valid ENS name \(ENSIP-15: /),
    });
    const text = iface.encodeFunctionData('text', [NODE, 'ab']);
    const broken = text.replace('6162', 'fffe');
    expect(refusal(() => decodeResolveCall(resolveCall(dns, broken)))).toEqual({
      field: 'data.call',
      message: 'does not decode as text(bytes32,string)',
      unsupported: false,
    });
  });
});

describe('answer encodings (hand-checked ABI layouts)', () => {
  it('addr(bytes32): the address in one word', () => {
    expect(encodeResult({ kind: 'addr' }, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(
      `0x${'00'.repeat(12)}5aaeb6053f3e94c9b9a09f33669435e7ef1beaed`,
    );
  });

  it('addr(bytes32,uint256): bytes, e.g. the ENSIP-9 btc vector of 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', () => {
    const p2pkh = '76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac';
    expect(encodeResult({ kind: 'addrCoin', coinType: 0n }, `0x${p2pkh}`)).toBe(
      `0x${word(0x20)}${word(25)}${p2pkh}${'00'.repeat(7)}`,
    );
    expect(encodeResult({ kind: 'addrCoin', coinType: 0n }, '0x')).toBe(`0x${word(0x20)}${word(0)}`);
  });

  it('text(bytes32,string): the UTF-8 string', () => {
    expect(encodeResult({ kind: 'text', key: 'com.github' }, 'alice')).toBe(
      `0x${word(0x20)}${word(5)}616c696365${'00'.repeat(27)}`,
    );
    expect(encodeResult({ kind: 'text', key: 'x' }, '')).toBe(`0x${word(0x20)}${word(0)}`);
  });

  it('contenthash(bytes32): the ENSIP-7 bytes', () => {
    const ipfs = 'e3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f';
    expect(encodeResult({ kind: 'contenthash' }, `0x${ipfs}`)).toBe(
      `0x${word(0x20)}${word(38)}${ipfs}${'00'.repeat(26)}`,
    );
  });

  it('multicall(bytes[]): each result as bytes, in order', () => {
    const a = `0x${word(1)}`;
    const b = '0xabcd';
    expect(encodeMulticallResult([a, b])).toBe(
      `0x${word(0x20)}${word(2)}${word(0x40)}${word(0x80)}${word(32)}${word(1)}${word(2)}abcd${'00'.repeat(30)}`,
    );
  });

  it('the gateway response: abi.encode(bytes result, uint64 expires, bytes signature)', () => {
    const result = `0x${word(7)}`;
    const signature = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`;
    const encoded = encodeGatewayResponse(result, 1795500900n, signature);
    expect(encoded).toBe(
      `0x${word(0x60)}${word(1795500900)}${word(0xa0)}${word(32)}${word(7)}${word(65)}${'11'.repeat(32)}${'22'.repeat(32)}1b${'00'.repeat(31)}`,
    );
    expect(AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], encoded).toArray()).toEqual([
      result,
      1795500900n,
      signature,
    ]);
    expect(zeroPadValue('0x01', 32)).toBe(`0x${word(1)}`);
  });
});
