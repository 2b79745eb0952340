import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evmCoinTypeToNameMap } from '@ensdomains/address-encoder';
import { AbiCoder, dnsEncode, namehash, recoverAddress, toUtf8Bytes, Wallet } from 'ethers';
import fc from 'fast-check';
import request from 'supertest';
import {
  ANSWER_BASE_BYTES,
  ANSWER_PER_REQUEST_BYTE,
  answerLimit,
  MAX_ANSWER_BYTES,
} from '../src/resolution/record-answers';
import { MAX_MULTICALL_CALLS } from '../src/resolution/request-decoding';
import { sharedOffsetMulticall, sharedOffsetMulticallArb } from './fuzz/generators';
import { ccipAnswerDigest } from './support/ccip-reference';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';
import { RESOLVER_CALLS } from './support/calldata';

/**
 * The gateway's bounds on one answer: a multicall of more than MAX_MULTICALL_CALLS calls, or one whose answer
 * would pass MAX_ANSWER_BYTES, is a small 400 naming the bound; anything within both is answered in full.
 */
const gateway = Wallet.createRandom();
const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const coder = AbiCoder.defaultAbiCoder();
const iface = RESOLVER_CALLS;
/** The longest text value: 2,000 characters of four UTF-8 bytes each. */
const LONGEST = '😀'.repeat(2000);
const FULL_KEYS = Array.from({ length: 50 }, (_, i) => `com.k${i}`);
const EVM_COINS = Object.keys(evmCoinTypeToNameMap).map(Number);
const COUNT_REFUSAL = (n: number) => `is a multicall of ${n} calls; the gateway answers at most ${MAX_MULTICALL_CALLS}`;
const SIZE_REFUSAL = `asks for answers of more than ${MAX_ANSWER_BYTES} bytes, the most one gateway answer holds`;
/** The refusal of an answer over its request's relative bound; `data` is the request's 0x-hex calldata. */
const RELATIVE_REFUSAL = (data: string) => {
  const size = (data.length - 2) / 2;
  return (
    `asks for answers of more than ${answerLimit(size)} bytes, the most a request of ${size} bytes gets ` +
    `(${ANSWER_PER_REQUEST_BYTE} times its size plus ${ANSWER_BASE_BYTES})`
  );
};
const padded = (n: number) => Math.ceil(n / 32) * 32;

describe('CCIP-Read gateway bounds on one answer (calls per multicall, bytes per answer)', () => {
  let t: TestApp;
  const LONG = 'long.oak.eth';
  const FULL = 'full.oak.eth';
  /** The text values stored on long.oak.eth, by key. */
  const longTexts: Record<string, string> = { 'com.long': LONGEST, url: 'https://long.example' };

  beforeAll(async () => {
    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ccip-bounds-')),
      CCIP_SIGNER_KEY: gateway.privateKey,
      RATE_LIMIT_PER_IP: '100000',
    });
    const { key } = await t.issueKey(['oak.eth']);
    const texts = (entries: Record<string, string>) => Object.entries(entries).map(([k, value]) => ({ key: k, value }));
    // The batch route takes the 400 KB body of a name with every text at its longest.
    const res = await request(t.http)
      .post('/api/v1/subnames/batch')
      .set('x-auth-token', key)
      .send({
        items: [
          { parentName: 'oak.eth', label: 'long', texts: texts(longTexts), addresses: [{ coin: 60, value: ETH }] },
          {
            parentName: 'oak.eth',
            label: 'full',
            texts: FULL_KEYS.map((k) => ({ key: k, value: LONGEST })),
            addresses: [60, ...EVM_COINS].map((coin) => ({ coin, value: ETH })),
            contenthash: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
          },
        ],
      });
    expect(res.status).toBe(200);
  });
  afterAll(() => t.close());

  const post = (data: string) => request(t.http).post('/api/v1/ccip-read').send({ sender: SENDER, data });
  /** The signed result, after checking the signature. */
  const result = (answer: string, data: string): string => {
    const [value, expires, signature] = coder.decode(['bytes', 'uint64', 'bytes'], answer);
    expect(recoverAddress(ccipAnswerDigest(SENDER, expires, data, value), signature)).toBe(gateway.address);
    return value as string;
  };
  const text = (name: string, key: string) => iface.encodeFunctionData('text', [namehash(name), key]);
  const multicall = (name: string, calls: string[]) =>
    iface.encodeFunctionData('resolve', [dnsEncode(name), iface.encodeFunctionData('multicall', [calls])]);
  const expectRefusal = (res: request.Response, message: string) => {
    expect([res.status, res.body.code, res.body.errors]).toEqual([
      400,
      'VALIDATION_FAILED',
      [{ field: 'data.call', message }],
    ]);
    expect(res.text.length).toBeLessThan(1024);
  };

  it('refuses the amplifying request: 900 heads pointing at one long text() call, in a 58 KB body', async () => {
    const [attack] = fc.sample(sharedOffsetMulticallArb(LONG, ['com.long'], fc.constant(900)), { numRuns: 1, seed: 1 });
    const body = JSON.stringify({ sender: SENDER, data: attack.data });
    expect(body.length).toBeGreaterThan(55_000);
    expect(body.length).toBeLessThan(64 * 1024);
    expectRefusal(await post(attack.data), COUNT_REFUSAL(900));
  });

  it(`answers ${MAX_MULTICALL_CALLS} calls and refuses one more, by POST and by GET`, async () => {
    const addr = iface.encodeFunctionData('addr(bytes32)', [namehash(LONG)]);
    const most = multicall(LONG, new Array<string>(MAX_MULTICALL_CALLS).fill(addr));
    const res = await post(most).expect(200);
    const [parts] = coder.decode(['bytes[]'], result(res.body.data, most));
    expect(parts).toHaveLength(MAX_MULTICALL_CALLS);
    expect(coder.decode(['address'], parts[MAX_MULTICALL_CALLS - 1])[0]).toBe(ETH);
    const more = multicall(LONG, new Array<string>(MAX_MULTICALL_CALLS + 1).fill(addr));
    expectRefusal(await post(more), COUNT_REFUSAL(MAX_MULTICALL_CALLS + 1));
    // A URL holds it only with shared offsets: 129 heads and one call.
    const arb = sharedOffsetMulticallArb(LONG, [], fc.constant(MAX_MULTICALL_CALLS + 1));
    const [shared] = fc.sample(arb, { numRuns: 1, seed: 1 });
    expectRefusal(
      await request(t.http).get(`/api/v1/ccip-read/${SENDER}/${shared.data}.json`),
      COUNT_REFUSAL(MAX_MULTICALL_CALLS + 1),
    );
  });

  it('answers a multicall of one long text as far as the byte bound allows, refuses one call more', async () => {
    // Each call answers abi.encode(string) of 8,000 bytes, plus its offset and length words in the bytes[].
    const perCall = 32 + 32 + (32 + 32 + 8000);
    const fits = Math.floor((MAX_ANSWER_BYTES - 64) / perCall);
    const data = multicall(LONG, new Array<string>(fits).fill(text(LONG, 'com.long')));
    const res = await post(data).expect(200);
    const value = result(res.body.data, data);
    expect((value.length - 2) / 2).toBe(64 + fits * perCall);
    // The whole response: the result and the signature as hex, in JSON.
    expect(res.text.length).toBeLessThan(2 * MAX_ANSWER_BYTES + 1024);
    const [parts] = coder.decode(['bytes[]'], value);
    expect(coder.decode(['string'], parts[fits - 1])[0]).toBe(LONGEST);
    expectRefusal(await post(multicall(LONG, new Array<string>(fits + 1).fill(text(LONG, 'com.long')))), SIZE_REFUSAL);
  });

  /** resolve(LONG, multicall) whose `heads` heads all point at one text(LONG, 'com.long') call of 8,000 bytes. */
  const sharedLongText = (heads: number) =>
    iface.encodeFunctionData('resolve', [
      dnsEncode(LONG),
      sharedOffsetMulticall([text(LONG, 'com.long')], new Array<number>(heads).fill(0)),
    ]);
  /** The answer's size: the bytes[] words, and per head its offset and abi.encode(string) of 8,000 bytes. */
  const sharedAnswerSize = (heads: number) => 64 + heads * (32 + 32 + 32 + 32 + 8000);

  it('refuses a 2.5 KB request whose shared heads ask for a 480 KB answer, naming the relative bound', async () => {
    const data = sharedLongText(59);
    const size = (data.length - 2) / 2;
    expect(size).toBeLessThan(2600);
    // Inside the absolute bound, about 190 times the request.
    expect(sharedAnswerSize(59)).toBeLessThan(MAX_ANSWER_BYTES);
    expect(sharedAnswerSize(59) / size).toBeGreaterThan(180);
    expectRefusal(await post(data), RELATIVE_REFUSAL(data));
    expect(answerLimit(size)).toBe(ANSWER_PER_REQUEST_BYTE * size + ANSWER_BASE_BYTES);
    expectRefusal(await request(t.http).get(`/api/v1/ccip-read/${SENDER}/${data}.json`), RELATIVE_REFUSAL(data));
  });

  it('answers a shared-offset multicall up to 64 times its size plus 16 KB, refuses one head more', async () => {
    const within = (heads: number) => sharedAnswerSize(heads) <= answerLimit((sharedLongText(heads).length - 2) / 2);
    let heads = 1;
    while (within(heads + 1)) heads++;
    expect(heads).toBeGreaterThan(2);
    const answered = sharedLongText(heads);
    const res = await post(answered).expect(200);
    const [parts] = coder.decode(['bytes[]'], result(res.body.data, answered));
    expect(parts).toHaveLength(heads);
    expect(coder.decode(['string'], parts[heads - 1])[0]).toBe(LONGEST);
    expectRefusal(await post(sharedLongText(heads + 1)), RELATIVE_REFUSAL(sharedLongText(heads + 1)));
  });

  it('answers every record of a name holding the longest texts there are, each asked once', async () => {
    const node = namehash(FULL);
    const calls = [
      ...FULL_KEYS.map((k) => text(FULL, k)),
      ...[60, ...EVM_COINS].map((coin) => iface.encodeFunctionData('addr(bytes32,uint256)', [node, coin])),
      iface.encodeFunctionData('addr(bytes32)', [node]),
      iface.encodeFunctionData('contenthash', [node]),
    ];
    const data = multicall(FULL, calls);
    const res = await post(data).expect(200);
    const [parts] = coder.decode(['bytes[]'], result(res.body.data, data));
    expect(parts).toHaveLength(calls.length);
    expect(FULL_KEYS.map((_, i) => coder.decode(['string'], parts[i])[0])).toEqual(FULL_KEYS.map(() => LONGEST));
    expect(coder.decode(['bytes'], parts[50])[0]).toBe(ETH.toLowerCase());
    // Signed on the signing thread, as production signs.
    await expectSignedOnTheThread(t);
  });

  it('answers or refuses 40 generated shared-offset multicalls exactly as the two bounds say', async () => {
    const keys = [...Object.keys(longTexts), 'missing'];
    const fits = Math.floor((MAX_ANSWER_BYTES - 64) / (64 + 64 + 8000));
    const count = fc.oneof(
      fc.integer({ min: 0, max: 900 }),
      fc.constantFrom(MAX_MULTICALL_CALLS, MAX_MULTICALL_CALLS + 1, fits, fits + 1),
      fc.integer({ min: fits - 3, max: MAX_MULTICALL_CALLS + 3 }),
    );
    const node = namehash(LONG);
    /** The length of the answer to each shared call, as the gateway encodes it. */
    const answerLength = (call: string) => {
      if (call === iface.encodeFunctionData('addr(bytes32)', [node])) return 32;
      if (call === iface.encodeFunctionData('contenthash', [node])) return 64;
      const key = iface.decodeFunctionData('text', call)[1] as string;
      return 64 + padded(toUtf8Bytes(longTexts[key] ?? '').length);
    };
    const tally = { answered: 0, calls: 0, bytes: 0 };
    await fc.assert(
      fc.asyncProperty(sharedOffsetMulticallArb(LONG, keys, count), async ({ data, calls }) => {
        const res = await post(data);
        if (calls.length > MAX_MULTICALL_CALLS) {
          tally.calls++;
          return expectRefusal(res, COUNT_REFUSAL(calls.length));
        }
        const size = calls.reduce((sum, call) => sum + 64 + padded(answerLength(call)), 64);
        if (size > answerLimit((data.length - 2) / 2)) {
          tally.bytes++;
          const absolute = answerLimit((data.length - 2) / 2) === MAX_ANSWER_BYTES;
          return expectRefusal(res, absolute ? SIZE_REFUSAL : RELATIVE_REFUSAL(data));
        }
        expect(res.status).toBe(200);
        tally.answered++;
        const [parts] = coder.decode(['bytes[]'], result(res.body.data, data));
        expect(parts.map((p: string) => (p.length - 2) / 2)).toEqual(calls.map(answerLength));
      }),
      { seed: 20261125, numRuns: 40 },
    );
    // Every outcome is reached.
    expect(Object.values(tally).every((n) => n > 0)).toBe(true);
  });
});
