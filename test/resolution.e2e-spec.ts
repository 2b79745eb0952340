import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbiCoder, dnsEncode, hexlify, Interface, namehash, recoverAddress, Wallet } from 'ethers';
import fc from 'fast-check';
import request from 'supertest';
import { ccipAnswerDigest } from './support/ccip-reference';
import { createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';
import { runs, share } from './support/property-runs';

const gateway = Wallet.createRandom();
const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const coder = AbiCoder.defaultAbiCoder();
const iface = new Interface([
  'function resolve(bytes name, bytes data)',
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function contenthash(bytes32 node) view returns (bytes)',
  'function multicall(bytes[] data) returns (bytes[] results)',
  'function name(bytes32 node) view returns (string)',
  'function pubkey(bytes32 node) view returns (bytes32 x, bytes32 y)',
]);
const addrOf = (name: string) => iface.encodeFunctionData('addr(bytes32)', [namehash(name)]);
const resolveCall = (name: string, inner = addrOf(name)) =>
  iface.encodeFunctionData('resolve', [dnsEncode(name), inner]);
const FIELDS = /^(sender|data|data\.name|data\.node|data\.call|data\.calls\[\d+\](\.node)?)$/;

describe('CCIP-Read gateway over HTTP (GET/POST /api/v1/ccip-read)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ccip-')),
      CCIP_SIGNER_KEY: gateway.privateKey,
      PUBLIC_URL: 'https://subnames.example.com',
    });
    key = (await t.issueKey(['oak.eth'])).key;
    const store = (body: object) => request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send(body);
    await store({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: ETH }], ttl: 120 }).expect(201);
    await store({
      parentName: 'oak.eth',
      label: 'plain',
      texts: [{ key: 'url', value: 'https://plain.example' }],
    }).expect(201);
    await store({ parentName: 'oak.eth', label: 'forever', ttl: 4294967295 }).expect(201);
  });
  afterAll(() => t.close());

  const get = (sender: string, data: string, suffix = '.json') =>
    request(t.http).get(`/api/v1/ccip-read/${sender}/${data}${suffix}`);
  const post = (body: unknown) =>
    request(t.http)
      .post('/api/v1/ccip-read')
      .send(body as object);
  /** The answer's parts, after checking that the gateway signer signed it for `sender` and this request. */
  const verified = (answer: string, data: string, sender = SENDER) => {
    const [result, expires, signature] = coder.decode(['bytes', 'uint64', 'bytes'], answer);
    expect(recoverAddress(ccipAnswerDigest(sender, expires, data, result), signature)).toBe(gateway.address);
    return { result: result as string, expires: Number(expires) };
  };

  it('GET /ccip-read/signer: the gateway address, the signature lifetime and the URL template, never the key', async () => {
    const res = await request(t.http).get('/api/v1/ccip-read/signer').expect(200);
    expect(res.body).toEqual({
      address: gateway.address,
      signatureTtlSeconds: 300,
      urlTemplate: 'https://subnames.example.com/api/v1/ccip-read/{sender}/{data}.json',
    });
    expect(res.text).not.toContain(gateway.privateKey.slice(2));
  });

  it('GET /ccip-read/signer: a forged Host (or forwarded host) changes nothing: the template comes from PUBLIC_URL', async () => {
    const forged = await request(t.http)
      .get('/api/v1/ccip-read/signer')
      .set('Host', 'evil.example')
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-Proto', 'http')
      .expect(200);
    expect(forged.body.urlTemplate).toBe('https://subnames.example.com/api/v1/ccip-read/{sender}/{data}.json');
    expect(forged.text).not.toContain('evil.example');
  });

  it('answers the same signed result by GET with and without .json, and by POST', async () => {
    const data = resolveCall('alice.oak.eth');
    const answers = [
      (await get(SENDER.toLowerCase(), data).expect(200)).body.data,
      (await get(SENDER, data, '').expect(200)).body.data,
      (await post({ sender: SENDER.toLowerCase(), data }).expect(200)).body.data,
    ];
    const now = Math.floor(Date.now() / 1000);
    for (const answer of answers) {
      const { result, expires } = verified(answer, data);
      expect(coder.decode(['address'], result)[0]).toBe(ETH);
      // Aligned to windows of a fifth of the lifetime (section 16), so the start of now's window + 300.
      expect(expires % 60).toBe(0);
      expect(expires - now).toBeGreaterThanOrEqual(239);
      expect(expires - now).toBeLessThanOrEqual(300);
    }
  });

  it('a name that is not stored: 200, empty values, signed', async () => {
    const data = resolveCall('nobody.oak.eth');
    const res = await get(SENDER, data).expect(200);
    expect(coder.decode(['address'], verified(res.body.data, data).result)[0]).toBe(
      '0x0000000000000000000000000000000000000000',
    );
    const text = resolveCall('nobody.oak.eth', iface.encodeFunctionData('text', [namehash('nobody.oak.eth'), 'url']));
    expect(coder.decode(['string'], verified((await get(SENDER, text).expect(200)).body.data, text).result)[0]).toBe(
      '',
    );
  });

  it('Cache-Control: public, max-age = ttl, else 60, at most half the signature lifetime; s-maxage 0 by default', async () => {
    const maxAge = async (name: string) => (await get(SENDER, resolveCall(name)).expect(200)).headers['cache-control'];
    expect(await maxAge('alice.oak.eth')).toBe('public, max-age=120, s-maxage=0, stale-if-error=0');
    expect(await maxAge('plain.oak.eth')).toBe('public, max-age=60, s-maxage=0, stale-if-error=0');
    expect(await maxAge('forever.oak.eth')).toBe('public, max-age=150, s-maxage=0, stale-if-error=0');
    expect(await maxAge('nobody.oak.eth')).toBe('public, max-age=60, s-maxage=0, stale-if-error=0');
  });

  it('a write or a delete is visible to the next resolution', async () => {
    const data = resolveCall('alice.oak.eth');
    const addr = async () => coder.decode(['address'], verified((await get(SENDER, data)).body.data, data).result)[0];
    expect(await addr()).toBe(ETH);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: OTHER }] })
      .expect(200);
    expect(await addr()).toBe(OTHER);
    await request(t.http).delete('/api/v1/subnames/alice.oak.eth').set('x-auth-token', key).expect(204);
    expect(await addr()).toBe('0x0000000000000000000000000000000000000000');
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: ETH }], ttl: 120 })
      .expect(201);
    expect(await addr()).toBe(ETH);
  });

  describe('400 problem JSON naming the field', () => {
    const problem = (res: request.Response) => {
      expect(res.headers['content-type']).toContain('application/problem+json');
      return { code: res.body.code, fields: (res.body.errors ?? []).map((e: { field: string }) => e.field) };
    };
    const data = resolveCall('alice.oak.eth');

    it('sender that is not an address', async () => {
      for (const sender of ['0x1234', 'alice.eth', `0x${'g'.repeat(40)}`, `${SENDER}00`]) {
        expect(problem(await get(sender, data).expect(400))).toEqual({ code: 'VALIDATION_FAILED', fields: ['sender'] });
        expect(problem(await post({ sender, data }).expect(400))).toEqual({
          code: 'VALIDATION_FAILED',
          fields: ['sender'],
        });
      }
    });

    it('data that is not hex, not a resolve call, or does not decode', async () => {
      for (const bad of ['0x', '0xzz', 'abc', '0x123', `${data}0`]) {
        expect(problem(await get(SENDER, bad).expect(400))).toEqual({ code: 'VALIDATION_FAILED', fields: ['data'] });
      }
      for (const bad of [addrOf('alice.oak.eth'), data.slice(0, 100), '0x9061b923']) {
        expect(problem(await post({ sender: SENDER, data: bad }).expect(400))).toEqual({
          code: 'VALIDATION_FAILED',
          fields: ['data'],
        });
      }
      expect(problem(await post({ sender: SENDER }).expect(400)).fields).toEqual(['data']);
      expect(problem(await post({ sender: SENDER, data, extra: 1 }).expect(400)).fields).toEqual(['extra']);
      expect(problem(await post({ sender: SENDER, data: 7 }).expect(400)).fields).toEqual(['data']);
    });

    it('a DNS name that does not decode or normalise, and a node that is not its namehash', async () => {
      const truncated = iface.encodeFunctionData('resolve', ['0x05616c6963', addrOf('alice.oak.eth')]);
      expect(problem(await get(SENDER, truncated).expect(400))).toEqual({
        code: 'VALIDATION_FAILED',
        fields: ['data.name'],
      });
      const spaced = iface.encodeFunctionData('resolve', [hexlify(Uint8Array.from([3, 97, 32, 98, 0])), '0x']);
      expect(problem(await get(SENDER, spaced).expect(400)).fields).toEqual(['data.name']);
      const wrongNode = resolveCall('alice.oak.eth', addrOf('bob.oak.eth'));
      const res = await get(SENDER, wrongNode).expect(400);
      expect(problem(res)).toEqual({ code: 'VALIDATION_FAILED', fields: ['data.node'] });
      expect(res.body.detail).toContain(namehash('alice.oak.eth'));
    });

    it('UNSUPPORTED_RESOLVER_CALL for an inner function the gateway does not answer', async () => {
      const pubkey = resolveCall('alice.oak.eth', iface.encodeFunctionData('pubkey', [namehash('alice.oak.eth')]));
      const res = await get(SENDER, pubkey).expect(400);
      expect(problem(res)).toEqual({ code: 'UNSUPPORTED_RESOLVER_CALL', fields: ['data.call'] });
      expect(res.body.title).toBe('Unsupported resolver call');
      expect(res.body.detail).toContain('0xc8690233');
      const multi = iface.encodeFunctionData('multicall', [
        [addrOf('alice.oak.eth'), iface.encodeFunctionData('pubkey', [namehash('alice.oak.eth')])],
      ]);
      expect(problem(await post({ sender: SENDER, data: resolveCall('alice.oak.eth', multi) }).expect(400))).toEqual({
        code: 'UNSUPPORTED_RESOLVER_CALL',
        fields: ['data.calls[1]'],
      });
    });
  });

  it('browsers may call it from any origin (CORS), and it counts against the client address', async () => {
    const res = await get(SENDER, resolveCall('alice.oak.eth')).set('origin', 'https://app.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['ratelimit-limit']).toBe('1000000');
    const preflight = await request(t.http)
      .options('/api/v1/ccip-read')
      .set('origin', 'https://app.example')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'content-type')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('Content-Type');
    const refused = await get('0x1', '0x1').expect(400);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    // A body the JSON parser refuses is answered with the header too, so that the browser can read the problem.
    const unparsable = await request(t.http)
      .post('/api/v1/ccip-read')
      .set('content-type', 'application/json')
      .send('{"sender":')
      .expect(400);
    expect(unparsable.headers['access-control-allow-origin']).toBe('*');
    expect(unparsable.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Only the gateway: the rest of the API keeps the same-origin policy.
    const other = await request(t.http).get('/api/v1/ccip-readx/signer').set('origin', 'https://app.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it(`no calldata gets a 5xx: ${runs(600)} random, truncated and mutated calldatas (fast-check, seeded)`, async () => {
    const node = namehash('alice.oak.eth');
    const valid = [
      resolveCall('alice.oak.eth'),
      resolveCall('alice.oak.eth', iface.encodeFunctionData('addr(bytes32,uint256)', [node, 0n])),
      resolveCall('alice.oak.eth', iface.encodeFunctionData('text', [node, 'url'])),
      resolveCall('alice.oak.eth', iface.encodeFunctionData('contenthash', [node])),
      resolveCall(
        'alice.oak.eth',
        iface.encodeFunctionData('multicall', [
          [addrOf('alice.oak.eth'), iface.encodeFunctionData('contenthash', [node])],
        ]),
      ),
      resolveCall('plain.oak.eth', iface.encodeFunctionData('text', [namehash('plain.oak.eth'), 'constructor'])),
    ];
    const hex = (bytes: Uint8Array) => hexlify(bytes);
    const selectors = [
      '0x9061b923',
      '0x3b3b57de',
      '0xf1cb7e06',
      '0x59d1d43c',
      '0xbc1c58d1',
      '0xac9650d8',
      '0x691f3431',
      '0xc8690233',
    ];
    const calldata = fc.oneof(
      // random bytes, with and without the resolve selector
      fc.uint8Array({ maxLength: 300 }).map(hex),
      fc.tuple(fc.constantFrom(...selectors), fc.uint8Array({ maxLength: 400 })).map(([s, b]) => s + hex(b).slice(2)),
      // valid calls truncated anywhere
      fc.tuple(fc.constantFrom(...valid), fc.nat()).map(([d, n]) => d.slice(0, 2 + 2 * (n % ((d.length - 2) / 2)))),
      // valid calls with one byte changed
      fc.tuple(fc.constantFrom(...valid), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([d, n, b]) => {
        const i = 2 + 2 * (n % ((d.length - 2) / 2));
        return d.slice(0, i) + b.toString(16).padStart(2, '0') + d.slice(i + 2);
      }),
      // a valid outer call around random names and inner calls
      fc
        .tuple(fc.uint8Array({ maxLength: 80 }), fc.constantFrom(...selectors), fc.uint8Array({ maxLength: 200 }))
        .map(([name, s, tail]) => iface.encodeFunctionData('resolve', [name, s + hex(tail).slice(2)])),
      fc
        .tuple(fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 4 }), fc.uint8Array({ maxLength: 40 }))
        .map(([labels, tail]) => {
          try {
            return iface.encodeFunctionData('resolve', [
              dnsEncode(labels.join('.')),
              `0x3b3b57de${hex(tail).slice(2)}`,
            ]);
          } catch {
            return `0x9061b923${hex(tail).slice(2)}`;
          }
        }),
      // not hex at all
      fc.string({ maxLength: 60 }),
    );
    const sender = fc.oneof(fc.constant(SENDER), fc.constant(SENDER.toLowerCase()), fc.string({ maxLength: 45 }));
    const ways = ['get', 'get.json', 'post'] as const;
    const examples = valid.map((d, i): [string, string, (typeof ways)[number]] => [d, SENDER, ways[i % 3]]);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(calldata, sender, fc.constantFrom(...ways), async (data, from, how) => {
        const res =
          how === 'post'
            ? await post({ sender: from, data })
            : await request(t.http).get(
                `/api/v1/ccip-read/${encodeURIComponent(from)}/${encodeURIComponent(data)}${how === 'get.json' ? '.json' : ''}`,
              );
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status < 500).toBe(true);
        if (res.status === 200) {
          verified(res.body.data, data, from);
        } else if (res.status === 400) {
          expect(['VALIDATION_FAILED', 'UNSUPPORTED_RESOLVER_CALL']).toContain(res.body.code);
          for (const e of res.body.errors ?? []) expect(e.field).toMatch(FIELDS);
        } else {
          // Only the router may answer otherwise: a path the route cannot take (an empty or dot segment).
          expect([404]).toContain(res.status);
        }
      }),
      // Each valid call once, each way of asking in turn, so answered calls are checked whatever the count drawn
      // (fast-check counts examples among numRuns: they come on top of the generated cases).
      { seed: 20261123, numRuns: runs(600) + examples.length, examples },
    );
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(share(300, 600));
  });

  it('signed on the signing thread, as production signs: signing_thread_up 1 after its signatures', async () => {
    await expectSignedOnTheThread(t);
  });
});

describe('CCIP-Read gateway rate limit (per client address)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'ccip-rl-')), RATE_LIMIT_RESOLUTION_PER_IP: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 RATE_LIMITED past the gateway budget per address (RATE_LIMIT_RESOLUTION_PER_IP)', async () => {
    const data = resolveCall('alice.oak.eth');
    for (let i = 0; i < 3; i++) await request(t.http).get(`/api/v1/ccip-read/${SENDER}/${data}.json`).expect(200);
    const res = await request(t.http).post('/api/v1/ccip-read').send({ sender: SENDER, data }).expect(429);
    expect(res.body.code).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
