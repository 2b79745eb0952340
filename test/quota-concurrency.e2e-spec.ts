import { BURST_REPLICA_ENV, ServiceProcess, startServiceProcess } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

const REPLICA_ENV = { ...BURST_REPLICA_ENV, RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_IP: '1000000' };

async function create(url: string, key: string, label: string, parentName = 'oak.eth') {
  const res = await fetch(`${url}/api/v1/subnames`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': key },
    body: JSON.stringify({ parentName, label, texts: [{ key: 'url', value: `https://${label}.example` }] }),
  });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code, remaining: res.headers.get('x-quota-remaining') };
}

function tally(results: { status: number; code?: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const k = r.code ? `${r.status} ${r.code}` : String(r.status);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('quota and create-or-update under concurrency, across two service processes', () => {
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

  const count = async (sql: string, params: unknown[] = []) => (await t.dataSource.query(sql, params))[0].n as number;

  it('2,100 parallel creates of distinct names against a 2,000 limit: exactly 2,000 succeed and 2,000 rows exist', async () => {
    const { id, key } = await t.issueKey(['oak.eth'], 2000);
    const results = await Promise.all(
      Array.from({ length: 2100 }, (_, i) => create(replicas[i % 2].url, key, `n${i}`)),
    );
    expect(tally(results)).toEqual({ '201': 2000, '403 QUOTA_EXCEEDED': 100 });
    expect(await count(`SELECT count(*)::int AS n FROM subnames WHERE parent_name = 'oak.eth'`)).toBe(2000);
    expect(await count('SELECT used AS n FROM key_quotas WHERE api_key_id = $1', [id])).toBe(2000);
    // Each successful answer reported a distinct remaining count: the units were handed out one by one.
    const remaining = results.filter((r) => r.status === 201).map((r) => Number(r.remaining));
    expect(new Set(remaining).size).toBe(2000);
    expect(Math.min(...remaining)).toBe(0);
    expect(Math.max(...remaining)).toBe(1999);
  });

  it('12 parallel creates of one new name: one 201, eleven 200, one unit of quota, one row', async () => {
    const { id, key } = await t.issueKey(['pine.eth'], 50);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(replicas[i % 2].url, key, 'same', 'pine.eth')),
    );
    expect(tally(results)).toEqual({ '201': 1, '200': 11 });
    expect(await count(`SELECT count(*)::int AS n FROM subnames WHERE full_name = 'same.pine.eth'`)).toBe(1);
    expect(await count('SELECT used AS n FROM key_quotas WHERE api_key_id = $1', [id])).toBe(1);
  });
});
