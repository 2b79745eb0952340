import { isDatabaseBusy, isDatabaseUnavailable } from './database-errors';
import { POOL_WAIT_TIMEOUT, PoolWatch } from './pool-watch';

/** A pool whose connect fails after the test has released (or not) other connections during the wait. */
class FakePool {
  pending: ((err: Error) => void)[] = [];
  connect = (...args: unknown[]): unknown => {
    const callback = args[0] as ((err: Error | undefined) => void) | undefined;
    if (callback) {
      this.pending.push((err) => callback(err));
      return undefined;
    }
    return new Promise((_, reject) => this.pending.push(reject));
  };
  timeOut(): void {
    for (const fail of this.pending.splice(0)) fail(new Error(POOL_WAIT_TIMEOUT));
  }
}

describe(PoolWatch.name, () => {
  function setUp() {
    const pool = new FakePool();
    const sut = new PoolWatch();
    sut.watch(pool);
    return { pool, sut };
  }

  it('marks a wait timeout busy when a query was answered during the wait, unavailable when one owed none', async () => {
    const { pool, sut } = setUp();
    sut.asked();
    const busy = (pool.connect() as Promise<unknown>).catch((e: unknown) => e);
    sut.answered();
    pool.timeOut();
    const stuck = (pool.connect() as Promise<unknown>).catch((e: unknown) => e);
    pool.timeOut();
    expect([isDatabaseBusy(await busy), isDatabaseUnavailable(await busy)]).toEqual([true, false]);
    expect([isDatabaseBusy(await stuck), isDatabaseUnavailable(await stuck)]).toEqual([false, true]);
  });

  it('marks a wait timeout busy when nothing was asked of the database during it (a pool held by other work)', async () => {
    const { pool, sut } = setUp();
    sut.asked();
    sut.answered();
    sut.settled();
    const held = (pool.connect() as Promise<unknown>).catch((e: unknown) => e);
    pool.timeOut();
    expect([isDatabaseBusy(await held), isDatabaseUnavailable(await held)]).toEqual([true, false]);
  });

  it('marks a wait timeout unavailable while a connection attempt is outstanding and nothing answers', async () => {
    const { pool, sut } = setUp();
    sut.answered();
    sut.asked();
    const stuck = (pool.connect() as Promise<unknown>).catch((e: unknown) => e);
    pool.timeOut();
    expect([isDatabaseBusy(await stuck), isDatabaseUnavailable(await stuck)]).toEqual([false, true]);
  });

  it('marks the callback form (the one TypeORM uses) the same way, and through a driverError', async () => {
    const { pool, sut } = setUp();
    sut.asked();
    const got = new Promise<unknown>((resolve) => pool.connect((err: unknown) => resolve({ driverError: err })));
    sut.answered();
    pool.timeOut();
    expect(isDatabaseBusy(await got)).toBe(true);
  });

  it('counts an answer read in the same event-loop turn as the timeout (a loaded loop fires both together)', async () => {
    const { pool, sut } = setUp();
    sut.asked();
    const late = (pool.connect() as Promise<unknown>).catch((e: unknown) => e);
    const lateCallback = new Promise<unknown>((resolve) => pool.connect((err: unknown) => resolve(err)));
    pool.timeOut();
    sut.answered();
    expect(isDatabaseBusy(await late)).toBe(true);
    expect(isDatabaseBusy(await lateCallback)).toBe(true);
  });

  it('never marks a connection failure busy', async () => {
    const { pool, sut } = setUp();
    const refused = (pool.connect() as Promise<unknown>).catch((e: unknown) => e);
    sut.answered();
    for (const fail of pool.pending.splice(0))
      fail(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect([isDatabaseBusy(await refused), isDatabaseUnavailable(await refused)]).toEqual([false, true]);
  });

  it('silentSince says whether the database owes an answer and gave none at or after a moment', () => {
    const { sut } = setUp();
    const start = Date.now();
    expect(sut.silentSince(start)).toBe(false);
    sut.asked();
    expect(sut.silentSince(start)).toBe(true);
    sut.answered();
    expect(sut.silentSince(start)).toBe(false);
    expect(sut.silentSince(Date.now() + 1000)).toBe(true);
    sut.settled();
    expect(sut.silentSince(Date.now() + 1000)).toBe(false);
  });

  it('answeredSince says whether the database answered at or after a moment', () => {
    const { sut } = setUp();
    const start = Date.now();
    expect(sut.answeredSince(start)).toBe(false);
    sut.answered();
    expect(sut.answeredSince(start)).toBe(true);
    expect(sut.answeredSince(Date.now() + 1000)).toBe(false);
  });
});
