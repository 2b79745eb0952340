import { request as httpRequest } from 'node:http';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';

interface Held {
  /** Sends the rest of the body; resolves with the status and body of the answer. */
  finish(): Promise<{ status: number; body: string }>;
  /** Resolves with the connection error if the request fails instead of being answered. */
  failed: Promise<Error>;
}

/**
 * A create whose body is sent in two parts: the service has the request (headers parsed, counted in flight)
 * but cannot answer it until `finish()`. That makes "a request in flight when SIGTERM arrives" exact.
 */
function holdCreate(svc: ServiceProcess, key: string, label: string): Held {
  const body = JSON.stringify({ parentName: 'oak.eth', label });
  const half = Math.floor(body.length / 2);
  let fail!: (e: Error) => void;
  const failed = new Promise<Error>((resolve) => (fail = resolve));
  const req = httpRequest(`${svc.url}/api/v1/subnames`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-auth-token': key },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
  });
  req.on('error', fail);
  req.write(body.slice(0, half));
  return {
    failed,
    finish: () => {
      req.end(body.slice(half));
      return answer;
    },
  };
}

async function issueKey(svc: ServiceProcess): Promise<string> {
  const res = await fetch(`${svc.url}/api/v1/admin/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
    body: JSON.stringify({ name: 'shutdown', parentNames: ['oak.eth'] }),
  });
  return ((await res.json()) as { key: string }).key;
}

/** The service's own count of requests in flight, less the scrape asking. */
async function inFlight(svc: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  return Number(/^http_requests_in_flight (\d+)$/m.exec(text)![1]) - 1;
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const exited = (svc: ServiceProcess) =>
  new Promise<number | null>((resolve) => {
    if (svc.child.exitCode !== null) return resolve(svc.child.exitCode);
    svc.child.once('exit', (code) => resolve(code));
  });

describe('graceful shutdown on SIGTERM (service process)', () => {
  beforeAll(() => resetTestDatabase());

  it('finishes every request in flight with its normal status, refuses new connections, closes the pool, exits 0', async () => {
    const svc = await startServiceProcess({ LOG_LEVEL: 'info', SHUTDOWN_GRACE_SECONDS: '20' });
    const key = await issueKey(svc);
    const held = Array.from({ length: 20 }, (_, i) => holdCreate(svc, key, `held${i}`));
    // A burst of complete requests racing the signal, besides.
    const burst = Array.from({ length: 20 }, () =>
      fetch(`${svc.url}/api/v1/subnames/held0.oak.eth`).then(
        (r) => r.status,
        () => 'refused',
      ),
    );
    await until(async () => (await inFlight(svc)) >= 20);

    const exit = exited(svc);
    svc.child.kill('SIGTERM');
    // The listening socket closes: a new connection is refused while the held requests are still open.
    await until(() =>
      fetch(`${svc.url}/health/live`).then(
        () => false,
        () => true,
      ),
    );
    expect(svc.child.exitCode).toBeNull();

    const answers = await Promise.all(held.map((h) => h.finish()));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(answers.map((a) => JSON.parse(a.body).fullName).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `held${i}.oak.eth`).sort(),
    );
    // Burst requests were either answered normally (404, or 200 once held0 exists) or never got in.
    for (const status of await Promise.all(burst)) expect([200, 404, 'refused']).toContain(status);

    expect(await exit).toBe(0);
    const log = svc.output();
    expect(log).toContain('readiness is false');
    expect(log).toMatch(/requests drained in \d+ ms/);
    // The pool closed after the last request, not before: no request saw a closed pool.
    expect(log).not.toContain('Cannot use a pool after calling end');
    expect(log).not.toMatch(/"status":5\d\d/);
  });

  it('with SHUTDOWN_DELAY_SECONDS, readiness is false while requests are still served, then it exits 0', async () => {
    const svc = await startServiceProcess({ SHUTDOWN_DELAY_SECONDS: '2' });
    const exit = exited(svc);
    svc.child.kill('SIGTERM');
    await until(async () => (await fetch(`${svc.url}/health/ready`)).status === 503, 1_500);
    const ready = await fetch(`${svc.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { status: string }).status).toBe('shutting_down');
    expect(ready.headers.get('connection')).toBe('close');
    expect((await fetch(`${svc.url}/health/live`)).status).toBe(200);
    expect((await fetch(`${svc.url}/api/v1/subnames/nobody.oak.eth`)).status).toBe(404);
    expect(await exit).toBe(0);
  });

  it('does not wait past SHUTDOWN_GRACE_SECONDS for a request that never completes', async () => {
    const svc = await startServiceProcess({ SHUTDOWN_GRACE_SECONDS: '1', LOG_LEVEL: 'info' });
    const key = await issueKey(svc);
    const stuck = holdCreate(svc, key, 'stuck');
    await until(async () => (await inFlight(svc)) >= 1);
    const started = Date.now();
    const exit = exited(svc);
    svc.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await stuck.failed).message).toMatch(/socket hang up|ECONNRESET/);
    expect(svc.output()).toContain('still running after 1 s');
  });
});
