import { AbiCoder, dnsEncode, namehash, recoverAddress, Wallet } from 'ethers';
import request from 'supertest';
import { ccipAnswerDigest } from './support/ccip-reference';
import { RESOLVER_CALLS } from './support/calldata';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

/** Answers a shared cache can keep (CONTRACT section 16): aligned expires, ETag and 304, Cache-Control, keys. */
const gateway = Wallet.createRandom();
const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const coder = AbiCoder.defaultAbiCoder();
const iface = RESOLVER_CALLS;
const ALICE = 'alice.oak.eth';
const addrCall = (name: string) =>
  iface.encodeFunctionData('resolve', [dnsEncode(name), iface.encodeFunctionData('addr(bytes32)', [namehash(name)])]);

describe('cacheable gateway answers', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ CCIP_SIGNER_KEY: gateway.privateKey, RESOLUTION_CACHE_SECONDS: '600' });
    key = (await t.issueKey(['oak.eth'])).key;
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: ETH }], ttl: 120 })
      .expect(201);
  });
  afterAll(() => t.close());
  // Answers are equal within one 60 s window of expires (a fifth of the 300 s lifetime); a test that compares two
  // answers starts at least 15 s before the window ends, so the window cannot turn between them.
  beforeEach(async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  });

  const get = (data: string, sender = SENDER) => request(t.http).get(`/api/v1/ccip-read/${sender}/${data}.json`);

  it('answers the same request in one window with the same bytes and ETag, signed, expires aligned', async () => {
    const data = addrCall(ALICE);
    const first = await get(data).expect(200);
    const second = await get(data, SENDER.toLowerCase()).expect(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const [result, expires, signature] = coder.decode(['bytes', 'uint64', 'bytes'], first.body.data as string);
    expect(recoverAddress(ccipAnswerDigest(SENDER, expires, data, result), signature)).toBe(gateway.address);
    expect(coder.decode(['address'], result)[0]).toBe(ETH);
    expect(Number(expires) % 60).toBe(0);
    // Signed on the signing thread, as production signs.
    await expectSignedOnTheThread(t);
  });

  it('GET: Cache-Control with s-maxage within the validity less 60 s, Surrogate-Key and Cache-Tag of the name', async () => {
    const res = await get(addrCall(ALICE)).expect(200);
    const [, expires] = coder.decode(['bytes', 'uint64', 'bytes'], res.body.data as string);
    const match = /^public, max-age=120, s-maxage=(\d+), stale-if-error=(\d+)$/.exec(res.headers['cache-control']);
    expect(match).not.toBeNull();
    const shared = Number(match![1]);
    expect(match![2]).toBe(match![1]);
    const remaining = Number(expires) - Math.floor(Date.now() / 1000);
    expect(shared).toBeGreaterThanOrEqual(remaining - 61);
    expect(shared).toBeLessThanOrEqual(remaining - 60 + 1);
    expect(res.headers['surrogate-key']).toBe(namehash(ALICE));
    expect(res.headers['cache-tag']).toBe(namehash(ALICE));
    // A multicall reads the one name its calls all name.
    const node = namehash(ALICE);
    const multi = iface.encodeFunctionData('resolve', [
      dnsEncode(ALICE),
      iface.encodeFunctionData('multicall', [
        [iface.encodeFunctionData('addr(bytes32)', [node]), iface.encodeFunctionData('text', [node, 'url'])],
      ]),
    ]);
    expect((await get(multi).expect(200)).headers['surrogate-key']).toBe(node);
  });

  it('If-None-Match naming the ETag (strong, weak or in a list) gets 304 without a body; another gets 200', async () => {
    const data = addrCall(ALICE);
    const { etag } = (await get(data).expect(200)).headers;
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`]) {
      const res = await get(data).set('If-None-Match', header).expect(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toMatch(/^public, max-age=120, s-maxage=\d+/);
    }
    const other = await get(data).set('If-None-Match', '"nope"').expect(200);
    expect(other.headers.etag).toBe(etag);
  });

  it('POST: the same answer and ETag, Cache-Control for clients only and no surrogate keys', async () => {
    const data = addrCall(ALICE);
    const viaGet = await get(data).expect(200);
    const res = await request(t.http).post('/api/v1/ccip-read').send({ sender: SENDER, data }).expect(200);
    expect(res.body.data).toBe(viaGet.body.data);
    expect(res.headers.etag).toBe(viaGet.headers.etag);
    expect(res.headers['cache-control']).toBe('public, max-age=120');
    expect(res.headers['surrogate-key']).toBeUndefined();
  });

  it('a write changes the answer and its ETag at once; the old ETag gets the new answer', async () => {
    const data = addrCall(ALICE);
    const before = await get(data).expect(200);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: OTHER }], ttl: 120 })
      .expect(200);
    const after = await get(data).set('If-None-Match', before.headers.etag).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const [result] = coder.decode(['bytes', 'uint64', 'bytes'], after.body.data as string);
    expect(coder.decode(['address'], result)[0]).toBe(OTHER);
  });
});
