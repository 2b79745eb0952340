import { AbiCoder, concat, getAddress, hashMessage, id, namehash, Wallet } from 'ethers';
import request from 'supertest';
import { PortalChain } from './support/portal-chain';
import { PortalClient, PortalSession } from './support/portal-client';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';

const ORIGIN = 'http://127.0.0.1:45123';
const QUOTA = 7;
const ERC6492_SUFFIX = '0x6492649264926492649264926492649264926492649264926492649264926492';

/** Asks `probe` every 200 ms until it holds or `ms` pass. */
async function eventually(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return probe();
}

describe('developer portal without ENS_RPC_URL', () => {
  let t: TestApp;
  let portal: PortalClient;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: ORIGIN });
    portal = new PortalClient(t.http, ORIGIN);
  });
  afterAll(() => t.close());

  it('signs an ordinary account in, and says in words that no chain is configured when a name is added', async () => {
    const s = await portal.signIn(Wallet.createRandom());
    const res = await portal.send(s, 'post', '/names', { name: 'oak.eth' }).expect(503);
    expect(res.body.code).toBe('CHAIN_UNAVAILABLE');
    expect(res.body.detail).toMatch(/operator of this service has not configured a chain/);
  });

  it('serves the page and its modules with a strict content security policy', async () => {
    const page = await request(t.http).get('/portal').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = page.headers['content-security-policy'];
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text).toContain('Sign in with Ethereum');
    const js = await request(t.http).get('/portal/portal.js').expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toContain("script-src 'self'");
    const css = await request(t.http).get('/portal/portal.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await request(t.http).get('/portal/missing.js').expect(404)).body.code).toBe('NOT_FOUND');
    expect((await request(t.http).get('/portal/..%2Fportal.module.js').expect(404)).body.code).toBe('NOT_FOUND');
  });
});

describe('developer portal on an ENS chain', () => {
  let chain: PortalChain;
  let t: TestApp;
  let portal: PortalClient;
  const alice = Wallet.createRandom();
  const operator = Wallet.createRandom();

  const problem = (res: request.Response) => ({ status: res.status, code: res.body.code as string });

  beforeAll(async () => {
    chain = await PortalChain.start();
    t = await createTestApp({
      ...(await chain.env()),
      PUBLIC_URL: ORIGIN,
      SUBNAME_QUOTA_DEFAULT: String(QUOTA),
      PORTAL_ADMIN_ADDRESSES: operator.address,
      PORTAL_RECHECK_SECONDS: '1',
      PORTAL_KEYS_PER_PARENT: '3',
      PORTAL_KEYS_PER_WALLET: '5',
    });
    portal = new PortalClient(t.http, ORIGIN);
  });
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  describe('sign-in', () => {
    it('writes the EIP-4361 message from PUBLIC_URL and ENS_CHAIN_ID, whatever the Host, expiring within 5 minutes', async () => {
      const res = await portal.challenge(alice.address).set('Host', 'evil.example').expect(200);
      const message = res.body.message as string;
      expect(message.split('\n')[0]).toBe('127.0.0.1:45123 wants you to sign in with your Ethereum account:');
      expect(message).toContain(`\n${getAddress(alice.address)}\n`);
      expect(message).toContain(`URI: ${ORIGIN}\n`);
      expect(message).toContain('Chain ID: 31337\n');
      const nonce = /Nonce: (\S+)/.exec(message)![1];
      expect(nonce.length).toBeGreaterThanOrEqual(16);
      const issued = Date.parse(/Issued At: (\S+)/.exec(message)![1]);
      const expires = Date.parse(/Expiration Time: (\S+)/.exec(message)![1]);
      expect(expires - issued).toBeLessThanOrEqual(5 * 60_000);
      expect(expires - issued).toBeGreaterThan(60_000);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('keeps at most PORTAL_CHALLENGES_PER_ADDRESS messages waiting per address (429, Retry-After)', async () => {
      const gus = Wallet.createRandom();
      const messages: string[] = [];
      for (let i = 0; i < 5; i++) messages.push((await portal.challenge(gus.address).expect(200)).body.message);
      const refused = await portal.challenge(gus.address);
      expect(problem(refused)).toEqual({ status: 429, code: 'RATE_LIMITED' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(300);
      await portal.challenge(Wallet.createRandom().address).expect(200);
      // An attempt consumes its message, which frees its place.
      const signature = await gus.signMessage(messages[0]);
      await portal.submit({ address: gus.address, message: messages[0], signature }).expect(204);
      await portal.challenge(gus.address).expect(200);
      await portal.challenge(gus.address).expect(429);
    });

    it('sets the __Host- session cookie with its flags, and the session answers GET /me', async () => {
      const message = (await portal.challenge(alice.address).expect(200)).body.message as string;
      const res = await portal
        .submit({ address: alice.address, message, signature: await alice.signMessage(message) })
        .expect(204);
      const cookie = String(res.headers['set-cookie'][0]);
      expect(cookie).toMatch(/^__Host-sns_portal=[A-Za-z0-9_-]{40,};/);
      for (const flag of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']) expect(cookie).toContain(flag);
      const me = await request(t.http).get('/portal/api/me').set('Cookie', cookie.split(';')[0]).expect(200);
      expect(me.body).toEqual({
        address: getAddress(alice.address),
        csrfToken: expect.any(String),
        admin: false,
        names: [],
      });
      expect(me.headers['cache-control']).toBe('no-store');
    });

    it('refuses a replayed signature, another key’s signature, a message of another address and an expired one (401)', async () => {
      const mallory = Wallet.createRandom();
      const message = (await portal.challenge(alice.address).expect(200)).body.message as string;
      const signed = { address: alice.address, message, signature: await alice.signMessage(message) };
      await portal.submit(signed).expect(204);
      expect(problem(await portal.submit(signed))).toEqual({ status: 401, code: 'UNAUTHORIZED' });

      const second = (await portal.challenge(alice.address).expect(200)).body.message as string;
      const forged = { address: alice.address, message: second, signature: await mallory.signMessage(second) };
      expect(problem(await portal.submit(forged))).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      // The failed attempt consumed the challenge: the right signature is too late now.
      const late = { ...forged, signature: await alice.signMessage(second) };
      expect(problem(await portal.submit(late))).toEqual({ status: 401, code: 'UNAUTHORIZED' });

      const third = (await portal.challenge(alice.address).expect(200)).body.message as string;
      const other = { address: mallory.address, message: third, signature: await mallory.signMessage(third) };
      expect(problem(await portal.submit(other))).toEqual({ status: 401, code: 'UNAUTHORIZED' });

      const fourth = (await portal.challenge(alice.address).expect(200)).body.message as string;
      await t.dataSource.query(`UPDATE portal_challenges SET expires_at = now() - interval '1 second'`);
      const expired = { address: alice.address, message: fourth, signature: await alice.signMessage(fourth) };
      expect(problem(await portal.submit(expired))).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    });

    it('signs a contract account in through ERC-1271, with up to 24 hours to gather its signature', async () => {
      const owner = Wallet.createRandom();
      const account = await chain.deployContractWallet(owner.address);
      const message = (await portal.challenge(account).expect(200)).body.message as string;
      const issued = Date.parse(/Issued At: (\S+)/.exec(message)![1]);
      const expires = Date.parse(/Expiration Time: (\S+)/.exec(message)![1]);
      expect(expires - issued).toBe(24 * 3600_000);
      const signature = owner.signingKey.sign(hashMessage(message)).serialized;
      const res = await portal.submit({ address: account, message, signature }).expect(204);
      const cookie = String(res.headers['set-cookie'][0]).split(';')[0];
      const me = await request(t.http).get('/portal/api/me').set('Cookie', cookie).expect(200);
      expect(me.body.address).toBe(getAddress(account));

      const again = (await portal.challenge(account).expect(200)).body.message as string;
      const stranger = Wallet.createRandom().signingKey.sign(hashMessage(again)).serialized;
      expect(problem(await portal.submit({ address: account, message: again, signature: stranger }))).toEqual({
        status: 401,
        code: 'UNAUTHORIZED',
      });
    });

    it('signs in a contract account before its deployment through ERC-6492', async () => {
      const owner = Wallet.createRandom();
      const factory = await chain.deployWalletFactory();
      const salt = id('portal');
      const account = (await factory.addressOf(owner.address, salt)) as string;
      expect(await chain.provider.getCode(account)).toBe('0x');
      const message = (await portal.challenge(account).expect(200)).body.message as string;
      const inner = owner.signingKey.sign(hashMessage(message)).serialized;
      const deployCall = factory.interface.encodeFunctionData('deploy', [owner.address, salt]);
      const wrapped = AbiCoder.defaultAbiCoder().encode(
        ['address', 'bytes', 'bytes'],
        [await factory.getAddress(), deployCall, inner],
      );
      const signature = concat([wrapped, ERC6492_SUFFIX]);
      await portal.submit({ address: account, message, signature }).expect(204);
      expect(await chain.provider.getCode(account)).toBe('0x');

      const again = (await portal.challenge(account).expect(200)).body.message as string;
      const stranger = Wallet.createRandom().signingKey.sign(hashMessage(again)).serialized;
      const forged = AbiCoder.defaultAbiCoder().encode(
        ['address', 'bytes', 'bytes'],
        [await factory.getAddress(), deployCall, stranger],
      );
      const refused = await portal.submit({
        address: account,
        message: again,
        signature: concat([forged, ERC6492_SUFFIX]),
      });
      expect(problem(refused)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    });

    it('ends a session after 1 hour without a request, and 8 hours after sign-in whatever its use', async () => {
      const idle = await portal.signIn(alice);
      await portal.get(idle, '/me').expect(200);
      await t.dataSource.query(`UPDATE portal_sessions SET last_seen_at = now() - interval '61 minutes'`);
      expect(problem(await portal.get(idle, '/me'))).toEqual({ status: 401, code: 'UNAUTHORIZED' });

      const old = await portal.signIn(alice);
      await t.dataSource.query(
        `UPDATE portal_sessions SET created_at = now() - interval '8 hours 1 minute', last_seen_at = now()`,
      );
      expect(problem(await portal.get(old, '/me'))).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      const fresh = await portal.signIn(alice);
      expect(fresh.cookie).not.toBe(old.cookie);
      await portal.get(fresh, '/me').expect(200);
    });

    it('signs out: the server forgets the session', async () => {
      const s = await portal.signIn(alice);
      const res = await portal.send(s, 'delete', '/session').expect(204);
      expect(String(res.headers['set-cookie'][0])).toContain('Max-Age=0');
      expect(problem(await portal.get(s, '/me'))).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    });
  });

  describe('cross-site requests', () => {
    it('refuses a sign-in from another origin, or without Origin and Sec-Fetch-Site: same-origin (403)', async () => {
      const post = () => request(t.http).post('/portal/api/session/challenge');
      const body = { address: alice.address };
      const refused = { status: 403, code: 'CROSS_SITE_REQUEST' };
      expect(problem(await post().set('Origin', 'https://evil.example').send(body))).toEqual(refused);
      expect(problem(await post().set('Origin', 'http://127.0.0.1:45124').send(body))).toEqual(refused);
      expect(problem(await post().send(body))).toEqual(refused);
      expect(problem(await post().set('Sec-Fetch-Site', 'same-site').send(body))).toEqual(refused);
      await post().set('Sec-Fetch-Site', 'same-origin').send(body).expect(200);
    });

    it('refuses a state change without the CSRF token or from another origin after sign-in (403)', async () => {
      const s = await portal.signIn(alice);
      const refused = { status: 403, code: 'CROSS_SITE_REQUEST' };
      const names = () => request(t.http).post('/portal/api/names').set('Cookie', s.cookie);
      expect(problem(await names().set('Origin', ORIGIN).send({ name: 'oak.eth' }))).toEqual(refused);
      expect(
        problem(await names().set('Origin', ORIGIN).set('x-portal-csrf', 'wrong').send({ name: 'oak.eth' })),
      ).toEqual(refused);
      expect(
        problem(
          await names().set('Origin', 'https://evil.example').set('x-portal-csrf', s.csrf).send({ name: 'oak.eth' }),
        ),
      ).toEqual(refused);
      const keys = await request(t.http)
        .post('/portal/api/keys')
        .set('Cookie', s.cookie)
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ name: 'k', parentNames: ['oak.eth'] });
      expect(problem(keys)).toEqual(refused);
    });

    it('answers 401 without a session before any other check, never stored', async () => {
      const res = await request(t.http)
        .post('/portal/api/names')
        .set('Origin', 'https://evil.example')
        .send({ name: 'not a name' });
      expect(problem(res)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      expect(res.headers['cache-control']).toBe('no-store');
      const malformed = await request(t.http)
        .post('/portal/api/keys')
        .set('Origin', ORIGIN)
        .set('content-type', 'application/json')
        .send('{"name": ');
      expect(problem(malformed)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      const s = await portal.signIn(alice);
      const parsed = await request(t.http)
        .post('/portal/api/keys')
        .set('Cookie', s.cookie)
        .set('Origin', ORIGIN)
        .set('x-portal-csrf', s.csrf)
        .set('content-type', 'application/json')
        .send('{"name": ');
      expect(problem(parsed)).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      for (const path of ['/me', '/keys', '/subnames?parentName=oak.eth', '/admin/keys', '/names/oak.eth/resolution'])
        expect(
          problem(await request(t.http).get(`/portal/api${path}`).set('Cookie', '__Host-sns_portal=made-up')),
        ).toEqual({
          status: 401,
          code: 'UNAUTHORIZED',
        });
    });
  });

  describe('names controlled on chain', () => {
    const [bob, carol, dave, erin, frank, mallory] = Array.from({ length: 6 }, () => Wallet.createRandom());
    let owner: Wallet;

    beforeAll(async () => {
      owner = new Wallet(alice.privateKey, chain.provider);
      await chain.register('oak', alice.address);
      await chain.register('pine', bob.address);
      // bob stays registrant of pine.eth and makes carol its manager (registry owner).
      await chain.send(
        chain.registrar,
        new Wallet(bob.privateKey, chain.provider),
        'reclaim',
        BigInt(id('pine')),
        carol.address,
      );
      await chain.registerWrapped('elm', dave.address);
      await chain.send(chain.registry, owner, 'setApprovalForAll', erin.address, true);
      await chain.send(
        chain.wrapper,
        new Wallet(dave.privateKey, chain.provider),
        'setApprovalForAll',
        frank.address,
        true,
      );
      await chain.register('old', alice.address, Math.floor(Date.now() / 1000) - 91 * 86_400);
    });

    it.each([
      ['the registry owner', () => alice, 'oak.eth', 'manager', false],
      ['the registrant of a .eth name', () => bob, 'pine.eth', 'registrant', false],
      ['its manager when another is the registrant', () => carol, 'pine.eth', 'manager', false],
      ['the Name Wrapper owner', () => dave, 'elm.eth', 'wrapped-owner', true],
      ['an operator approved in the registry', () => erin, 'oak.eth', 'operator', false],
      ['an operator approved in the Name Wrapper', () => frank, 'elm.eth', 'operator', true],
    ] as const)('recognises %s', async (_, who, name, role, wrapped) => {
      const s = await portal.signIn(who());
      const res = await portal.send(s, 'post', '/names', { name: name.toUpperCase() }).expect(200);
      expect(res.body).toEqual({ name, role, wrapped });
      const me = await portal.get(s, '/me').expect(200);
      expect(me.body.names).toEqual([{ name, role, wrapped, checkedAt: expect.any(String) }]);
    });

    it('refuses a wallet that controls nothing, naming who controls the name (403)', async () => {
      const s = await portal.signIn(mallory);
      const res = await portal.send(s, 'post', '/names', { name: 'oak.eth' });
      expect(problem(res)).toEqual({ status: 403, code: 'NOT_NAME_CONTROLLER' });
      expect(res.body.detail).toContain(getAddress(alice.address));
      expect((await portal.get(s, '/me').expect(200)).body.names).toEqual([]);
    });

    it('refuses a .eth name past its expiry and grace period, even to its last registry owner', async () => {
      const s = await portal.signIn(alice);
      const res = await portal.send(s, 'post', '/names', { name: 'old.eth' });
      expect(problem(res)).toEqual({ status: 403, code: 'NOT_NAME_CONTROLLER' });
      expect(res.body.detail).toMatch(/old\.eth expired and its grace period ended/);
    });

    it("decides expiry by the chain's latest block, not the service's clock", async () => {
      await chain.register('late', alice.address, Math.floor(Date.now() / 1000) + 86_400);
      const s = await portal.signIn(alice);
      await portal.send(s, 'post', '/names', { name: 'late.eth' }).expect(200);
      chain.rpc.node.clockOffsetSeconds = 92 * 86_400;
      try {
        await chain.register('later', bob.address, Math.floor(Date.now() / 1000) + 400 * 86_400);
        const res = await portal.send(s, 'post', '/names', { name: 'late.eth' });
        expect(problem(res)).toEqual({ status: 403, code: 'NOT_NAME_CONTROLLER' });
        expect(res.body.detail).toMatch(/late\.eth expired and its grace period ended/);
      } finally {
        chain.rpc.node.clockOffsetSeconds = 0;
        await chain.register('now', bob.address);
      }
    });
  });

  describe('keys', () => {
    const mallory = Wallet.createRandom();
    let s: PortalSession;
    let keyId: string;
    let secret: string;
    const write = (key: string, label = 'app') =>
      request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send({ parentName: 'birch.eth', label });

    beforeAll(async () => {
      await chain.register('birch', alice.address);
      s = await portal.signIn(alice);
    });

    it('issues a key for a name the wallet controls: the secret once, never stored, with the default quota', async () => {
      const res = await portal.send(s, 'post', '/keys', { name: 'production', parentNames: ['Birch.eth'] }).expect(201);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatchObject({ name: 'production', parentNames: ['birch.eth'], quota: QUOTA, used: 0 });
      expect(res.body).toMatchObject({ remaining: QUOTA, suspendedReason: null, revokedAt: null });
      expect(res.body.key).toMatch(/^sns_/);
      keyId = res.body.id;
      secret = res.body.key;
      await write(secret).expect(201);
      const keys = await portal.get(s, '/keys').expect(200);
      expect(keys.body).toEqual([
        expect.objectContaining({ id: keyId, used: 1, remaining: QUOTA - 1, quota: QUOTA, suspendedReason: null }),
      ]);
      expect(keys.body[0].key).toBeUndefined();
      expect(JSON.stringify(keys.body)).not.toContain(secret);
    });

    it('refuses a key for a parent the wallet does not control (403), and issues nothing', async () => {
      const other = await portal.signIn(mallory);
      const res = await portal.send(other, 'post', '/keys', { name: 'stolen', parentNames: ['birch.eth'] });
      expect(problem(res)).toEqual({ status: 403, code: 'NOT_NAME_CONTROLLER' });
      expect((await portal.get(other, '/keys').expect(200)).body).toEqual([]);
    });

    it('bounds the live keys of a wallet per parent and in all, decided by the database under concurrency', async () => {
      const zed = Wallet.createRandom();
      for (const label of ['yew', 'fir', 'ivy']) await chain.register(label, zed.address);
      const z = await portal.signIn(zed);
      const issue = (parent: string, name = 'k') => portal.send(z, 'post', '/keys', { name, parentNames: [parent] });
      const racing = await Promise.all(Array.from({ length: 8 }, () => issue('yew.eth')));
      expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
      const refused = racing.find((r) => r.status === 409)!;
      expect(refused.body.code).toBe('KEY_LIMIT_PER_PARENT');
      expect(refused.body.detail).toContain('yew.eth');
      await issue('fir.eth').expect(201);
      await issue('fir.eth').expect(201);
      const overall = await issue('ivy.eth');
      expect(problem(overall)).toEqual({ status: 409, code: 'KEY_LIMIT_PER_WALLET' });
      const keys = (await portal.get(z, '/keys').expect(200)).body as { id: string }[];
      expect(keys).toHaveLength(5);
      await portal.send(z, 'delete', `/keys/${keys[0].id}`).expect(204);
      await issue('ivy.eth').expect(201);
    });

    it('answers 404 for a key id this wallet did not issue, whoever it belongs to', async () => {
      const other = await portal.signIn(mallory);
      const rotate = await portal.send(other, 'post', `/keys/${keyId}/rotate`, {});
      expect(problem(rotate)).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(problem(await portal.send(other, 'delete', `/keys/${keyId}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
      const admin = await t.issueKey(['birch.eth']);
      expect(problem(await portal.send(s, 'delete', `/keys/${admin.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
      await write(secret, 'still').expect(201);
    });

    it('rotates (the old secret refused at once) and revokes the wallet’s own key', async () => {
      const rotated = await portal.send(s, 'post', `/keys/${keyId}/rotate`, {}).expect(200);
      expect(rotated.headers['cache-control']).toBe('no-store');
      expect(rotated.body).toMatchObject({ id: keyId, used: 2, quota: QUOTA, suspendedReason: null });
      expect(rotated.body.key).not.toBe(secret);
      expect(problem(await write(secret, 'old'))).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      await write(rotated.body.key, 'new').expect(201);
      await portal.send(s, 'delete', `/keys/${keyId}`).expect(204);
      expect(problem(await write(rotated.body.key, 'gone'))).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      const [key] = (await portal.get(s, '/keys').expect(200)).body;
      expect(key.revokedAt).toEqual(expect.any(String));
    });

    it('records every portal action in the audit trail as wallet:<address>', async () => {
      const actor = `wallet:${alice.address}`;
      const res = await request(t.http)
        .get('/api/v1/admin/audit')
        .query({ actor, size: 100 })
        .set('x-admin-token', ADMIN_TOKEN)
        .expect(200);
      const actions = new Set(res.body.items.map((e: { action: string }) => e.action));
      for (const action of ['portal.sign-in', 'key.issue', 'key.rotate', 'key.revoke'])
        expect(actions).toContain(action);
      expect(res.body.items.every((e: { actor: string }) => e.actor === actor)).toBe(true);
    });
  });

  describe('ownership drift', () => {
    it('suspends a key within the re-check interval when its parent changes hands, and restores it when it returns', async () => {
      const bob = chain.wallet();
      const holder = new Wallet(alice.privateKey, chain.provider);
      await chain.register('ash', alice.address);
      const s = await portal.signIn(alice);
      const { key, id: keyId } = (
        await portal.send(s, 'post', '/keys', { name: 'ash', parentNames: ['ash.eth'] }).expect(201)
      ).body;
      let n = 0;
      const write = () =>
        request(t.http)
          .post('/api/v1/subnames')
          .set('x-auth-token', key)
          .send({ parentName: 'ash.eth', label: `n${n++}` });
      await write().expect(201);

      await chain.send(chain.registrar, holder, 'transferFrom', alice.address, bob.address, BigInt(id('ash')));
      await chain.send(chain.registry, holder, 'setOwner', namehash('ash.eth'), bob.address);
      // Asked through the listing, not by writing: writes that land before the check would spend the quota.
      const reason = async () =>
        ((await portal.get(s, '/keys').expect(200)).body as { id: string; suspendedReason: string | null }[]).find(
          (k) => k.id === keyId,
        )!.suspendedReason;
      expect(await eventually(async () => (await reason()) !== null, 10_000)).toBe(true);
      const refused = await write();
      expect(problem(refused)).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      expect(refused.body.detail).toMatch(/suspended.*no longer controls ash\.eth/);
      const [listed] = (await portal.get(s, '/keys').expect(200)).body.filter((k: { id: string }) => k.id === keyId);
      expect(listed.suspendedReason).toContain('ash.eth');

      await chain.send(chain.registrar, bob, 'transferFrom', bob.address, alice.address, BigInt(id('ash')));
      await chain.send(chain.registry, bob, 'setOwner', namehash('ash.eth'), alice.address);
      expect(await eventually(async () => (await reason()) === null, 10_000)).toBe(true);
      await write().expect(201);
      const [back] = (await portal.get(s, '/keys').expect(200)).body.filter((k: { id: string }) => k.id === keyId);
      expect(back.suspendedReason).toBeNull();
      const audit = await request(t.http)
        .get('/api/v1/admin/audit')
        .query({ name: keyId, actor: 'portal' })
        .set('x-admin-token', ADMIN_TOKEN)
        .expect(200);
      expect(audit.body.items.map((e: { action: string }) => e.action)).toEqual(['key.resume', 'key.suspend']);
    });
  });

  describe('subnames, export and resolution', () => {
    let s: PortalSession;

    beforeAll(async () => {
      await chain.register('maple', alice.address);
      s = await portal.signIn(alice);
      const { key } = (await portal.send(s, 'post', '/keys', { name: 'maple', parentNames: ['maple.eth'] }).expect(201))
        .body;
      for (const label of ['alpha', 'beta', 'gamma'])
        await request(t.http)
          .post('/api/v1/subnames')
          .set('x-auth-token', key)
          .send({ parentName: 'maple.eth', label })
          .expect(201);
    });

    it('lists and searches the subnames of a parent the wallet controls', async () => {
      const all = await portal.get(s, '/subnames?parentName=maple.eth&page=1&size=2').expect(200);
      expect(all.body).toMatchObject({ page: 1, size: 2, totalItems: 3 });
      expect(all.body.items).toHaveLength(2);
      const found = await portal.get(s, '/subnames?parentName=maple.eth&labelSearch=bet').expect(200);
      expect(found.body.items.map((i: { fullName: string }) => i.fullName)).toEqual(['beta.maple.eth']);
    });

    it('exports them as NDJSON without a key', async () => {
      const res = await portal.get(s, '/export?parentName=maple.eth').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const lines = res.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { label: string; parentName: string });
      expect(lines.map((l) => l.label).sort()).toEqual(['alpha', 'beta', 'gamma']);
      expect(lines.every((l) => l.parentName === 'maple.eth')).toBe(true);
    });

    it('sets a policy with the largest allowlist (10,000 addresses, 450 KB: more than the 64 KB of other bodies)', async () => {
      const allowlist = Array.from({ length: 10_000 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
      const res = await portal.send(s, 'put', '/names/maple.eth/policy', { claims: 'allowlist', allowlist });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ parentName: 'maple.eth', claims: 'allowlist', allowlistSize: 10_000 });
      expect(res.body.allowlist[9_999]).toBe(getAddress(allowlist[9_999]));
    });

    it('refuses both for a parent the wallet does not control (403)', async () => {
      const other = await portal.signIn(Wallet.createRandom());
      const refused = { status: 403, code: 'NOT_NAME_CONTROLLER' };
      expect(problem(await portal.get(other, '/subnames?parentName=maple.eth'))).toEqual(refused);
      expect(problem(await portal.get(other, '/export?parentName=maple.eth'))).toEqual(refused);
    });

    it('gives the five steps of the resolution status, the first failed step saying what to do', async () => {
      const res = await portal.get(s, '/names/maple.eth/resolution').expect(200);
      expect(res.body.parentName).toBe('maple.eth');
      expect(res.body.ok).toBe(false);
      expect(res.body.steps.map((x: { step: string }) => x.step)).toEqual([
        'registry',
        'wildcard',
        'gateway',
        'signer',
        'answer',
      ]);
      expect(res.body.steps[0]).toMatchObject({ step: 'registry', ok: false });
      expect(res.body.steps[0].detail.length).toBeGreaterThan(20);
    });
  });

  describe('operators', () => {
    let op: PortalSession;
    let user: PortalSession;

    beforeAll(async () => {
      op = await portal.signIn(operator);
      user = await portal.signIn(alice);
    });

    it('see every key, change a quota and read the audit trail', async () => {
      expect((await portal.get(op, '/me').expect(200)).body.admin).toBe(true);
      const page = await portal.get(op, '/admin/keys?page=1&size=2').expect(200);
      expect(page.body).toMatchObject({ page: 1, size: 2, totalItems: expect.any(Number) });
      expect(page.body.items).toHaveLength(2);
      expect(page.body.totalItems).toBeGreaterThanOrEqual(4);
      const [mine] = (await portal.get(user, '/keys').expect(200)).body.filter(
        (k: { revokedAt: string | null }) => !k.revokedAt,
      );
      const patched = await portal.send(op, 'patch', `/admin/keys/${mine.id}`, { quota: 50 }).expect(200);
      expect(patched.body).toMatchObject({ id: mine.id, quota: 50 });
      const [after] = (await portal.get(user, '/keys').expect(200)).body.filter(
        (k: { id: string }) => k.id === mine.id,
      );
      expect(after.quota).toBe(50);
      const actor = `wallet:${operator.address}`;
      const audit = await portal.get(op, `/admin/audit?actor=${actor}`).expect(200);
      expect(audit.body).toMatchObject({ page: 1, size: 25 });
      expect(audit.body.items[0]).toMatchObject({
        actor,
        action: 'key.update',
        subject: mine.id,
        after: { quota: 50 },
      });
    });

    it('refuse every other wallet (403 NOT_OPERATOR)', async () => {
      const refused = { status: 403, code: 'NOT_OPERATOR' };
      expect(problem(await portal.get(user, '/admin/keys'))).toEqual(refused);
      expect(problem(await portal.get(user, '/admin/audit'))).toEqual(refused);
      const keyId = (await portal.get(user, '/keys').expect(200)).body[0].id;
      expect(problem(await portal.send(user, 'patch', `/admin/keys/${keyId}`, { quota: 5000 }))).toEqual(refused);
    });
  });
});
