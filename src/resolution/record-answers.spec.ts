import { AbiCoder, hexlify, namehash, ZeroAddress } from 'ethers';
import type { SubnameRecords } from '../subnames/subnames.service';
import { answerBytes, isEvmCoinType, MAX_ANSWER_BYTES } from './record-answers';
import type { RecordQuery, ResolveRequest } from './request-decoding';
import { CalldataError } from './resolution.errors';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const DEFAULT_EVM = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BASE = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';

const coder = AbiCoder.defaultAbiCoder();

function request(queries: RecordQuery[], multicall = false): ResolveRequest {
  return { name: 'alice.oak.eth', node: namehash('alice.oak.eth'), queries, multicall };
}

/** The value the gateway answers one query with, decoded by ethers. */
function queryValue(query: RecordQuery, r: SubnameRecords | null): string {
  const type = query.kind === 'addr' ? 'address' : query.kind === 'text' ? 'string' : 'bytes';
  return coder.decode([type], answerBytes(request([query]), r))[0] as string;
}

/** addr(node, coinType)'s answer: the address in its ENSIP-9 binary form, 0x when none. */
const addressBytes = (r: SubnameRecords | null, coinType: bigint) => queryValue({ kind: 'addrCoin', coinType }, r);

function records(over: Partial<SubnameRecords> = {}): SubnameRecords {
  return {
    texts: { avatar: 'https://example.com/a.png', 'com.github': 'alice' },
    addresses: {
      '60': ETH,
      '0': '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '501': '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
      '2147492101': BASE,
      '2147483648': DEFAULT_EVM,
    },
    contenthash: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
    ttl: 3600,
    ...over,
  };
}

describe('record answers', () => {
  it('gives an address in its ENSIP-9 binary form through @ensdomains/address-encoder', () => {
    // ENSIP-9's own vector: base58check P2PKH becomes its scriptPubKey.
    expect(addressBytes(records(), 0n)).toBe('0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac');
    expect(addressBytes(records(), 60n)).toBe(ETH.toLowerCase());
    expect(addressBytes(records(), 501n)).toBe('0x0198dedf006fd3198110f6a9f2be6e342b3a7df5e81c92fed4cbb81976b34ef6');
    expect(addressBytes(records(), 2147492101n)).toBe(BASE.toLowerCase());
  });

  it('answers an EVM coin type without its own record with the ENSIP-19 default address', () => {
    const op = 2147483658n;
    expect(addressBytes(records(), op)).toBe(DEFAULT_EVM.toLowerCase());
    // Coin 60 is Ethereum mainnet, chain 1, to ENSIP-19 (chainFromCoinType(60) = 1) and falls back too.
    const noEth = records({ addresses: { '2147483648': DEFAULT_EVM } });
    expect(addressBytes(noEth, 60n)).toBe(DEFAULT_EVM.toLowerCase());
    expect(queryValue({ kind: 'addr' }, noEth)).toBe(DEFAULT_EVM);
    // Its own record wins; the default answers for itself; non-EVM coins never fall back.
    expect(addressBytes(records(), 2147492101n)).toBe(BASE.toLowerCase());
    expect(addressBytes(noEth, 2147483648n)).toBe(DEFAULT_EVM.toLowerCase());
    expect(addressBytes(noEth, 0n)).toBe('0x');
    expect(addressBytes(records({ addresses: {} }), op)).toBe('0x');
  });

  it('knows which coin types are EVM (ENSIP-19 chainFromCoinType > 0)', () => {
    expect([60n, 2147483649n, 2147492101n, 4294967295n].map(isEvmCoinType)).toEqual([true, true, true, true]);
    expect([0n, 61n, 501n, 2147483648n, 4294967296n, 2n ** 255n].map(isEvmCoinType)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('answers empty values for missing records and for a name that is not stored', () => {
    const queries: RecordQuery[] = [
      { kind: 'addr' },
      { kind: 'addrCoin', coinType: 2n },
      { kind: 'addrCoin', coinType: 2n ** 200n },
      { kind: 'text', key: 'url' },
      { kind: 'contenthash' },
    ];
    expect(queries.map((q) => queryValue(q, null))).toEqual([ZeroAddress, '0x', '0x', '', '0x']);
    const bare = records({ texts: {}, addresses: {}, contenthash: null });
    expect(queries.map((q) => queryValue(q, bare))).toEqual([ZeroAddress, '0x', '0x', '', '0x']);
  });

  it('answers texts by own key only (no prototype names)', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(queryValue({ kind: 'text', key }, records())).toBe('');
    }
    expect(queryValue({ kind: 'text', key: 'com.github' }, records())).toBe('alice');
  });

  it('gives the contenthash as ENSIP-7 bytes through @ensdomains/content-hash', () => {
    expect(queryValue({ kind: 'contenthash' }, records())).toBe(
      '0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f',
    );
  });

  it('encodes one result, or bytes[] for a multicall', () => {
    const single = answerBytes(request([{ kind: 'addr' }]), records());
    expect(coder.decode(['address'], single)[0]).toBe(ETH);
    const multi = answerBytes(
      request([{ kind: 'text', key: 'avatar' }, { kind: 'addrCoin', coinType: 0n }, { kind: 'addr' }], true),
      records(),
    );
    const [parts] = coder.decode(['bytes[]'], multi);
    expect(coder.decode(['string'], parts[0])[0]).toBe('https://example.com/a.png');
    expect(coder.decode(['bytes'], parts[1])[0]).toBe('0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac');
    expect(coder.decode(['address'], parts[2])[0]).toBe(ETH);
  });

  describe('the answer size bound', () => {
    // 2,000 characters of four UTF-8 bytes each: the longest value a text record holds.
    const longest = '😀'.repeat(2000);
    const full = records({
      texts: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`com.k${i}`, longest])),
      addresses: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [String(2147483649 + i), BASE])),
    });
    const textCalls = (n: number): RecordQuery[] => Array.from({ length: n }, () => ({ kind: 'text', key: 'com.k0' }));

    it('answers every record of the fullest name, each asked once', () => {
      const queries: RecordQuery[] = [
        ...Object.keys(full.texts).map((key) => ({ kind: 'text' as const, key })),
        ...Object.keys(full.addresses).map((coin) => ({ kind: 'addrCoin' as const, coinType: BigInt(coin) })),
        { kind: 'addr' },
        { kind: 'contenthash' },
      ];
      expect(queries).toHaveLength(102);
      const answer = answerBytes(request(queries, true), full);
      expect(answer.length).toBeGreaterThan(400_000);
      expect(answer.length).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
      const [parts] = coder.decode(['bytes[]'], answer);
      expect(coder.decode(['string'], parts[49])[0]).toBe(longest);
      expect(coder.decode(['bytes'], parts[99])[0]).toBe(BASE.toLowerCase());
    });

    it('answers a multicall whose answer just fits, refuses one call more, naming the bound', () => {
      // Each call answers 8,064 bytes in its string encoding, plus two words in the bytes[] around it.
      const perCall = 2 * 32 + 32 + 32 + 8000;
      const fits = Math.floor((MAX_ANSWER_BYTES - 64) / perCall);
      expect(answerBytes(request(textCalls(fits), true), full)).toHaveLength(64 + fits * perCall);
      let refusal: unknown;
      try {
        answerBytes(request(textCalls(fits + 1), true), full);
      } catch (e) {
        refusal = e;
      }
      expect(refusal).toBeInstanceOf(CalldataError);
      expect(refusal).toMatchObject({
        field: 'data.call',
        message: `asks for answers of more than ${MAX_ANSWER_BYTES} bytes, the most one gateway answer holds`,
      });
    });

    it('leaves a single call alone: one record is always far below the bound', () => {
      expect(hexlify(answerBytes(request(textCalls(1)), full)).length).toBe(2 + 2 * (64 + 8000));
    });
  });
});
