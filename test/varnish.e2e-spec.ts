import { AddressInfo } from 'node:net';
import { AbiCoder, dnsEncode, namehash, Wallet } from 'ethers';
import request from 'supertest';
import { RESOLVER_CALLS } from './support/calldata';
import { freePort } from './support/service-process';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';
import { startVarnish, Varnish } from './support/varnish';

/** The shipped VCL (deploy/varnish/default.vcl) in a real varnishd in front of the service. */
const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const coder = AbiCoder.defaultAbiCoder();
const urlCall = (name: string) =>
  RESOLVER_CALLS.encodeFunctionData('resolve', [
    dnsEncode(name),
    RESOLVER_CALLS.encodeFunctionData('text(bytes32,string)', [namehash(name), 'url']),
  ]);

describe('the gateway behind Varnish with the shipped VCL', () => {
  let t: TestApp;
  let key: string;
  let varnish: Varnish;
  let cacheUrl: string;

  beforeAll(async () => {
    const cachePort = await freePort();
    cacheUrl = `http://127.0.0.1:${cachePort}`;
    t = await createTestApp({
      CCIP_SIGNER_KEY: Wallet.createRandom().privateKey,
      RESOLUTION_CACHE_SECONDS: '600',
      CACHE_PURGE_URL: `${cacheUrl}/`,
    });
    await t.app.listen(0, '127.0.0.1');
    key = (await t.issueKey(['oak.eth'])).key;
    varnish = await startVarnish((t.app.getHttpServer().address() as AddressInfo).port, cachePort);
  }, 60_000);

  afterAll(async () => {
    await varnish?.stop();
    await t?.close();
  });

  const store = (url: string) =>
    request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'alice', texts: [{ key: 'url', value: url }] });
  const lookup = () => fetch(`${cacheUrl}/api/v1/ccip-read/${SENDER}/${urlCall('alice.oak.eth')}.json`);
  const urlOf = async (res: Response) => {
    const [result] = coder.decode(['bytes', 'uint64', 'bytes'], ((await res.json()) as { data: string }).data);
    return coder.decode(['string'], result)[0] as string;
  };

  it('serves 1,000 identical lookups with one origin hit; the rest are cache hits with an Age', async () => {
    await store('https://one.example').expect(201);
    await new Promise((r) => setTimeout(r, 300));
    const before = await varnish.counters();
    const misses: number[] = [];
    let lastAge = '';
    for (let i = 0; i < 1000; i++) {
      const res = await lookup();
      expect(res.status).toBe(200);
      if (res.headers.get('x-cache') !== 'HIT') misses.push(i);
      lastAge = res.headers.get('age') ?? '';
      if (i === 0) expect(await urlOf(res)).toBe('https://one.example');
      else await res.arrayBuffer();
    }
    expect(misses.length).toBeLessThanOrEqual(2);
    // The misses are the only requests that reached the service.
    expect((await varnish.counters())['MAIN.backend_req'] - before['MAIN.backend_req']).toBe(misses.length);
    expect(lastAge).toMatch(/^\d+$/);
    // The origin signed its answer on the signing thread, as production signs.
    await expectSignedOnTheThread(t);
  }, 120_000);

  it("a write purges the cached answer: once varnish has the write's ban, the next lookup is fresh", async () => {
    const cached = await lookup();
    expect(cached.headers.get('x-cache')).toBe('HIT');
    await cached.arrayBuffer();
    const bans = (await varnish.counters())['MAIN.bans_added'];
    await store('https://two.example').expect(200);
    // The service's PURGE becomes a ban on the name's Surrogate-Key; wait for it, not for a clock.
    while ((await varnish.counters())['MAIN.bans_added'] === bans) await new Promise((r) => setTimeout(r, 25));
    const fresh = await lookup();
    expect(fresh.headers.get('x-cache')).not.toBe('HIT');
    expect(await urlOf(fresh)).toBe('https://two.example');
    // And then cached again.
    await (await lookup()).arrayBuffer();
    const again = await lookup();
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(await urlOf(again)).toBe('https://two.example');
  });
});
