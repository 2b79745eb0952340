import type { EntityManager } from 'typeorm';
import { migratedDatabase, MigratedDatabase } from '../../test/support/pglite-data-source';
import { SqlParams } from '../common/persistence/sql-params';
import { auditCreatedRowsStatement, auditInsertStatement } from './audit.statements';
import type { AuditEvent } from './audit.types';

const BY = { actor: 'k1', requestId: 'req-1' };
const event = (subject: string, before: object | null, after: object | null): AuditEvent => ({
  by: BY,
  action: 'subname.update',
  subject,
  before: before as AuditEvent['before'],
  after: after as AuditEvent['after'],
});

// The builders' SQL run for real on the migrated schema (PGlite), alone and inside a caller's statement.
describe('audit statements', () => {
  let db: MigratedDatabase;
  let manager: EntityManager;

  const events = () =>
    manager.query('SELECT actor, request_id, action, subject, before, after FROM audit_events ORDER BY id') as Promise<
      Record<string, unknown>[]
    >;
  /** A caller's statement whose CTE `made` has the given rows, recording a creation event for each. */
  const recordMade = async (made: { name: string; ttl: number | null; texts: object }[]) => {
    const params = new SqlParams();
    const sql = `WITH made AS (SELECT * FROM jsonb_to_recordset(${params.add(JSON.stringify(made))}::jsonb)
                                 AS m(name text, ttl bigint, texts jsonb)),
                      audit AS (${auditCreatedRowsStatement(params, { rows: 'made', by: BY, action: 'subname.create', subject: 'name', after: ['texts', 'ttl'] })})
                 SELECT count(*)::int AS n FROM made`;
    return manager.query(sql, params.values);
  };

  beforeAll(async () => {
    db = await migratedDatabase();
    manager = db.dataSource.manager;
  });
  afterAll(() => db?.close());
  beforeEach(() => manager.query('TRUNCATE audit_events RESTART IDENTITY'));

  describe(auditInsertStatement.name, () => {
    it('writes one row per event in the order given, before and after as JSON (null kept), every value bound', async () => {
      const params = new SqlParams();
      const given = [
        event('b.oak.eth', null, { ttl: 1 }),
        event("a'); DROP TABLE audit_events; --", { owner: null }, null),
      ];
      const sql = auditInsertStatement(params, given);
      expect(sql).not.toContain('b.oak.eth');
      await manager.query(sql, params.values);
      expect(await events()).toEqual([
        {
          actor: 'k1',
          request_id: 'req-1',
          action: 'subname.update',
          subject: 'b.oak.eth',
          before: null,
          after: { ttl: 1 },
        },
        {
          actor: 'k1',
          request_id: 'req-1',
          action: 'subname.update',
          subject: "a'); DROP TABLE audit_events; --",
          before: { owner: null },
          after: null,
        },
      ]);
    });
  });

  describe(auditCreatedRowsStatement.name, () => {
    it('records one creation per row of the caller’s relation: subject and "after" read from its columns', async () => {
      await recordMade([
        { name: 'a.oak.eth', ttl: 60, texts: { url: 'https://a' } },
        { name: 'b.oak.eth', ttl: null, texts: {} },
      ]);
      expect(await events()).toEqual([
        {
          actor: 'k1',
          request_id: 'req-1',
          action: 'subname.create',
          subject: 'a.oak.eth',
          before: null,
          after: { texts: { url: 'https://a' }, ttl: 60 },
        },
        {
          actor: 'k1',
          request_id: 'req-1',
          action: 'subname.create',
          subject: 'b.oak.eth',
          before: null,
          after: { texts: {}, ttl: null },
        },
      ]);
    });

    it('records nothing when the relation has no row', async () => {
      await recordMade([]);
      expect(await events()).toEqual([]);
    });

    it('refuses a relation or a column that is not a plain identifier', () => {
      const build = (rows: string, subject: string, after: string[]) => () =>
        auditCreatedRowsStatement(new SqlParams(), { rows, by: BY, action: 'subname.create', subject, after });
      expect(build('made; --', 'name', [])).toThrow('not a plain SQL identifier');
      expect(build('made', 'name)', [])).toThrow('not a plain SQL identifier');
      expect(build('made', 'name', ["ttl', now()"])).toThrow('not a plain SQL identifier');
    });
  });
});
