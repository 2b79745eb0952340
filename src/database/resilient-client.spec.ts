import { Client, type ClientConfig } from 'pg';
import { PoolWatch } from '../common/persistence/pool-watch';
import { dataSourceOptions } from './data-source-options';

const SETTINGS = { url: 'postgres://127.0.0.1:1/none', poolSize: 1, statementTimeoutMs: 1000, connectTimeoutMs: 1000 };

/** The client class pg's pool would make connections from, for a data source watched by `watch`. */
function clientClassOf(watch: PoolWatch): new (config?: ClientConfig) => Client {
  return (dataSourceOptions(SETTINGS, watch).extra as { Client: new (config?: ClientConfig) => Client }).Client;
}

describe('the resilient client', () => {
  afterEach(() => jest.restoreAllMocks());

  it("reports to its own data source's watch only: two applications in one process count apart", async () => {
    jest.spyOn(Client.prototype, 'query').mockImplementation((() => Promise.resolve({ rows: [] })) as never);
    const [mine, other] = [new PoolWatch(), new PoolWatch()];
    const start = Date.now();
    await new (clientClassOf(mine))().query('SELECT 1');
    expect([mine.answeredSince(start), other.answeredSince(start)]).toEqual([true, false]);
  });

  it('a query the database owes an answer to makes its own watch silent, not the other', () => {
    jest.spyOn(Client.prototype, 'query').mockImplementation((() => new Promise(() => undefined)) as never);
    const [mine, other] = [new PoolWatch(), new PoolWatch()];
    void new (clientClassOf(mine))().query('SELECT 1');
    expect([mine.silentSince(0), other.silentSince(0)]).toEqual([true, false]);
  });

  it("each data source gets its own client class (pg makes a pool's connections from the class alone)", () => {
    const watch = new PoolWatch();
    expect(clientClassOf(watch)).not.toBe(clientClassOf(watch));
    expect(new (clientClassOf(watch))()).toBeInstanceOf(Client);
  });
});
