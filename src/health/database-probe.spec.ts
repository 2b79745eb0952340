import { PoolWatch } from '../common/persistence/pool-watch';
import { isDatabaseBusy } from '../common/persistence/database-errors';
import { probeDatabase } from './database-probe';

const refused = () =>
  Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
const never = () => new Promise<never>(() => undefined);

describe(probeDatabase.name, () => {
  it('is up when the ping answers', async () => {
    expect(await probeDatabase(() => Promise.resolve([{ '?column?': 1 }]), new PoolWatch(), isDatabaseBusy, 50)).toBe(
      'up',
    );
  });

  it('calls a refused connection unreachable even when a query was answered a moment before (an outage starts)', async () => {
    const watch = new PoolWatch();
    watch.answered();
    expect(await probeDatabase(refused, watch, isDatabaseBusy, 50)).toBe('unreachable');
  });

  it('calls a ping that timed out busy when another query was answered during its wait', async () => {
    const watch = new PoolWatch();
    setTimeout(() => watch.answered(), 10);
    expect(await probeDatabase(never, watch, isDatabaseBusy, 50)).toBe('busy');
  });

  it('calls a ping that timed out a timeout when a query was owed and the last answer came before it started', async () => {
    const watch = new PoolWatch();
    watch.answered();
    watch.asked();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await probeDatabase(never, watch, isDatabaseBusy, 50)).toBe('timeout');
  });

  it('calls a ping that timed out busy when nothing was asked of the database during its wait (a held pool)', async () => {
    const watch = new PoolWatch();
    watch.asked();
    watch.settled();
    expect(await probeDatabase(never, watch, isDatabaseBusy, 50)).toBe('busy');
  });

  it('calls a pool wait the pool watch marked busy busy', async () => {
    const busy = () =>
      Promise.reject(Object.assign(new Error('timeout exceeded when trying to connect'), { databaseBusy: true }));
    expect(await probeDatabase(busy, new PoolWatch(), isDatabaseBusy, 50)).toBe('busy');
  });
});
