import { type AuditItem, canonical, replay, storedAuditFields } from './support/audit-replay';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';

/** Replicas sized for the burst: waiting for a pooled connection must not time out the test's own requests. */
const REPLICA_ENV = {
  DATABASE_POOL_SIZE: '10',
  DATABASE_CONNECT_TIMEOUT_MS: '60000',
  // The batchers share one key, and the race needs their batches in flight together (default 1 per key).
  BATCHES_IN_FLIGHT_PER_KEY: '8',
};
const PARENT = 'race.eth';
const HOT = `hot.${PARENT}`;
/** The names every batch writes beside the hot one, so that batches also meet each other on several rows. */
const NEIGHBOURS = [`aaa.${PARENT}`, `zzz.${PARENT}`];
const WRITERS = 8;
const DELETERS = 8;
const BATCHERS = 4;
const ROUNDS = 30;
const ADDRESSES = ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'];

/** A write that gives some fields and leaves others out, so an update keeps (and its audit names) stored values. */
function item(fullName: string, worker: number, round: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    parentName: PARENT,
    label: fullName.slice(0, fullName.indexOf('.')),
    texts: [{ key: 'url', value: `https://w${worker}.example/${round}` }],
  };
  if ((worker + round) % 2 === 0) body.owner = ADDRESSES[round % 2];
  if ((worker + round) % 3 === 0) body.ttl = 60 + worker;
  if (round % 4 === 1) body.metadata = [{ key: 'round', value: String(round) }];
  return body;
}

describe('writes, deletes and batches racing on one name across two service processes', () => {
  let t: TestApp;
  let replicas: ServiceProcess[];

  beforeAll(async () => {
    t = await createTestApp();
    replicas = await Promise.all([startServiceProcess(REPLICA_ENV), startServiceProcess(REPLICA_ENV)]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await t.close();
  });

  /** Every event about `subject`, oldest first, read page by page through GET /api/v1/admin/audit. */
  async function trail(subject: string): Promise<AuditItem[]> {
    const items: AuditItem[] = [];
    for (let page = 1; ; page++) {
      const res = await fetch(
        `${replicas[0].url}/api/v1/admin/audit?name=${encodeURIComponent(subject)}&size=100&page=${page}`,
        { headers: { 'x-admin-token': ADMIN_TOKEN } },
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: AuditItem[]; totalItems: number };
      items.push(...body.items);
      if (body.items.length < 100) break;
    }
    // Ids grow with each event; a name's events are written under its row lock, so in the order they applied.
    return items.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  it(`${WRITERS} writers, ${DELETERS} deleters and ${BATCHERS} batchers, ${ROUNDS} rounds each: no 5xx, and the trail replays to the table`, async () => {
    const { key } = await t.issueKey([PARENT], 1_000_000);
    const headers = { 'content-type': 'application/json', 'x-auth-token': key };
    const answers: { kind: string; status: number; body: string }[] = [];
    const send = async (kind: string, url: string, init: RequestInit) => {
      const res = await fetch(url, init);
      answers.push({ kind, status: res.status, body: res.status >= 500 ? await res.text() : '' });
      if (res.status < 500) await res.arrayBuffer();
    };
    const worker = async (kind: string, w: number) => {
      const base = `${replicas[w % 2].url}/api/v1/subnames`;
      for (let round = 0; round < ROUNDS; round++) {
        if (kind === 'write') {
          await send(kind, base, { method: 'POST', headers, body: JSON.stringify(item(HOT, w, round)) });
        } else if (kind === 'delete') {
          await send(kind, `${base}/${HOT}`, { method: 'DELETE', headers });
        } else {
          const items = [...NEIGHBOURS, HOT].map((name) => item(name, w + 100, round));
          await send(kind, `${base}/batch`, { method: 'POST', headers, body: JSON.stringify({ items }) });
        }
      }
    };
    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => worker('write', w)),
      ...Array.from({ length: DELETERS }, (_, w) => worker('delete', w + 1)),
      ...Array.from({ length: BATCHERS }, (_, w) => worker('batch', w)),
    ]);

    const failed = answers.filter((a) => a.status >= 500);
    expect({ failed: failed.length, first: failed[0] }).toEqual({ failed: 0, first: undefined });
    const statuses = (kind: string) => [...new Set(answers.filter((a) => a.kind === kind).map((a) => a.status))].sort();
    for (const s of statuses('write')) expect([200, 201]).toContain(s);
    for (const s of statuses('delete')) expect([204, 404]).toContain(s);
    expect(statuses('batch')).toEqual([200]);
    // The race happened: the name was deleted, and created again, many times.
    const hot = await trail(HOT);
    const count = (action: string) => hot.filter((e) => e.action === action).length;
    expect(count('subname.delete')).toBeGreaterThan(10);
    expect(count('subname.create')).toBeGreaterThan(10);
    expect(count('subname.update')).toBeGreaterThan(10);

    for (const name of [HOT, ...NEIGHBOURS]) {
      const { state, misstated } = replay(name === HOT ? hot : await trail(name));
      expect({ name, misstated }).toEqual({ name, misstated: [] });
      expect(canonical(state)).toBe(canonical(await storedAuditFields(t.dataSource, name)));
    }
  }, 600_000);
});
