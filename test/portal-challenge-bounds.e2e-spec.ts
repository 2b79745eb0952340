import { Wallet } from 'ethers';
import request from 'supertest';
import { PortalChain } from './support/portal-chain';
import { createTestApp, TestApp } from './support/test-app';

const ORIGIN = 'http://127.0.0.1:45123';
const PER_CLIENT = 3;
const CLIENT_A = '203.0.113.7';
const CLIENT_B = '198.51.100.9';

describe('portal sign-in challenges per client address', () => {
  let chain: PortalChain;
  let t: TestApp;
  /** The addresses the service asked the chain for code, in order (the loopback endpoint's eth_getCode calls). */
  const codeAsked: string[] = [];

  const challenge = (address: string, client: string) =>
    request(t.http)
      .post('/portal/api/session/challenge')
      .set('Origin', ORIGIN)
      .set('X-Forwarded-For', client)
      .send({ address });
  const rows = async (where: string, params: unknown[]) =>
    Number(
      (
        (await t.dataSource.query(`SELECT count(*)::int AS n FROM portal_challenges WHERE ${where}`, params)) as {
          n: number;
        }[]
      )[0].n,
    );

  beforeAll(async () => {
    chain = await PortalChain.start();
    const node = chain.rpc.node;
    const asked = node.request.bind(node);
    jest.spyOn(node, 'request').mockImplementation((call) => {
      if (call.method === 'eth_getCode' && Array.isArray(call.params)) codeAsked.push(String(call.params[0]));
      return asked(call);
    });
    t = await createTestApp({
      ...(await chain.env()),
      PUBLIC_URL: ORIGIN,
      TRUST_PROXY: '1',
      PORTAL_CHALLENGES_PER_CLIENT: String(PER_CLIENT),
    });
  });
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('refuses a client past PORTAL_CHALLENGES_PER_CLIENT waiting messages (429 with Retry-After) before asking the chain', async () => {
    const wallets = Array.from({ length: PER_CLIENT + 1 }, () => Wallet.createRandom());
    for (const w of wallets.slice(0, PER_CLIENT)) await challenge(w.address, CLIENT_A).expect(200);
    expect(codeAsked.map((a) => a.toLowerCase())).toEqual(
      wallets.slice(0, PER_CLIENT).map((w) => w.address.toLowerCase()),
    );
    // The client's first message now ends within 100 s; the others within 300 s.
    await t.dataSource.query(
      `UPDATE portal_challenges SET expires_at = now() + interval '100 seconds' WHERE address = $1`,
      [wallets[0].address.toLowerCase()],
    );

    const late = wallets[PER_CLIENT].address;
    const refused = await challenge(late, CLIENT_A).expect(429);
    expect(refused.body.code).toBe('CHALLENGE_LIMIT_PER_CLIENT');
    expect(refused.body.detail).toMatch(new RegExp(`already has ${PER_CLIENT} sign-in messages waiting`));
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(100);
    expect(codeAsked.map((a) => a.toLowerCase())).not.toContain(late.toLowerCase());
    expect(await rows('address = $1', [late.toLowerCase()])).toBe(0);

    const served = await challenge(late, CLIENT_B).expect(200);
    expect(served.body.message).toContain(late);
    expect(codeAsked.at(-1)?.toLowerCase()).toBe(late.toLowerCase());
    expect(await rows('client = $1', [CLIENT_B])).toBe(1);
  });

  it('counts one IPv6 client per /64, as the rate limits do', async () => {
    for (let i = 1; i <= PER_CLIENT; i++)
      await challenge(Wallet.createRandom().address, `2001:db8:0:7::${i}`).expect(200);
    const asked = codeAsked.length;
    const refused = await challenge(Wallet.createRandom().address, '2001:db8:0:7::ffff').expect(429);
    expect(refused.body.code).toBe('CHALLENGE_LIMIT_PER_CLIENT');
    expect(codeAsked).toHaveLength(asked);
    await challenge(Wallet.createRandom().address, '2001:db8:0:8::1').expect(200);
  });

  it('frees a place when a message is signed or expires (by the database clock)', async () => {
    const client = '192.0.2.44';
    const wallets = Array.from({ length: PER_CLIENT }, () => Wallet.createRandom());
    const messages: string[] = [];
    for (const w of wallets) messages.push((await challenge(w.address, client).expect(200)).body.message as string);
    await challenge(Wallet.createRandom().address, client).expect(429);

    const signature = await wallets[0].signMessage(messages[0]);
    await request(t.http)
      .post('/portal/api/session')
      .set('Origin', ORIGIN)
      .set('X-Forwarded-For', client)
      .send({ address: wallets[0].address, message: messages[0], signature })
      .expect(204);
    await challenge(Wallet.createRandom().address, client).expect(200);
    await challenge(Wallet.createRandom().address, client).expect(429);

    await t.dataSource.query(
      `UPDATE portal_challenges SET expires_at = now() - interval '1 second' WHERE address = $1`,
      [wallets[1].address.toLowerCase()],
    );
    await challenge(Wallet.createRandom().address, client).expect(200);
  });

  it('a process deletes expired messages at its first challenge and keeps the live ones', async () => {
    await t.dataSource.query(
      `INSERT INTO portal_challenges (nonce, address, client, message, expires_at)
       SELECT 'old-' || i, 'old', '192.0.2.99', 'm', now() - make_interval(secs => i) FROM generate_series(1, 50) i`,
    );
    const live = await rows('expires_at > now()', []);
    const fresh = await createTestApp(
      {
        ...(await chain.env()),
        PUBLIC_URL: ORIGIN,
        TRUST_PROXY: '1',
        PORTAL_CHALLENGES_PER_CLIENT: String(PER_CLIENT),
      },
      { reset: false },
    );
    try {
      await request(fresh.http)
        .post('/portal/api/session/challenge')
        .set('Origin', ORIGIN)
        .set('X-Forwarded-For', '192.0.2.100')
        .send({ address: Wallet.createRandom().address })
        .expect(200);
    } finally {
      await fresh.close();
    }
    expect(await rows('expires_at <= now()', [])).toBe(0);
    expect(await rows('expires_at > now()', [])).toBe(live + 1);
  });
});
