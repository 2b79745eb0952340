import { concat, dnsEncode, hexlify, keccak256, namehash, toUtf8Bytes, ZeroHash } from 'ethers';
import { calldataBytes, decodeResolveBytes, MAX_MULTICALL_CALLS } from './request-decoding';
import { bytes, refusal, RESOLVER_CALLS } from '../../test/support/calldata';

const iface = RESOLVER_CALLS;
const NODE = namehash('alice.oak.eth');
const resolveCall = (dns: string, inner: string) => iface.encodeFunctionData('resolve', [dns, inner]);
const addr = (node = NODE) => iface.encodeFunctionData('addr(bytes32)', [node]);
/** The gateway's two steps from hex calldata: its bytes, then what they ask. */
const decodeResolveCall = (data: string) => decodeResolveBytes(calldataBytes(data));

describe(decodeResolveBytes.name, () => {
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
      ['0x9061b923', 'data', 'does not decode as resolve(bytes,bytes)'],
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

  describe('the multicall bound', () => {
    const text = iface.encodeFunctionData('text', [NODE, 'avatar']);
    const word = (n: number) => n.toString(16).padStart(64, '0');
    /** multicall(bytes[]) of n calls whose heads all point at one shared text() call, as an attacker lays it out. */
    const sharedOffsets = (n: number) => {
      const call = text.slice(2);
      const tail = `${word(call.length / 2)}${call.padEnd(Math.ceil(call.length / 64) * 64, '0')}`;
      return `0xac9650d8${word(0x20)}${word(n)}${word(n * 32).repeat(n)}${tail}`;
    };

    it(`answers ${MAX_MULTICALL_CALLS} calls, shared offsets included`, () => {
      const request = decodeResolveCall(resolveCall(dnsEncode('alice.oak.eth'), sharedOffsets(MAX_MULTICALL_CALLS)));
      expect(request.queries).toHaveLength(MAX_MULTICALL_CALLS);
      expect(new Set(request.queries.map((q) => JSON.stringify(q)))).toEqual(
        new Set(['{"kind":"text","key":"avatar"}']),
      );
    });

    it('refuses one call more, naming the bound, whether laid out by ethers or with shared offsets', () => {
      const many = iface.encodeFunctionData('multicall', [new Array<string>(MAX_MULTICALL_CALLS + 1).fill(text)]);
      const expected = {
        field: 'data.call',
        message: `is a multicall of ${MAX_MULTICALL_CALLS + 1} calls; the gateway answers at most ${MAX_MULTICALL_CALLS}`,
        unsupported: false,
      };
      expect(refusal(() => decodeResolveCall(resolveCall(dnsEncode('alice.oak.eth'), many)))).toEqual(expected);
      const shared = sharedOffsets(MAX_MULTICALL_CALLS + 1);
      expect(refusal(() => decodeResolveCall(resolveCall(dnsEncode('alice.oak.eth'), shared)))).toEqual(expected);
      // 62 KB of calldata asking 1,900 times for one record.
      expect(refusal(() => decodeResolveCall(resolveCall(dnsEncode('alice.oak.eth'), sharedOffsets(1900))))).toEqual({
        ...expected,
        message: `is a multicall of 1900 calls; the gateway answers at most ${MAX_MULTICALL_CALLS}`,
      });
    });

    it('counts the calls before reading any: calls that would not decode are not what is refused', () => {
      // Every head points past the end: read, the first call would refuse the multicall as undecodable.
      const n = MAX_MULTICALL_CALLS + 1;
      const broken = `0xac9650d8${word(0x20)}${word(n)}${word(0xffffff).repeat(n)}`;
      expect(refusal(() => decodeResolveCall(resolveCall(dnsEncode('alice.oak.eth'), broken))).message).toBe(
        `is a multicall of ${n} calls; the gateway answers at most ${MAX_MULTICALL_CALLS}`,
      );
      const fewer = `0xac9650d8${word(0x20)}${word(2)}${word(0xffffff).repeat(2)}`;
      expect(refusal(() => decodeResolveCall(resolveCall(dnsEncode('alice.oak.eth'), fewer))).message).toBe(
        'does not decode as multicall(bytes[])',
      );
    });

    it('still refuses, as ethers does, a count that claims more words than follow', () => {
      const claims = `0xac9650d8${word(0x20)}${word(10_000)}${word(0)}`;
      expect(refusal(() => decodeResolveCall(resolveCall(dnsEncode('alice.oak.eth'), claims))).message).toBe(
        'does not decode as multicall(bytes[])',
      );
    });
  });
});
