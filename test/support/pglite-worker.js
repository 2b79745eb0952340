// PGlite on a worker thread: it loads its WebAssembly through dynamic import(), which Jest's module sandbox
// refuses, so unit specs reach it by messages. Each message: { id, sql, params } → { id, rows } or { id, error };
// { id, raw } (a PostgreSQL protocol message) → { id, raw, inTransaction } (its reply, for a PGliteServer).
const { parentPort } = require('node:worker_threads');
const { PGlite } = require('@electric-sql/pglite');
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm');

const ready = PGlite.create({ extensions: { pg_trgm } });
parentPort.on('message', async ({ id, sql, params, raw }) => {
  try {
    const db = await ready;
    if (raw) {
      const reply = await db.execProtocolRaw(raw);
      // A copy of just the reply: the view PGlite returns may span its whole memory.
      parentPort.postMessage({ id, raw: reply.slice(), inTransaction: db.isInTransaction() });
      return;
    }
    const rows = params ? (await db.query(sql, params)).rows : (await db.exec(sql)).flatMap((r) => r.rows);
    parentPort.postMessage({ id, rows });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
