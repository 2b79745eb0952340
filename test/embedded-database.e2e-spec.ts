import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedProcess, startEmbeddedProcess } from './support/embedded-process';
import { freePort } from './support/service-process';
import { logChild } from './support/suite-log';
import { ADMIN_TOKEN } from './support/test-app';

const DIST = join(__dirname, '..', 'dist');
const MAIN = join(DIST, 'main.js');
const CLI = join(DIST, 'cli.js');
const MIGRATE = join(DIST, 'database', 'migrate-cli.js');

// One in-memory database for the tests that only connect to it, started when first asked for.
let memoryDb: Promise<EmbeddedProcess> | undefined;
const inMemoryDb = () => (memoryDb ??= startEmbeddedProcess(undefined));
afterAll(async () => (await memoryDb)?.stop());

describe('embedded database (PGlite behind the session-level server)', () => {
  let db: EmbeddedProcess;
  const clients: Client[] = [];
  const connect = async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    db = await inMemoryDb();
    const c = await connect();
    await c.query('CREATE TABLE t (n int)');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  });

  it('answers parameterised queries from many connections with their own values', async () => {
    const conns = await Promise.all([connect(), connect(), connect(), connect()]);
    // The four connections run at once; each sends its next query after its last answer (pg queues otherwise).
    const answers: number[] = [];
    await Promise.all(
      conns.map(async (conn, k) => {
        for (let i = k; i < 200; i += 4) answers[i] = (await conn.query('SELECT $1::int * 2 AS v', [i])).rows[0].v;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => i * 2));
  });

  it("keeps one connection's transaction apart: another sees nothing until it commits", async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    await a.query('BEGIN');
    await a.query('INSERT INTO t VALUES (1)');
    let seen: number | undefined;
    const reading = b.query('SELECT count(*)::int AS n FROM t').then((r) => (seen = r.rows[0].n));
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toBeUndefined(); // b waits for the session
    await a.query('COMMIT');
    await reading;
    expect(seen).toBe(1);
  });

  it('rolls back the transaction of a connection that leaves in the middle of it', async () => {
    const a = await connect();
    await a.query('BEGIN');
    await a.query('INSERT INTO t VALUES (2)');
    a.on('error', () => undefined); // the client reports its own cut connection
    (a as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const b = await connect();
    expect((await b.query('SELECT count(*)::int AS n FROM t WHERE n = 2')).rows[0].n).toBe(0);
  });

  it('keeps its data in DATA_DIR across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sns-embedded-'));
    try {
      const first = await startEmbeddedProcess(dir);
      const c1 = new Client({ connectionString: first.url });
      await c1.connect();
      await c1.query(`CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')`);
      await c1.end();
      await first.stop();

      const second = await startEmbeddedProcess(dir);
      const c2 = new Client({ connectionString: second.url });
      await c2.connect();
      expect((await c2.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
      await c2.end();
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The service's environment for an embedded run: no DATABASE_URL, quiet, a data folder of its own. */
function embeddedEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    RATE_LIMIT_PER_IP: '1000000',
    ...overrides,
  };
  delete env.DATABASE_URL;
  return env;
}

/** Runs a command to its end; its exit code and everything it printed. */
function runToExit(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = logChild(basename(command), spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The built service on an embedded database in `dataDir`, once it is ready. */
async function startEmbeddedService(
  dataDir: string,
  overrides: Record<string, string> = {},
): Promise<{ url: string; dataDir: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = logChild(
    'service',
    spawn(process.execPath, [MAIN], {
      env: embeddedEnv({ DATA_DIR: dataDir, PORT: String(port), ...overrides }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Whether this machine lets the test start a process as PID 1 of a new PID namespace (root with unshare). */
async function canRunAsPid1(): Promise<boolean> {
  const probe = await runToExit(
    'unshare',
    ['--pid', '--fork', '--mount-proc', 'sh', '-c', 'echo $$'],
    process.env,
  ).catch(() => ({ code: 1, output: '' }));
  return probe.code === 0 && probe.output.trim() === '1';
}

describe('embedded database locked down', () => {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  // One running service for the tests that only need one beside them (with the shortest pool wait, for the burst).
  let service: ReturnType<typeof startEmbeddedService> | undefined;
  const runningService = () =>
    (service ??= startEmbeddedService(tempDir('sns-embedded-svc-'), { DATABASE_CONNECT_TIMEOUT_MS: '100' }));
  afterAll(async () => {
    await (await service)?.stop();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('its port accepts only its own user with the password of this run: a wrong password, none, or another user is refused', async () => {
    const db = await inMemoryDb();
    const url = new URL(db.url);
    expect(url.username).toBe('postgres');
    expect(decodeURIComponent(url.password)).toMatch(/^[\w-]{32}$/);
    const attempt = async (user: string, password: string | undefined) => {
      const c = new Client({ host: '127.0.0.1', port: Number(url.port), user, password, database: 'postgres' });
      try {
        await c.connect();
        return (await c.query('SELECT 1 AS one')).rows[0].one as number;
      } catch (e) {
        return (e as { code?: string }).code ?? (e as Error).message;
      } finally {
        await c.end().catch(() => undefined);
      }
    };
    expect(await attempt('postgres', 'postgres')).toBe('28P01');
    expect(await attempt('postgres', `${decodeURIComponent(url.password)}x`)).toBe('28P01');
    expect(await attempt('admin', decodeURIComponent(url.password))).toBe('28P01');
    expect(await attempt('postgres', '')).not.toBe(1);
    expect(await attempt('postgres', decodeURIComponent(url.password))).toBe(1);
  });

  it('keeps its port and password in a file only its own user can read, in a folder only its user can enter', async () => {
    const dir = tempDir('sns-embedded-private-');
    const db = await startEmbeddedProcess(dir);
    try {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'pgdata')).mode & 0o777).toBe(0o700);
      const file = join(dir, 'embedded-server.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const record = JSON.parse(readFileSync(file, 'utf8')) as { port: number; password: string };
      expect(db.url).toBe(`postgres://postgres:${record.password}@127.0.0.1:${record.port}/postgres`);
    } finally {
      await db.stop();
    }
    expect(existsSync(join(dir, 'embedded-server.json'))).toBe(false);
  });

  it('one process holds a data folder: a second database process on it is refused until the first stops', async () => {
    const dir = tempDir('sns-embedded-lock-');
    const first = await startEmbeddedProcess(dir);
    await expect(startEmbeddedProcess(dir)).rejects.toThrow(/exited with 1/);
    await first.stop();
    const again = await startEmbeddedProcess(dir);
    await again.stop();
  });

  it('a second service on the same DATA_DIR refuses to start, even as PID 1, and whatever the owner file says', async () => {
    const svc = await runningService();
    const dir = svc.dataDir;
    // The old guard compared pids and skipped PID 1; the lock does not read a pid at all.
    const file = join(dir, 'embedded-server.json');
    const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...record, pid: 1 }), { mode: 0o600 });
    const port = String(await freePort());
    const env = embeddedEnv({ DATA_DIR: dir, PORT: port });
    // As PID 1 of its own PID namespace when the machine allows it (root with unshare), else as any process.
    const asPid1 = await canRunAsPid1();
    const second = asPid1
      ? await runToExit(
          'unshare',
          ['--pid', '--fork', '--mount-proc', 'sh', '-c', `echo "pid $$"; exec "${process.execPath}" "${MAIN}"`],
          env,
        )
      : await runToExit(process.execPath, [MAIN], env);
    if (asPid1) expect(second.output).toMatch(/^pid 1$/m);
    expect(second.code).toBe(1);
    expect(second.output).toContain('another process holds the embedded database');
    // The first is untouched and still serves.
    expect((await fetch(`${svc.url}/health/ready`)).status).toBe(200);
  });

  it("the CLI and migration:run reach a running service's embedded data through its recorded credentials", async () => {
    const svc = await runningService();
    const env = embeddedEnv({ DATA_DIR: svc.dataDir });
    const created = await runToExit(
      process.execPath,
      [CLI, 'keys', 'create', '--name', 'cli', '--parent', 'cli.eth', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.output.slice(created.output.indexOf('{'))) as { key: string };
    const res = await fetch(`${svc.url}/api/v1/subnames`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': key },
      body: JSON.stringify({ parentName: 'cli.eth', label: 'made-by-cli' }),
    });
    expect(res.status).toBe(201);
    const migrated = await runToExit(process.execPath, [MIGRATE], env);
    expect(migrated.code).toBe(0);
    expect(migrated.output).toContain('no pending migrations');
  });

  it('a burst of 300 parallel creates waits for the one pooled connection instead of answering 503', async () => {
    // The shortest pool wait the configuration allows: the queue for PGlite's one session outlasts it many times.
    const svc = await runningService();
    const issued = await fetch(`${svc.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'burst', parentNames: ['oak.eth'], quota: 250 }),
    });
    const { key } = (await issued.json()) as { key: string };
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetch(`${svc.url}/api/v1/subnames`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-auth-token': key },
          body: JSON.stringify({ parentName: 'oak.eth', label: `b${i}` }),
        }).then((r) => r.status),
      ),
    );
    const tally: Record<number, number> = {};
    for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
    expect(tally).toEqual({ 201: 250, 403: 50 });
  });

  it('NODE_ENV=production without DATABASE_URL refuses to start, naming ALLOW_EMBEDDED_DATABASE; with it set, starts', async () => {
    const dir = tempDir('sns-embedded-prod-');
    const keys = {
      MINT_MAINNET_SIGNER_KEY: `0x${'11'.repeat(32)}`,
      MINT_TESTNET_SIGNER_KEY: `0x${'22'.repeat(32)}`,
      CCIP_SIGNER_KEY: `0x${'33'.repeat(32)}`,
    };
    const refused = await runToExit(
      process.execPath,
      [MAIN],
      embeddedEnv({ NODE_ENV: 'production', DATA_DIR: dir, ...keys }),
    );
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('ALLOW_EMBEDDED_DATABASE');
    expect(existsSync(join(dir, 'pgdata'))).toBe(false);
    const allowed = await startEmbeddedService(dir, {
      NODE_ENV: 'production',
      ALLOW_EMBEDDED_DATABASE: 'true',
      ...keys,
    });
    expect((await fetch(`${allowed.url}/health/ready`)).status).toBe(200);
    await allowed.stop();
  });
});
