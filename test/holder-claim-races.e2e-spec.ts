import { Wallet } from 'ethers';
import request from 'supertest';
import { type HolderAnswer, HolderClient, type HolderFields, nowSeconds } from './support/holder-client';
import { BURST_REPLICA_ENV, ServiceProcess, startServiceProcess } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

const PUBLIC_URL = 'https://subnames.example.com';

function tally(answers: HolderAnswer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const k = a.body.code ? `${a.status} ${a.body.code}` : String(a.status);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/**
 * Holders' claims racing across two service processes on one database (CONTRACT section 15): the charged key's
 * quota and a policy's claimsPerAddress are decided in the claim's own transaction, never by a check before it.
 */
describe('holder claims racing the quota and the per-address limit, across two service processes', () => {
  let t: TestApp;
  let replicas: HolderClient[];
  let processes: ServiceProcess[];

  const putPolicy = (parent: string, key: string, body: object) =>
    request(t.http).put(`/api/v1/policies/${parent}`).set('x-auth-token', key).send(body).expect(200);
  const count = async (sql: string, params: unknown[] = []) => (await t.dataSource.query(sql, params))[0].n as number;
  /** Claims signed beforehand, then sent together: the i-th to replica i % 2. */
  const race = (bodies: HolderFields[]) => Promise.all(bodies.map((b, i) => replicas[i % 2].post('claim', b)));

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
    const env = { ...BURST_REPLICA_ENV, PUBLIC_URL };
    processes = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    replicas = processes.map((p) => new HolderClient(p.url));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await t.close();
  });

  it('20 wallets claim at once against a key with 5 creations left: exactly 5 names, the rest QUOTA_EXCEEDED', async () => {
    const { id, key } = await t.issueKey(['oak.eth'], 7);
    for (const label of ['one', 'two']) {
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .send({ parentName: 'oak.eth', label })
        .expect(201);
    }
    await putPolicy('oak.eth', key, { claims: 'open', claimsPerAddress: 100 });
    const wallets = Array.from({ length: 20 }, () => Wallet.createRandom());
    const issuedAt = nowSeconds();
    const bodies = await Promise.all(
      wallets.map((w, i) =>
        replicas[i % 2].signed('claim', w, {
          name: `wallet${i}.oak.eth`,
          owner: w.address,
          texts: [],
          addresses: [],
          issuedAt,
        }),
      ),
    );

    const answers = await race(bodies);
    expect(tally(answers)).toEqual({ '201': 5, '403 QUOTA_EXCEEDED': 15 });
    expect(await count(`SELECT count(*)::int AS n FROM subnames WHERE parent_name = 'oak.eth'`)).toBe(7);
    expect(await count('SELECT used AS n FROM key_quotas WHERE api_key_id = $1', [id])).toBe(7);
    const winners = answers.flatMap((a, i) => (a.status === 201 ? [wallets[i].address] : []));
    expect(answers.filter((a) => a.status === 201).map((a) => a.body.owner)).toEqual(winners);
    // A refused claim counted nothing against its wallet and wrote no audit event.
    expect(await count(`SELECT coalesce(sum(claims), 0)::int AS n FROM holder_claims`)).toBe(5);
    const actors = await t.dataSource.query(
      `SELECT actor FROM audit_events WHERE action = 'subname.create' AND actor LIKE 'wallet:%' ORDER BY actor`,
    );
    expect(actors.map((a: { actor: string }) => a.actor)).toEqual(winners.map((w) => `wallet:${w}`).sort());
    const quota = await request(t.http).get('/api/v1/quota').set('x-auth-token', key).expect(200);
    expect(quota.body).toEqual({ limit: 7, used: 7, remaining: 0 });
  });

  it('with claimsPerAddress 1, one wallet racing two labels gets one name and one CLAIM_LIMIT_REACHED', async () => {
    const { key } = await t.issueKey(['pine.eth'], 100);
    await putPolicy('pine.eth', key, { claims: 'open', claimsPerAddress: 1 });
    const wallets = Array.from({ length: 8 }, () => Wallet.createRandom());
    const base = nowSeconds();
    // Half the wallets sign both claims in the same second (two tabs), half one second apart.
    const bodies = await Promise.all(
      wallets.flatMap((w, i) =>
        ['a', 'b'].map((label, j) =>
          replicas[j].signed('claim', w, {
            name: `${label}wallet${i}.pine.eth`,
            owner: w.address,
            texts: [],
            addresses: [],
            issuedAt: i % 2 === 0 ? base : base + j,
          }),
        ),
      ),
    );

    const answers = await race(bodies);
    for (const [i, w] of wallets.entries()) {
      const pair = answers.slice(2 * i, 2 * i + 2);
      expect({ wallet: w.address, outcome: tally(pair) }).toEqual({
        wallet: w.address,
        outcome: { '201': 1, '403 CLAIM_LIMIT_REACHED': 1 },
      });
      const held = await count(`SELECT count(*)::int AS n FROM subnames WHERE lower(owner) = $1`, [
        w.address.toLowerCase(),
      ]);
      expect(held).toBe(1);
    }
    expect(await count(`SELECT count(*)::int AS n FROM subnames WHERE parent_name = 'pine.eth'`)).toBe(8);
  });
});
