import { ServiceProcess, startServiceProcess } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

/** Replicas sized for a burst: waiting for a pooled connection must not time out the test's own burst. */
const REPLICA_ENV = {
  DATABASE_POOL_SIZE: '10',
  DATABASE_CONNECT_TIMEOUT_MS: '60000',
  // The race needs one key's batches in flight together, which a key may not have by default.
  BATCHES_IN_FLIGHT_PER_KEY: '8',
};
const QUOTA = 1000;
const BATCHES = 8;
const BATCH_SIZE = 150;
const SINGLES = 120;
const SHARED = 20;

interface Answer {
  status: number;
  code?: string;
  created?: number;
  updated?: number;
}

async function post(url: string, path: string, key: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${url}/api/v1/subnames${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': key },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code?: string; created?: number; updated?: number };
  return { status: res.status, code: json.code, created: json.created, updated: json.updated };
}

describe('batches and single creates racing on one key, across two service processes', () => {
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

  const rowsUnder = async (parent: string) =>
    Number((await t.dataSource.query('SELECT count(*) AS n FROM subnames WHERE parent_name = $1', [parent]))[0].n);
  const existing = async (names: string[]) =>
    Number(
      (await t.dataSource.query('SELECT count(*) AS n FROM subnames WHERE full_name = ANY($1::text[])', [names]))[0].n,
    );

  // Three rounds, each on its own key and parent: the interleaving differs every time.
  it.each(['race1.eth', 'race2.eth', 'race3.eth'])(
    `%s: ${BATCHES} batches of ${BATCH_SIZE} and ${SINGLES} single creates against a quota of ${QUOTA}`,
    async (parent) => {
      const { id, key } = await t.issueKey([parent], QUOTA);
      // Shared names are in several batches and among the single creates, so the writers meet on rows too.
      const shared = (i: number) => `shared${i % SHARED}.${parent}`;
      const batches = Array.from({ length: BATCHES }, (_, b) => ({
        own: Array.from({ length: BATCH_SIZE - 10 }, (_, i) => `b${b}-${i}.${parent}`),
        names: [
          ...Array.from({ length: BATCH_SIZE - 10 }, (_, i) => `b${b}-${i}.${parent}`),
          ...Array.from({ length: 10 }, (_, i) => shared(b * 5 + i)),
        ],
      }));
      const singles = Array.from({ length: SINGLES }, (_, i) => (i < SHARED ? shared(i) : `s${i}.${parent}`));
      const item = (fullName: string) => ({
        parentName: parent,
        label: fullName.slice(0, fullName.indexOf('.')),
        texts: [{ key: 'url', value: `https://${fullName}` }],
      });

      const work: Promise<{ kind: 'batch' | 'single'; index: number; answer: Answer }>[] = [];
      for (let i = 0; i < Math.max(BATCHES, SINGLES); i++) {
        if (i < BATCHES) {
          const index = i;
          work.push(
            post(replicas[i % 2].url, '/batch', key, { items: batches[i].names.map(item) }).then((answer) => ({
              kind: 'batch' as const,
              index,
              answer,
            })),
          );
        }
        if (i < SINGLES) {
          const index = i;
          work.push(
            post(replicas[(i + 1) % 2].url, '', key, item(singles[i])).then((answer) => ({
              kind: 'single' as const,
              index,
              answer,
            })),
          );
        }
      }
      const results = await Promise.all(work);

      const batchResults = results.filter((r) => r.kind === 'batch');
      const singleResults = results.filter((r) => r.kind === 'single');
      for (const r of batchResults) expect([200, 403]).toContain(r.answer.status);
      for (const r of singleResults) expect([200, 201, 403]).toContain(r.answer.status);
      for (const r of results.filter((x) => x.answer.status === 403)) expect(r.answer.code).toBe('QUOTA_EXCEEDED');

      const rows = await rowsUnder(parent);
      const used = Number(
        (await t.dataSource.query('SELECT used FROM key_quotas WHERE api_key_id = $1', [id]))[0].used,
      );
      expect(rows).toBeLessThanOrEqual(QUOTA);
      expect(used).toBe(rows);
      // Every creation reported is a row, and every row was reported created exactly once.
      const reported =
        batchResults.reduce((n, r) => n + (r.answer.status === 200 ? r.answer.created! : 0), 0) +
        singleResults.filter((r) => r.answer.status === 201).length;
      expect(reported).toBe(rows);
      // All or nothing: a batch's own names are all there when it passed, none when it was refused.
      for (const r of batchResults) {
        const present = await existing(batches[r.index].own);
        expect(present).toBe(r.answer.status === 200 ? BATCH_SIZE - 10 : 0);
        if (r.answer.status === 200) expect(r.answer.created! + r.answer.updated!).toBe(BATCH_SIZE);
      }
      // The demand (1,240 names) exceeds the quota: some batch was refused, so less than one batch is left.
      expect(batchResults.some((r) => r.answer.status === 403)).toBe(true);
      expect(QUOTA - rows).toBeLessThan(BATCH_SIZE);
    },
  );
});
