import { CONFIRMATION_WINDOW_MS, UNCONFIRMED_MAX_AGE_MS } from '../src/cache/record-cache';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { TcpProxy } from './support/tcp-proxy';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';

/** Generous: with the short timeouts below a request needs about 2 s at worst to give up on the database. */
const HANG_BOUND_MS = 10_000;
/** A name read before the cut may be answered from the subname cache until both its age and its proof run out. */
const CACHED_FOR_MS = Math.max(UNCONFIRMED_MAX_AGE_MS, CONFIRMATION_WINDOW_MS);

interface Outcome {
  kind: string;
  status: number;
  ms: number;
  startedAt: number;
  body: string;
  retryAfter: string | null;
}

describe('PostgreSQL going away and coming back (service process behind a TCP proxy)', () => {
  let proxy: TcpProxy;
  let svc: ServiceProcess;
  let key: string;
  let seq = 0;

  beforeAll(async () => {
    await resetTestDatabase();
    const target = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    svc = await startServiceProcess({
      DATABASE_URL: proxy.url(process.env.TEST_DATABASE_URL!),
      DATABASE_CONNECT_TIMEOUT_MS: '500',
      DATABASE_STATEMENT_TIMEOUT_MS: '500',
      DATABASE_POOL_SIZE: '4',
    });
    const res = await fetch(`${svc.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'fault', parentNames: ['oak.eth'] }),
    });
    key = ((await res.json()) as { key: string }).key;
  });

  afterAll(async () => {
    await svc?.stop();
    await proxy?.close();
  });

  /** One request of each kind that needs the database: a keyed create, a public read, a search. */
  async function one(kind: 'create' | 'read' | 'search'): Promise<Outcome> {
    const startedAt = Date.now();
    const init: RequestInit =
      kind === 'create'
        ? {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-auth-token': key },
            body: JSON.stringify({ parentName: 'oak.eth', label: `n${++seq}` }),
          }
        : kind === 'search'
          ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"parentName":"oak.eth"}' }
          : {};
    const path =
      kind === 'create'
        ? '/api/v1/subnames'
        : kind === 'search'
          ? '/api/v1/subnames/search'
          : '/api/v1/subnames/n1.oak.eth';
    const res = await fetch(`${svc.url}${path}`, { ...init, signal: AbortSignal.timeout(HANG_BOUND_MS * 2) });
    const body = await res.text();
    return {
      kind,
      status: res.status,
      ms: Date.now() - startedAt,
      startedAt,
      body,
      retryAfter: res.headers.get('retry-after'),
    };
  }

  /** Keeps `concurrency` requests going until `stop()` resolves; returns every outcome. */
  function load(concurrency: number): { stop: () => Promise<Outcome[]> } {
    const outcomes: Outcome[] = [];
    let running = true;
    const kinds = ['create', 'read', 'search'] as const;
    const workers = Array.from({ length: concurrency }, async (_, w) => {
      for (let i = 0; running; i++) outcomes.push(await one(kinds[(w + i) % kinds.length]));
    });
    return {
      stop: async () => {
        running = false;
        await Promise.all(workers);
        return outcomes;
      },
    };
  }

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const ready = async () => {
    const res = await fetch(`${svc.url}/health/ready`);
    return {
      status: res.status,
      body: (await res.json()) as { status: string; details: { database: { status: string } } },
    };
  };

  /** The requests begun after the cut that must reach PostgreSQL: every create and search, and reads no cache answers. */
  const afterCut = (outcomes: Outcome[], cutAt: number) =>
    outcomes.filter((o) => o.startedAt > cutAt + 100 + (o.kind === 'read' ? CACHED_FOR_MS : 0));

  /**
   * The requests begun after the service first answered that the database is unavailable. Answers PostgreSQL sent
   * just before a black hole can still be unread in the service's socket when later requests arrive (a loaded
   * machine reads both in one turn), and a pool wait that sees one met a busy database, not a silent one. The
   * service decides "unavailable" only after reading its sockets, so once it has said so no such answer is left.
   */
  function afterNoticed(outcomes: Outcome[], cutAt: number): Outcome[] {
    const noticedAt = Math.min(
      ...outcomes
        .filter((o) => o.startedAt > cutAt && o.body.includes('"SERVICE_UNAVAILABLE"'))
        .map((o) => o.startedAt + o.ms),
    );
    expect(noticedAt - cutAt).toBeLessThan(HANG_BOUND_MS);
    return afterCut(outcomes, cutAt).filter((o) => o.startedAt > noticedAt);
  }

  /** A read answered during the outage is the cached subname, whole. */
  function expectCachedReads(outcomes: Outcome[]): void {
    for (const o of outcomes.filter((r) => r.kind === 'read' && r.status === 200)) {
      expect(JSON.parse(o.body)).toMatchObject({ fullName: 'n1.oak.eth', parentName: 'oak.eth', label: 'n1' });
    }
  }

  function expectOnlyUnavailable(outcomes: Outcome[]): void {
    expect(outcomes.length).toBeGreaterThan(0);
    for (const o of outcomes) {
      expect({ kind: o.kind, status: o.status }).toEqual({ kind: o.kind, status: 503 });
      expect(JSON.parse(o.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
      expect(o.retryAfter).toBe('5');
      expect(o.body).not.toMatch(/SELECT|INSERT|UPDATE|stack|\bat \w+ \(|timeout exceeded|ECONN/i);
    }
  }

  async function expectRecovery(): Promise<void> {
    const deadline = Date.now() + 20_000;
    while ((await ready()).status !== 200 && Date.now() < deadline) await pause(200);
    expect((await ready()).status).toBe(200);
    const outcomes = await Promise.all([one('create'), one('read'), one('search'), one('create')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual([200, 200, 201, 201]);
  }

  it('serves normally through the proxy', async () => {
    const outcomes = await Promise.all([one('create'), one('create'), one('search')]);
    expect(outcomes.map((o) => o.status)).toEqual([201, 201, 200]);
    expect((await one('read')).status).toBe(200);
    expect((await ready()).body.details.database.status).toBe('up');
  });

  it('refused: under load only 503s with Retry-After, none hangs, readiness fails, the process stays up', async () => {
    // Fill the pool, let the connections go idle, then cut them: idle clients emit 'error' with nobody waiting.
    await Promise.all([one('read'), one('read'), one('search'), one('search')]);
    await pause(200);
    const cutAt = Date.now();
    proxy.setMode('refuse');
    // Let the idle clients hear their sockets close first: a request that checked one out sooner would take its
    // error as the query's, and the pool's 'error' path (asserted below) would go untested.
    await pause(50);
    const traffic = load(6);
    await pause(2_500);
    const health = await ready();
    const live = await fetch(`${svc.url}/health/live`);
    const outcomes = await traffic.stop();

    // Requests begun once the pool had noticed (a few ms) never reach PostgreSQL: 503, and fast.
    expectOnlyUnavailable(afterCut(outcomes, cutAt));
    expectCachedReads(outcomes);
    for (const o of outcomes) {
      expect([200, 201, 503]).toContain(o.status);
      expect(o.ms).toBeLessThan(HANG_BOUND_MS);
    }
    expect(health.status).toBe(503);
    expect(health.body.status).toBe('error');
    expect(health.body.details.database.status).toBe('down');
    expect(live.status).toBe(200);
    // Idle pooled connections were cut under it: their 'error' events were handled, not fatal.
    expect(svc.child.exitCode).toBeNull();
    expect(await svc.outputContaining('pool raised an error')).toContain('pool raised an error');
  });

  it('recovers by itself once the database is back, without a restart', async () => {
    proxy.setMode('forward');
    await expectRecovery();
    expect(svc.child.exitCode).toBeNull();
  });

  it('black-holed (connections accepted, nothing answered): under load only 503s within the bound', async () => {
    const traffic = load(6);
    await pause(500);
    const cutAt = Date.now();
    proxy.setMode('blackhole');
    await pause(5_000);
    const healthStarted = Date.now();
    const health = await ready();
    const healthMs = Date.now() - healthStarted;
    const outcomes = await traffic.stop();

    // Requests already waiting on a connection when it went silent give up after query_timeout (1.5 s).
    expectOnlyUnavailable(afterNoticed(outcomes, cutAt));
    expectCachedReads(outcomes);
    for (const o of outcomes) {
      expect([200, 201, 503]).toContain(o.status);
      expect(o.ms).toBeLessThan(HANG_BOUND_MS);
    }
    expect(health.status).toBe(503);
    expect(health.body.details.database.status).toBe('down');
    expect(healthMs).toBeLessThan(HANG_BOUND_MS);
    expect(svc.child.exitCode).toBeNull();
  });

  it('recovers from the black hole too: the silent connections are dropped, not reused', async () => {
    proxy.setMode('forward');
    await expectRecovery();
    // Every pooled connection is a fresh one that answers.
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => one(i % 2 ? 'read' : 'search')));
    expect(outcomes.every((o) => o.status === 200 && o.ms < HANG_BOUND_MS)).toBe(true);
  });
});
