import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedProcess, startEmbeddedProcess } from './support/embedded-process';

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
    db = await startEmbeddedProcess(undefined);
    const c = await connect();
    await c.query('CREATE TABLE t (n int)');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await db.stop();
  });

  it('answers parameterised queries from many connections with their own values', async () => {
    const conns = await Promise.all([connect(), connect(), connect(), connect()]);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        conns[i % 4].query('SELECT $1::int * 2 AS v', [i]).then((r) => r.rows[0].v),
      ),
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
