import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { FakeRedis, FakeTarget } from '../../test/support/change-feed-fakes';
import { ChangeTopics, type Topic } from './change-topics';
import { RedisRelay } from './redis-relay';

describe(RedisRelay.name, () => {
  let connections: { redis: FakeRedis; options: RedisOptions }[];
  let subnames: FakeTarget;
  let listings: FakeTarget;
  let topics: ChangeTopics;
  let sut: RedisRelay;
  const relay = () => {
    const made = new RedisRelay({
      topics,
      instance: 'me',
      logger: new Logger('test'),
      createRedis: (options) => {
        const redis = new FakeRedis();
        connections.push({ redis, options });
        return redis as unknown as Redis;
      },
    });
    made.start();
    return made;
  };
  const topic = (channel: string) => topics.get(channel) as Topic;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    connections = [];
    subnames = new FakeTarget();
    listings = new FakeTarget();
    topics = new ChangeTopics();
    topics.add({ channel: 'subname_changes', redisChannel: 'p:subname-changes', cache: subnames });
    topics.add({ channel: 'listing_changes', redisChannel: 'p:listing-changes', cache: listings });
    sut = relay();
  });

  it('subscribes to every topic on one connection and publishes on another that never queues or retries', () => {
    const [sub, pub] = connections;
    expect(sub.redis.subscribed).toEqual(['p:subname-changes', 'p:listing-changes']);
    expect(pub.options).toMatchObject({ enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  });

  it("publishes a write's keys on its topic's channel, as this instance; nothing while Redis is not ready", () => {
    const [, { redis: pub }] = connections;
    sut.publish(topic('listing_changes'), ['mainnet/oak.eth']);
    sut.publish(topic('listing_changes'), []);
    expect(pub.published).toEqual([['p:listing-changes', JSON.stringify({ from: 'me', names: ['mainnet/oak.eth'] })]]);
    pub.status = 'reconnecting';
    sut.publish(topic('subname_changes'), ['a.oak.eth']);
    expect(pub.published).toHaveLength(1);
  });

  it("evicts what another replica publishes, by channel; ignores its own messages and others' noise", () => {
    const [{ redis: sub }] = connections;
    sub.emit('message', 'p:subname-changes', JSON.stringify({ from: 'me', names: ['b.oak.eth'] }));
    sub.emit('message', 'p:listing-changes', 'not json');
    sub.emit('message', 'p:listing-changes', JSON.stringify({ from: 'other', names: 'mainnet/oak.eth' }));
    sub.emit('message', 'p:unknown', JSON.stringify({ from: 'other', names: ['x'] }));
    expect([subnames.evicted, listings.evicted]).toEqual([[], []]);
    sub.emit('message', 'p:listing-changes', JSON.stringify({ from: 'other', names: ['mainnet/oak.eth'] }));
    sub.emit('message', 'p:subname-changes', JSON.stringify({ from: 'other', names: ['b.oak.eth', 7] }));
    expect([subnames.evicted, listings.evicted]).toEqual([['b.oak.eth'], ['mainnet/oak.eth']]);
  });

  it('stop disconnects both connections', () => {
    sut.stop();
    expect(connections.map((c) => c.redis.disconnected)).toEqual([true, true]);
  });
});
