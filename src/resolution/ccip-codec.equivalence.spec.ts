/**
 * The hand-written CCIP-Read codec against its reference: the ethers-based code the gateway ran before (kept here,
 * verbatim in what it does), over generated valid calldata of every call shape, generated corrupted calldata,
 * generated answers and records. Seeded fast-check: thousands of runs each under `npm run test:deep`, a twentieth of
 * them under `npm test`.
 */
import { getCoderByCoinType } from '@ensdomains/address-encoder';
import {
  AbiCoder,
  ensNormalize,
  FunctionFragment,
  getAddress,
  getBytes,
  hexlify,
  Interface,
  isHexString,
  namehash,
  toUtf8Bytes,
  ZeroAddress,
} from 'ethers';
import fc from 'fast-check';
import { nameHashBytes } from '../common/ens/names';
import { contenthashBytes } from '../common/ens/records';
import type { SubnameRecords } from '../subnames/subnames.service';
import { utf8Bytes } from '../common/crypto/bytes';
import { ArgsReader } from './abi-reader';
import {
  encodeAddressResult,
  encodeBytesArrayResult,
  encodeBytesResult,
  encodeGatewayResponse,
  encodeStringResult,
} from './answer-encoding';
import { decodeName } from './dns-name';
import { answerBytes, COIN_TYPE_DEFAULT, isEvmCoinType } from './record-answers';
import {
  calldataBytes,
  decodeResolveBytes,
  MAX_MULTICALL_CALLS,
  type RecordQuery,
  type ResolveRequest,
} from './request-decoding';
import { CalldataError } from './resolution.errors';
import { runs, share } from '../../test/support/property-runs';

const SEED = 20261123;
const coder = AbiCoder.defaultAbiCoder();
/** The gateway's two steps from hex calldata: its bytes, then what they ask. */
const decodeResolveCall = (data: string) => decodeResolveBytes(calldataBytes(data));

// ---- The reference: the gateway's decoding and answers as they were, through ethers. ----

const RESOLVER_ABI = new Interface([
  'function resolve(bytes name, bytes data) view returns (bytes)',
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
  'function name(bytes32 node) view returns (string)',
  'function multicall(bytes[] data) returns (bytes[] results)',
]);
const fn = (signature: string): FunctionFragment => RESOLVER_ABI.getFunction(signature)!;
const RESOLVE = fn('resolve(bytes,bytes)');
const ADDR = fn('addr(bytes32)');
const ADDR_COIN = fn('addr(bytes32,uint256)');
const TEXT = fn('text(bytes32,string)');
const CONTENTHASH = fn('contenthash(bytes32)');
const NAME = fn('name(bytes32)');
const MULTICALL = fn('multicall(bytes[])');
const ANSWERED = [ADDR, ADDR_COIN, TEXT, CONTENTHASH, NAME, MULTICALL];
const ANSWERED_LIST = ANSWERED.map((f) => f.format('sighash')).join(', ');

function refDecodeArgs(fragment: FunctionFragment, data: string, field: string): unknown[] {
  try {
    return RESOLVER_ABI.decodeFunctionData(fragment, data).toArray(true) as unknown[];
  } catch {
    throw new CalldataError(field, `does not decode as ${fragment.format('sighash')}`);
  }
}

function refDecodeQuery(
  call: string,
  request: { name: string; node: string },
  fields: { call: string; node: string },
  allowMulticall: boolean,
): RecordQuery | string[] {
  const selector = call.slice(0, 10).toLowerCase();
  const fragment = ANSWERED.find((f) => f.selector === selector);
  if (call.length < 10) throw new CalldataError(fields.call, 'is shorter than a function selector');
  if (!fragment || (fragment === MULTICALL && !allowMulticall)) {
    throw new CalldataError(fields.call, `calls ${selector}; the gateway answers ${ANSWERED_LIST} (not nested)`, true);
  }
  const args = refDecodeArgs(fragment, call, fields.call);
  if (fragment === MULTICALL) {
    // The gateway's own bound, which ethers does not have (the generators stay below it; request-decoding.spec.ts
    // shows it refused before the elements are read).
    const calls = args[0] as string[];
    if (calls.length > MAX_MULTICALL_CALLS) {
      throw new CalldataError(
        fields.call,
        `is a multicall of ${calls.length} calls; the gateway answers at most ${MAX_MULTICALL_CALLS}`,
      );
    }
    return calls;
  }
  const node = args[0];
  if (typeof node !== 'string' || node.toLowerCase() !== request.node) {
    throw new CalldataError(fields.node, `is ${String(node)}, not the namehash of ${request.name} (${request.node})`);
  }
  if (fragment === ADDR) return { kind: 'addr' };
  if (fragment === ADDR_COIN) return { kind: 'addrCoin', coinType: args[1] as bigint };
  if (fragment === TEXT) return { kind: 'text', key: args[1] as string };
  if (fragment === NAME) return { kind: 'name' };
  return { kind: 'contenthash' };
}

function refDecodeResolveCall(data: string): ResolveRequest {
  if (!isHexString(data) || data.length % 2 !== 0) throw new CalldataError('data', 'must be 0x-prefixed hex bytes');
  const selector = data.slice(0, 10).toLowerCase();
  if (data.length < 10 || selector !== RESOLVE.selector) {
    throw new CalldataError('data', `is not a resolve(bytes,bytes) call (selector 0x9061b923)`);
  }
  const [dnsName, call] = refDecodeArgs(RESOLVE, data, 'data') as [string, string];
  // The name as every path of the service decodes and normalises it (dns-name.spec.ts); the node by ethers.
  const { name } = decodeName(getBytes(dnsName));
  const request = { name, node: namehash(name) };
  const top = refDecodeQuery(call, request, { call: 'data.call', node: 'data.node' }, true);
  if (!Array.isArray(top)) return { ...request, queries: [top], multicall: false };
  const queries = top.map(
    (element, i) =>
      refDecodeQuery(
        element,
        request,
        { call: `data.calls[${i}]`, node: `data.calls[${i}].node` },
        false,
      ) as RecordQuery,
  );
  return { ...request, queries, multicall: true };
}

function refAddressBytes(records: SubnameRecords | null, coinType: bigint): string {
  const stored = (c: bigint): Uint8Array | null => {
    if (!records || c > 0xffffffffn || !Object.hasOwn(records.addresses, String(c))) return null;
    try {
      return getCoderByCoinType(Number(c)).decode(records.addresses[String(c)]);
    } catch {
      return null;
    }
  };
  const own = stored(coinType);
  if (own) return hexlify(own);
  if (!isEvmCoinType(coinType)) return '0x';
  const fallback = stored(COIN_TYPE_DEFAULT);
  return fallback ? hexlify(fallback) : '0x';
}

function refAnswer(request: ResolveRequest, records: SubnameRecords | null): string {
  const results = request.queries.map((q) => {
    switch (q.kind) {
      case 'addr': {
        const bytes = refAddressBytes(records, 60n);
        return RESOLVER_ABI.encodeFunctionResult(ADDR, [bytes.length === 42 ? getAddress(bytes) : ZeroAddress]);
      }
      case 'addrCoin':
        return RESOLVER_ABI.encodeFunctionResult(ADDR_COIN, [refAddressBytes(records, q.coinType)]);
      case 'text':
        return RESOLVER_ABI.encodeFunctionResult(TEXT, [
          records && Object.hasOwn(records.texts, q.key) ? records.texts[q.key] : '',
        ]);
      case 'contenthash':
        return RESOLVER_ABI.encodeFunctionResult(CONTENTHASH, [
          records?.contenthash ? contenthashBytes(records.contenthash) : '0x',
        ]);
      case 'name':
        // No generated name is an address's reverse name: name() answers the empty string.
        return RESOLVER_ABI.encodeFunctionResult(NAME, ['']);
    }
  });
  return request.multicall ? RESOLVER_ABI.encodeFunctionResult(MULTICALL, [results]) : results[0];
}

// ---- Helpers ----

type Outcome<T> = { value: T } | { refused: { field: string; message: string; unsupported: boolean } };

/** What fn gives, or the CalldataError it throws (any other error fails the test). */
function outcome<T>(fn: () => T): Outcome<T> {
  try {
    return { value: fn() };
  } catch (e) {
    if (e instanceof CalldataError)
      return { refused: { field: e.field, message: e.message, unsupported: e.unsupported } };
    throw e;
  }
}

/** Whether fn throws, and what it returns otherwise. */
function thrownOr<T>(fn: () => T): { value: T } | { threw: true } {
  try {
    return { value: fn() };
  } catch {
    return { threw: true };
  }
}

const hex = (bytes: Uint8Array) => hexlify(bytes);
const bytes = (data: string) => getBytes(data);
const concatBytes = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const iface = RESOLVER_ABI;
const UINT256_MAX = (1n << 256n) - 1n;

// ---- Generators of calldata ----

/** Labels: mostly ones ENSIP-15 accepts (some only after normalising), and some it refuses or DNS cannot carry. */
const label = fc.oneof(
  { weight: 16, arbitrary: fc.stringMatching(/^[a-z0-9]{1,10}$/) },
  { weight: 2, arbitrary: fc.constantFrom('eth', 'oak', 'alice', 'Alice', 'OAK', 'ß', '🙂', 'café', '日本', 'xn--ab') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'a b', 'a_b', '_a', 'ab--cd', '\u200d', 'ǅ', 'a\u0301') },
);
const labels = fc.array(label, { minLength: 1, maxLength: 4 });

/** The DNS encoding of labels (a label over 255 bytes is cut); sometimes raw bytes instead. */
const dnsName = fc.oneof(
  { weight: 8, arbitrary: labels.map((ls) => dnsBytes(ls)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
);

function dnsBytes(ls: string[]): Uint8Array {
  const parts = ls.map((l) => {
    const b = Buffer.from(l, 'utf8').subarray(0, 255);
    return concatBytes(Uint8Array.of(b.length), b);
  });
  return concatBytes(...parts, Uint8Array.of(0));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The labels of a DNS encoding joined by dots (not normalised); throws where it is not one. */
function rawDnsName(dns: Uint8Array): string {
  const labels: string[] = [];
  for (let at = 0; at < dns.length; at += 1 + dns[at]) {
    if (dns[at] === 0 && at === dns.length - 1 && labels.length > 0) return labels.join('.');
    if (dns[at] === 0 || at + 1 + dns[at] > dns.length) break;
    const label = strictUtf8.decode(dns.subarray(at + 1, at + 1 + dns[at]));
    if (label.includes('.')) break;
    labels.push(label);
  }
  throw new Error('not a DNS-encoded name');
}

/** The node a well-formed call carries for this DNS name: its namehash, or a random one now and then. */
function nodeFor(dns: Uint8Array): string | null {
  try {
    return namehash(ensNormalize(rawDnsName(dns)));
  } catch {
    return null;
  }
}

const coinType = fc.oneof(
  fc.constantFrom(0n, 60n, 501n, 2147483648n, 2147492101n, 4294967295n, 4294967296n, UINT256_MAX, 1n << 255n),
  fc.bigInt({ min: 0n, max: UINT256_MAX }),
  fc.bigInt({ min: 0n, max: 0xffffffffn }),
);
const textKey = fc.oneof(
  fc.constantFrom('avatar', 'url', 'com.github', '', '__proto__', '\ufeffavatar'),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const randomNode = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);

/** One inner call (not a multicall) for `node`, sometimes with another node or an unanswered function. */
const singleCall = (node: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(iface.encodeFunctionData('addr(bytes32)', [node])) },
    {
      weight: 3,
      arbitrary: coinType.map((c) => iface.encodeFunctionData('addr(bytes32,uint256)', [node, c])),
    },
    { weight: 3, arbitrary: textKey.map((k) => iface.encodeFunctionData('text', [node, k])) },
    { weight: 2, arbitrary: fc.constant(iface.encodeFunctionData('contenthash', [node])) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        randomNode.map((n) => iface.encodeFunctionData('addr(bytes32)', [n])),
        fc.constant(iface.encodeFunctionData('name', [node])),
        // pubkey(bytes32), which the gateway does not answer.
        fc.constant(`0xc8690233${node.slice(2)}`),
        fc.uint8Array({ maxLength: 6 }).map(hex),
      ),
    },
  );

/** An inner call: a single call, or a multicall of several (rarely with a multicall nested in it). */
const innerCall = (node: string) =>
  fc.oneof(
    { weight: 3, arbitrary: singleCall(node) },
    {
      weight: 2,
      arbitrary: fc
        .array(
          fc.oneof(
            { weight: 12, arbitrary: singleCall(node) },
            { weight: 1, arbitrary: fc.constant(iface.encodeFunctionData('multicall', [[]])) },
          ),
          { maxLength: 5 },
        )
        .map((calls) => iface.encodeFunctionData('multicall', [calls])),
    },
  );

/** A resolve(bytes,bytes) call, valid ABI all through, with the parts to re-encode it after a change. */
interface Request {
  dns: Uint8Array;
  inner: string;
}
const request: fc.Arbitrary<Request> = dnsName.chain((dns) =>
  fc
    .oneof({ weight: 9, arbitrary: fc.constant(nodeFor(dns)) }, { weight: 1, arbitrary: randomNode })
    .chain((node) => innerCall(node ?? hex(new Uint8Array(32))))
    .map((inner) => ({ dns, inner })),
);
const resolveData = (r: Request) => iface.encodeFunctionData('resolve', [r.dns, r.inner]);

/** Words that make interesting offsets and lengths for ABI data of `length` bytes. */
const wordValue = (length: number) =>
  fc.oneof(
    fc.constantFrom(0n, 1n, 31n, 32n, 33n, 64n, 0x60n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, UINT256_MAX),
    fc.integer({ min: -64, max: 64 }).map((d) => BigInt(Math.max(0, length + d))),
    fc.bigInt({ min: 0n, max: UINT256_MAX }),
  );

/** A change to some bytes: truncation, bit flips, an overwritten word, bytes appended, inserted or removed. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    bit: fc.integer({ min: 0, max: 7 }),
  }),
  fc.record({ kind: fc.constant('word' as const), at: fc.nat(), value: fc.nat().chain((n) => wordValue(n % 400)) }),
  fc.record({ kind: fc.constant('append' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 70 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    extra: fc.uint8Array({ minLength: 1, maxLength: 40 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 40 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** Applies a mutation to calldata; a word is overwritten at a word boundary of the arguments (after the selector). */
function mutate(data: Uint8Array, m: Mutation): Uint8Array {
  const out = new Uint8Array(data);
  const len = data.length;
  switch (m.kind) {
    case 'truncate':
      return out.subarray(0, m.at % (len + 1));
    case 'flip':
      if (len === 0) return out;
      for (const at of m.at) out[at % len] ^= 1 << m.bit;
      return out;
    case 'word': {
      const words = Math.floor((len - 4) / 32);
      if (words <= 0) return out;
      const pos = 4 + (m.at % words) * 32;
      out.set(getBytes(coder.encode(['uint256'], [m.value])), pos);
      return out;
    }
    case 'append':
      return concatBytes(out, m.extra);
    case 'insert': {
      const at = m.at % (len + 1);
      return concatBytes(out.subarray(0, at), m.extra, out.subarray(at));
    }
    case 'remove': {
      const at = m.at % (len + 1);
      return concatBytes(out.subarray(0, at), out.subarray(at + m.n));
    }
  }
}

/** Where the change lands: the whole calldata, the inner call, or one call inside a multicall. */
function corrupt(r: Request, where: number, m: Mutation): string {
  const inner = bytes(r.inner);
  const isMulticall = r.inner.startsWith('0xac9650d8');
  switch (where % 3) {
    case 0:
      return hex(mutate(bytes(resolveData(r)), m));
    case 1:
      return iface.encodeFunctionData('resolve', [r.dns, mutate(inner, m)]);
    default: {
      if (!isMulticall) return iface.encodeFunctionData('resolve', [r.dns, mutate(inner, m)]);
      const calls = iface.decodeFunctionData('multicall', r.inner)[0] as string[];
      if (calls.length === 0) return hex(mutate(bytes(resolveData(r)), m));
      const i = (where >> 2) % calls.length;
      const changed = calls.map((c, j) => (j === i ? hex(mutate(bytes(c), m)) : c));
      return iface.encodeFunctionData('resolve', [r.dns, iface.encodeFunctionData('multicall', [changed])]);
    }
  }
}

// ---- The properties ----

describe('decodeResolveCall equals the ethers decoding it replaced', () => {
  it(`on ${runs(3000)} generated valid calls of every shape (names in many scripts, coin types to 2^256-1, multicalls)`, () => {
    const tally = { answered: 0, refused: 0, multicall: 0 };
    fc.assert(
      fc.property(request, (r) => {
        const data = resolveData(r);
        const fast = outcome(() => decodeResolveCall(data));
        expect(fast).toEqual(outcome(() => refDecodeResolveCall(data)));
        if ('value' in fast) {
          tally.answered++;
          if (fast.value.multicall) tally.multicall++;
        } else tally.refused++;
      }),
      { seed: SEED, numRuns: runs(3000) },
    );
    // The generators reach both sides often: most calls answer, many are refused for one reason or another.
    expect(tally.answered).toBeGreaterThan(share(1000, 3000));
    expect(tally.multicall).toBeGreaterThan(share(300, 3000));
    expect(tally.refused).toBeGreaterThan(share(400, 3000));
  });

  it(`on ${runs(5000)} corrupted calls: truncated, bit-flipped, offsets and lengths rewritten, bytes added or removed`, () => {
    const tally = new Map<string, number>();
    fc.assert(
      fc.property(request, fc.nat(), mutation, (r, where, m) => {
        const data = corrupt(r, where, m);
        const fast = outcome(() => decodeResolveCall(data));
        expect(fast).toEqual(outcome(() => refDecodeResolveCall(data)));
        const key = 'value' in fast ? 'answered' : fast.refused.message.startsWith('does not decode') ? 'abi' : 'other';
        tally.set(key, (tally.get(key) ?? 0) + 1);
      }),
      { seed: SEED, numRuns: runs(5000) },
    );
    // Both ABI refusals and tolerated changes (padding, trailing bytes, offsets elsewhere) are exercised.
    expect(tally.get('abi')).toBeGreaterThan(share(1000, 5000));
    expect(tally.get('answered')).toBeGreaterThan(share(400, 5000));
  });

  it('on arbitrary strings and byte strings given as calldata', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 12 }).map((t) => `0x${t}`),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxX g'), maxLength: 24 }).map((s) => `0x${s}`),
      fc.uint8Array({ maxLength: 200 }).map((b) => `0x9061b923${hex(b).slice(2)}`),
      fc.uint8Array({ maxLength: 200 }).map(hex),
    );
    fc.assert(
      fc.property(text, (data) => {
        expect(outcome(() => decodeResolveCall(data))).toEqual(outcome(() => refDecodeResolveCall(data)));
      }),
      { seed: SEED, numRuns: runs(3000) },
    );
  });
});

describe('non-canonical ABI: accepted or refused as ethers does', () => {
  const node = namehash('alice.oak.eth');
  const dns = dnsBytes(['alice', 'oak', 'eth']);
  const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
  const both = (data: string) => {
    const fast = outcome(() => decodeResolveCall(data));
    expect(fast).toEqual(outcome(() => refDecodeResolveCall(data)));
    return fast;
  };
  /** resolve(name, call) with the tail laid out by hand: heads, then the given tail words and bytes. */
  const outer = (nameOffset: number, callOffset: number, tail: string) =>
    `0x9061b923${word(nameOffset)}${word(callOffset)}${tail}`;
  const dnsTail = `${word(dns.length)}${hex(dns).slice(2).padEnd(64, '0')}`;
  const addr = iface.encodeFunctionData('addr(bytes32)', [node]).slice(2);
  const addrTail = `${word(36)}${addr.padEnd(128, '0')}`;

  it('accepts non-zero padding, trailing bytes, and offsets pointing back or at shared bytes', () => {
    const padded = outer(0x40, 0x80, `${word(dns.length)}${hex(dns).slice(2).padEnd(64, 'f')}${addrTail}`);
    expect(both(padded)).toMatchObject({ value: { name: 'alice.oak.eth' } });
    expect(both(`${outer(0x40, 0x80, `${dnsTail}${addrTail}`)}deadbeef`)).toMatchObject({ value: {} });
    // The call first, then the name; and the name's bytes read twice through two offsets is still one name.
    expect(both(outer(0x40 + 96, 0x40, `${addrTail}${dnsTail}`))).toMatchObject({
      value: { queries: [{ kind: 'addr' }] },
    });
  });

  it('refuses a length past the data, a padded length past the data, and offsets of 2^53 and beyond', () => {
    const refused = {
      refused: { field: 'data', message: 'does not decode as resolve(bytes,bytes)', unsupported: false },
    };
    expect(both(outer(0x40, 0x80, `${word(dns.length + 200)}${hex(dns).slice(2).padEnd(64, '0')}${addrTail}`))).toEqual(
      refused,
    );
    // 36 bytes of call with its padding cut: ethers reads whole words.
    expect(both(outer(0x40, 0x80, `${dnsTail}${word(36)}${addr}`))).toEqual(refused);
    expect(both(outer(2 ** 53, 0x80, `${dnsTail}${addrTail}`))).toEqual(refused);
    expect(both(`0x9061b923${'ff'.repeat(32)}${word(0x80)}${dnsTail}${addrTail}`)).toEqual(refused);
  });

  it('refuses a multicall whose count claims more words than follow', () => {
    const inner = `0xac9650d8${word(0x20)}${word(4)}${word(0)}`;
    expect(both(iface.encodeFunctionData('resolve', [dns, inner]))).toEqual({
      refused: { field: 'data.call', message: 'does not decode as multicall(bytes[])', unsupported: false },
    });
  });
});

describe('the inflation bound (ethers refuses ABI data that makes it read over 1024 times its length)', () => {
  const word = (n: number) => n.toString(16).padStart(64, '0');
  /** multicall(bytes[]) args whose n elements point, in turn, at a few shared byte strings. */
  const shared = (lengths: number[], picks: number[]) => {
    const n = picks.length;
    const starts: number[] = [];
    let tail = n * 32;
    for (const length of lengths) {
      starts.push(tail);
      tail += 32 + Math.ceil(length / 32) * 32;
    }
    const heads = picks.map((p) => word(starts[p % lengths.length])).join('');
    const tails = lengths.map((l) => `${word(l)}${'ab'.repeat(l).padEnd(Math.ceil(l / 32) * 64, '0')}`).join('');
    return `${word(0x20)}${word(n)}${heads}${tails}`;
  };
  const layout = fc.tuple(
    fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 3 }),
    fc.array(fc.nat(), { maxLength: 40 }),
  );

  it(`is the same rule as ethers: equal on ${runs(2000)} layouts of shared elements under limits of 1 to 6`, () => {
    const tally = { refused: 0, read: 0 };
    try {
      fc.assert(
        fc.property(layout, fc.integer({ min: 1, max: 6 }), ([lengths, picks], limit) => {
          const args = shared(lengths, picks);
          AbiCoder._setDefaultMaxInflation(limit);
          const reference = thrownOr(() => coder.decode(['bytes[]'], `0x${args}`).toArray(true)[0] as string[]);
          AbiCoder._setDefaultMaxInflation(1024);
          const fast = thrownOr(() => new ArgsReader(bytes(`0x${args}`), limit).bytesArrayAt(0).map(hex));
          expect(fast).toEqual(reference);
          if ('threw' in fast) tally.refused++;
          else tally.read++;
        }),
        { seed: SEED, numRuns: runs(2000) },
      );
    } finally {
      AbiCoder._setDefaultMaxInflation(1024);
    }
    expect(tally.refused).toBeGreaterThan(share(300, 2000));
    expect(tally.read).toBeGreaterThan(share(300, 2000));
  });

  it('refuses at 1024: 3,000 references to one element of 70,000 bytes (210 MB read from 166 KB)', () => {
    // ethers refuses this too, by the rule above, but exhausts the heap building its hex strings before it does.
    const many = `0xac9650d8${shared([70000], new Array<number>(3000).fill(0)).replace(/ab/g, '00')}`;
    // Well formed otherwise: a looser bound reads all 3,000.
    expect(new ArgsReader(bytes(many).subarray(4), 2048).bytesArrayAt(0)).toHaveLength(3000);
    expect(thrownOr(() => new ArgsReader(bytes(many).subarray(4)).bytesArrayAt(0))).toEqual({ threw: true });
    // The gateway counts the calls first and reads none of them.
    expect(
      outcome(() => decodeResolveCall(iface.encodeFunctionData('resolve', [dnsBytes(['a', 'eth']), many]))),
    ).toEqual({
      refused: {
        field: 'data.call',
        message: `is a multicall of 3000 calls; the gateway answers at most ${MAX_MULTICALL_CALLS}`,
        unsupported: false,
      },
    });
  });
});

describe(nameHashBytes.name, () => {
  it(`equals ethers namehash on ${runs(3000)} generated normalised names`, () => {
    const name = labels
      .map((ls) => ls.join('.'))
      .filter((n) => {
        try {
          return ensNormalize(n) === n && n.split('.').every((l) => l.length > 0);
        } catch {
          return false;
        }
      });
    fc.assert(
      fc.property(name, (n) => {
        expect(hex(nameHashBytes(n))).toBe(namehash(n));
      }),
      { seed: SEED, numRuns: runs(3000) },
    );
  });
});

describe('the encoders equal ethers AbiCoder', () => {
  const anyString = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
  );

  it(`UTF-8 bytes of ${runs(3000)} strings, lone surrogates included (refused or written as ethers does)`, () => {
    fc.assert(
      fc.property(anyString, (s) => {
        expect(thrownOr(() => hex(utf8Bytes(s)))).toEqual(thrownOr(() => hex(toUtf8Bytes(s))));
      }),
      { seed: SEED, numRuns: runs(3000) },
    );
  });

  it(`bytes, string, address, bytes[] and the gateway response over ${runs(3000)} generated values each`, () => {
    const blob = fc.uint8Array({ maxLength: 130 });
    fc.assert(
      fc.property(
        blob,
        anyString.filter((s) => 'value' in thrownOr(() => toUtf8Bytes(s))),
        fc.option(fc.uint8Array({ minLength: 20, maxLength: 20 })),
        fc.array(blob, { maxLength: 6 }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        blob,
        (b, s, address, list, expires, signature) => {
          expect(hex(encodeBytesResult(b))).toBe(coder.encode(['bytes'], [b]));
          expect(hex(encodeStringResult(s))).toBe(coder.encode(['string'], [s]));
          expect(hex(encodeAddressResult(address))).toBe(
            coder.encode(['address'], [address ? hex(address) : ZeroAddress]),
          );
          expect(hex(encodeBytesArrayResult(list))).toBe(coder.encode(['bytes[]'], [list]));
          const reference = coder.encode(['bytes', 'uint64', 'bytes'], [b, expires, signature]);
          expect(encodeGatewayResponse(b, expires, signature)).toBe(reference);
          expect(encodeGatewayResponse(hex(b), expires, hex(signature).toUpperCase().replace('0X', '0x'))).toBe(
            reference,
          );
        },
      ),
      { seed: SEED, numRuns: runs(3000) },
    );
  });

  it(`refuses an expiry outside uint64, and takes or refuses ${runs(2000)} hex-like strings as bytes as ethers does`, () => {
    for (const expires of [-1n, 1n << 64n]) {
      expect(() => coder.encode(['bytes', 'uint64', 'bytes'], ['0x', expires, '0x'])).toThrow();
      expect(() => encodeGatewayResponse('0x', expires, '0x')).toThrow();
    }
    const hexish = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxX g'), maxLength: 12 }).map((t) => `0x${t}`),
      fc.string({ unit: 'binary', maxLength: 8 }).map((t) => `0x${t}`),
      fc.string({ maxLength: 10 }),
    );
    fc.assert(
      fc.property(hexish, (value) => {
        expect(thrownOr(() => encodeGatewayResponse(value, 1n, '0x'))).toEqual(
          thrownOr(() => coder.encode(['bytes', 'uint64', 'bytes'], [value, 1n, '0x'])),
        );
      }),
      { seed: SEED, numRuns: runs(2000) },
    );
  });
});

describe('answerBytes equals the ethers answer it replaced', () => {
  const address20 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => getAddress(hex(b)));
  const btc = fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((h) => getCoderByCoinType(0).encode(getBytes(`0x76a914${hex(h).slice(2)}88ac`)));
  const sol = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((k) => getCoderByCoinType(501).encode(k));
  const addresses = fc.record(
    {
      '60': fc.oneof(address20, fc.constant('0xnot-an-address')),
      '0': btc,
      '501': sol,
      '2147483648': address20,
      '2147492101': address20,
      '2147483658': fc.oneof(address20, fc.constant('garbage')),
    },
    { requiredKeys: [] },
  );
  const texts = fc.dictionary(
    fc.oneof(fc.constantFrom('avatar', 'url', 'com.github'), fc.string({ maxLength: 8 })),
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    { maxKeys: 5 },
  );
  const contenthash = fc.constantFrom(
    null,
    'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
    'ipns://k51qzi5uqu5dgccx524mfjv7znyfsa6g3ggd2a9qhm7dsrnfm1o2bwk3rw9n5v',
    'swarm://d1de9994b4d039f6548d191eb26786769f580809256b4685ef316805265ea162',
  );
  const records = fc.option(
    fc.record({
      texts,
      addresses: addresses as fc.Arbitrary<Record<string, string>>,
      contenthash,
      ttl: fc.constant(60),
    }),
  );
  const query: fc.Arbitrary<RecordQuery> = fc.oneof(
    fc.constant({ kind: 'addr' as const }),
    fc
      .oneof(coinType, fc.constantFrom(0n, 60n, 501n, 2147483648n, 2147492101n, 2147483658n, 2147483649n))
      .map((c) => ({ kind: 'addrCoin' as const, coinType: c })),
    fc
      .oneof(fc.constantFrom('avatar', 'url', 'com.github', 'constructor'), fc.string({ maxLength: 8 }))
      .map((key) => ({ kind: 'text' as const, key })),
    fc.constant({ kind: 'contenthash' as const }),
  );

  it(`on ${runs(3000)} generated records and queries, single and multicall, the memos warm and cold`, () => {
    fc.assert(
      fc.property(records, fc.array(query, { minLength: 1, maxLength: 5 }), fc.boolean(), (r, queries, multi) => {
        const request: ResolveRequest = {
          name: 'alice.oak.eth',
          node: namehash('alice.oak.eth'),
          queries: multi ? queries : queries.slice(0, 1),
          multicall: multi,
        };
        const reference = refAnswer(request, r);
        expect(hex(answerBytes(request, r))).toBe(reference);
        expect(hex(answerBytes(request, r))).toBe(reference);
      }),
      { seed: SEED, numRuns: runs(3000) },
    );
  });
});
