import { get, request } from 'node:http';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';

/** One request on a connection of its own (the cluster's primary hands out connections, not requests). */
function fresh(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** One request on a connection of its own from a given loopback address (each is a client address of its own). */
function from(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, localAddress, method: init.method, headers: init.headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function logLines(svc: ServiceProcess): { pid?: number; msg?: string; route?: string }[] {
  return svc
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { pid?: number; msg?: string; route?: string });
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('WORKERS=2: Node cluster', () => {
  let svc: ServiceProcess;

  beforeAll(async () => {
    await resetTestDatabase();
    svc = await startServiceProcess({ WORKERS: '2', LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    await svc?.stop('SIGKILL');
  });

  it('serves from two worker processes sharing the port, each logging its own lines', async () => {
    await until(async () => {
      await Promise.all(Array.from({ length: 10 }, () => fresh(`${svc.url}/api/v1/ccip-read/signer`)));
      const pids = new Set(
        logLines(svc)
          .filter((l) => l.route === '/api/v1/ccip-read/signer')
          .map((l) => l.pid),
      );
      return pids.size === 2;
    }, 'request lines from two workers');
    const workerPids = new Set(
      logLines(svc)
        .filter((l) => l.route !== undefined)
        .map((l) => l.pid),
    );
    expect(workerPids.has(svc.child.pid)).toBe(false);
    expect(logLines(svc).some((l) => l.msg === 'starting 2 worker processes' && l.pid === svc.child.pid)).toBe(true);
  });

  it('replaces a worker that dies, and keeps answering meanwhile', async () => {
    const served = logLines(svc).filter((l) => l.route === '/api/v1/ccip-read/signer');
    const victim = served[0].pid!;
    process.kill(victim, 'SIGKILL');
    await until(
      () => logLines(svc).some((l) => l.msg?.startsWith(`worker ${victim} exited (SIGKILL); starting another`)),
      'the primary to notice',
    );
    expect(await fresh(`${svc.url}/api/v1/ccip-read/signer`)).toBe(200);
    const before = svc.output().length;
    await until(async () => {
      await Promise.all(Array.from({ length: 10 }, () => fresh(`${svc.url}/api/v1/ccip-read/signer`)));
      const pids = new Set(
        logLines({ output: () => svc.output().slice(before) } as ServiceProcess)
          .filter((l) => l.route === '/api/v1/ccip-read/signer')
          .map((l) => l.pid),
      );
      return pids.size === 2 && !pids.has(victim);
    }, 'two workers again');
  });

  it('drains every worker on SIGTERM and exits 0', async () => {
    expect(await svc.stop('SIGTERM')).toBe(0);
  });
});

describe('WORKERS=2 without Redis: one budget per address for the whole host', () => {
  let svc: ServiceProcess;

  beforeAll(async () => {
    await resetTestDatabase();
    svc = await startServiceProcess({
      WORKERS: '2',
      LOG_LEVEL: 'info',
      REDIS_URL: undefined,
      RATE_LIMIT_PER_IP: '5',
      RATE_LIMIT_PER_KEY: '3',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    // Ready means one worker listens; the test needs both.
    await until(() => {
      const listening = logLines(svc).filter((l) => l.msg?.startsWith('listening on port'));
      return new Set(listening.map((l) => l.pid)).size === 2;
    }, 'both workers listening');
  });

  afterAll(async () => {
    await svc?.stop('SIGKILL');
  });

  it('lets exactly 5 of 16 requests from one address through, whichever worker serves them', async () => {
    // A route on the address budget (the gateway's routes have one of their own).
    const route = '/api/v1/mint/signer';
    const statuses = await Promise.all(Array.from({ length: 16 }, () => fresh(`${svc.url}${route}`)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
    // Both workers answered (some of the 200s and 429s each), so the count was shared, not per process.
    await svc.outputContaining(route, 3_000);
    await until(() => logLines(svc).filter((l) => l.route === route).length === 16, 'a log line per request');
    const pids = new Set(
      logLines(svc)
        .filter((l) => l.route === route)
        .map((l) => l.pid),
    );
    expect(pids.size).toBe(2);
    expect(pids.has(svc.child.pid)).toBe(false);
    // Still refused afterwards, from either worker, on new connections.
    const later = await Promise.all(Array.from({ length: 4 }, () => fresh(`${svc.url}${route}`)));
    expect(later).toEqual([429, 429, 429, 429]);
  });

  it("shares a key's budget too, and gives the address back its unit for each keyed request", async () => {
    const client = '127.0.0.2';
    const issued = await from(client, `${svc.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'cluster', parentNames: ['oak.eth'] }),
    });
    expect(issued.status).toBe(201);
    const { key } = JSON.parse(issued.body) as { key: string };
    // One after another: a keyed request pays its address until its key is known, so ones in flight together
    // would also spend the address's budget.
    const keyed = [];
    for (let i = 0; i < 8; i++)
      keyed.push(await from(client, `${svc.url}/api/v1/quota`, { headers: { 'x-auth-token': key } }));
    expect(keyed.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = keyed.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(JSON.parse(r.body)).toMatchObject({ code: 'RATE_LIMITED' });
    for (const r of refused) expect((JSON.parse(r.body) as { detail: string }).detail).toContain('API key');
    // The address paid 1 (the admin request) and got every keyed unit back: 4 more of 5 pass.
    const open = await Promise.all(
      Array.from({ length: 5 }, () => from(client, `${svc.url}/api/v1/mint/signer`).then((r) => r.status)),
    );
    expect([...open].sort()).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('WORKERS=2 when a worker cannot start', () => {
  it('stops and exits non-zero with the reason, rather than restarting it forever', async () => {
    await expect(
      startServiceProcess({ WORKERS: '2', NODE_ENV: 'production', MINT_MAINNET_SIGNER_KEY: undefined }),
    ).rejects.toThrow(/exited with 1[\s\S]*MINT_MAINNET_SIGNER_KEY is not set[\s\S]*failed to start/);
  });
});
