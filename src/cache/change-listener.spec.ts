import { Logger } from '@nestjs/common';
import type { Client } from 'pg';
import { FakeClient, FakeTarget } from '../../test/support/change-feed-fakes';
import { Metrics } from '../metrics/metrics';
import { ChangeListener } from './change-listener';
import { ChangeTopics } from './change-topics';

describe(ChangeListener.name, () => {
  let clients: FakeClient[];
  let heard: [string, string][];
  let subnames: FakeTarget;
  let listings: FakeTarget;
  let sut: ChangeListener;
  /** While set, new connections fail to connect. */
  let down: boolean;
  const client = () => clients[clients.length - 1];

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    clients = [];
    heard = [];
    down = false;
    subnames = new FakeTarget();
    listings = new FakeTarget();
    const topics = new ChangeTopics();
    topics.add({ channel: 'subname_changes', redisChannel: 'subname-changes', cache: subnames });
    topics.add({ channel: 'listing_changes', redisChannel: 'listing-changes', cache: listings });
    sut = new ChangeListener({
      topics,
      logger: new Logger('test'),
      createClient: () => {
        const fake = new FakeClient();
        if (down) fake.connect = () => Promise.reject(new Error('ECONNREFUSED'));
        clients.push(fake);
        return fake as unknown as Client;
      },
      heard: (channel, payload) => heard.push([channel, payload]),
      channelUp: new Metrics().changeChannelUp,
    });
    sut.start();
    await jest.advanceTimersByTimeAsync(0);
  });

  afterEach(async () => {
    await sut.stop();
    jest.useRealTimers();
  });

  it('listens on every channel on one connection, and forgets what was cached before it listened', () => {
    expect(clients).toHaveLength(1);
    expect(client().queries).toEqual(['LISTEN subname_changes', 'LISTEN listing_changes']);
    expect(sut.listening).toBe(true);
    expect([subnames.resets, listings.resets]).toEqual([1, 1]);
  });

  it('hands on every notification with its channel', () => {
    client().notify('listing_changes', 'mainnet/oak.eth');
    client().emit('notification', { channel: 'subname_changes', processId: 1 });
    expect(heard).toEqual([
      ['listing_changes', 'mainnet/oak.eth'],
      ['subname_changes', ''],
    ]);
  });

  it('a lost connection withdraws the proof at once, and is replaced after 500 ms by one that resets again', async () => {
    subnames.confirm(1);
    listings.confirm(1);
    client().emit('error', new Error('terminated'));
    expect([sut.listening, subnames.confirmed, listings.confirmed]).toEqual([false, false, false]);
    // The old connection's late notifications are not heard.
    clients[0].notify('subname_changes', 'a.oak.eth');
    expect(heard).toEqual([]);
    await jest.advanceTimersByTimeAsync(499);
    expect(clients).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(clients).toHaveLength(2);
    expect([sut.listening, subnames.resets]).toEqual([true, 2]);
  });

  it('retries a database that stays down after 500 ms, 1 s, 2 s…, and from 500 ms again once it listened', async () => {
    down = true;
    client().emit('end');
    const connectsAfter = async (ms: number) => {
      const before = clients.length;
      await jest.advanceTimersByTimeAsync(ms - 1);
      expect(clients).toHaveLength(before);
      await jest.advanceTimersByTimeAsync(1);
      expect(clients).toHaveLength(before + 1);
    };
    await connectsAfter(500);
    await connectsAfter(1000);
    down = false;
    await connectsAfter(2000);
    expect(sut.listening).toBe(true);
    client().emit('end');
    await connectsAfter(500);
  });

  it('stop closes the connection, withdraws the proof and never reconnects', async () => {
    subnames.confirm(1);
    await sut.stop();
    expect([client().ended, sut.listening, subnames.confirmed]).toEqual([true, false, false]);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(clients).toHaveLength(1);
  });
});
