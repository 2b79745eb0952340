import { Agent, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { dnsEncode, namehash, Wallet } from 'ethers';
import { RESOLVER_CALLS } from './support/calldata';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

/** The gateway's own budget (RATE_LIMIT_RESOLUTION_PER_IP) and its trusted sources (RESOLUTION_TRUSTED_SOURCES). */
const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const lookup = (name: string) =>
  RESOLVER_CALLS.encodeFunctionData('resolve', [
    dnsEncode(name),
    RESOLVER_CALLS.encodeFunctionData('text(bytes32,string)', [namehash(name), 'url']),
  ]);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One GET from a given loopback address, on the agent's kept-alive connections. */
function get(agent: Agent, localAddress: string, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(url, { agent, localAddress }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the gateway budget per address and trusted sources', () => {
  let t: TestApp;
  let base: string;
  const trusted = new Agent({ keepAlive: true, maxSockets: 32 });
  const other = new Agent({ keepAlive: true, maxSockets: 4 });

  beforeAll(async () => {
    t = await createTestApp({
      CCIP_SIGNER_KEY: Wallet.createRandom().privateKey,
      RATE_LIMIT_PER_IP: '3',
      RATE_LIMIT_RESOLUTION_PER_IP: '20',
      RESOLUTION_TRUSTED_SOURCES: '10.9.0.0/16, 127.0.0.1, 2001:db8::/32',
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    trusted.destroy();
    other.destroy();
    await t.close();
  });

  it('answers a burst of 10,000 gateway requests from a trusted source with no 429 and no budget headers', async () => {
    const statuses = new Map<number, number>();
    let limitHeaders = 0;
    // Every tenth a signed lookup, the others the signer route: the guard charges both alike, lookups cost more.
    const urls = Array.from({ length: 10_000 }, (_, i) =>
      i % 10 === 0 ? `${base}/ccip-read/${SENDER}/${lookup(`n${i % 50}.oak.eth`)}` : `${base}/ccip-read/signer`,
    );
    let failed = false;
    // 32 requests in flight at any time, until all are answered (or one fails).
    const worker = async () => {
      for (let url = urls.pop(); url !== undefined && !failed; url = urls.pop()) {
        const res = await get(trusted, '127.0.0.1', url).catch((e: Error) => {
          failed = true;
          throw e;
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.headers['ratelimit-limit'] !== undefined) limitHeaders++;
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    expect(Object.fromEntries(statuses)).toEqual({ 200: 10_000 });
    expect(limitHeaders).toBe(0);
    // The lookups were signed on the signing thread, as production signs.
    await expectSignedOnTheThread(t);
  }, 300_000);

  it('limits an untrusted source to its own lookups budget, apart from the write budget', async () => {
    const url = `${base}/ccip-read/${SENDER}/${lookup('n1.oak.eth')}`;
    const answers: Answer[] = [];
    for (let i = 0; i < 23; i++) answers.push(await get(other, '127.0.0.2', url));
    expect(answers.slice(0, 20).map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers[0].headers['ratelimit-limit']).toBe('20');
    expect(answers[19].headers['ratelimit-remaining']).toBe('0');
    expect(answers.slice(20).map((a) => a.status)).toEqual([429, 429, 429]);
    expect(JSON.parse(answers[22].body)).toMatchObject({
      code: 'RATE_LIMITED',
      detail: expect.stringMatching(/^More than 20 lookups in 60 s from this client address; retry in \d+ s$/),
    });
    // The write budget (RATE_LIMIT_PER_IP=3) was not spent by the lookups: three other requests pass, the fourth not.
    const writes: number[] = [];
    for (let i = 0; i < 4; i++) writes.push((await get(other, '127.0.0.2', `${base}/mint/signer`)).status);
    expect(writes).toEqual([200, 200, 200, 429]);
    // And the other way round: the signer route is a gateway route, still refused for this address.
    expect((await get(other, '127.0.0.2', `${base}/ccip-read/signer`)).status).toBe(429);
    // Another untrusted address has a budget of its own.
    expect((await get(other, '127.0.0.3', url)).status).toBe(200);
  });
});
