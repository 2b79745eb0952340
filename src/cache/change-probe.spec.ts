import { Logger } from '@nestjs/common';
import { FakeTarget } from '../../test/support/change-feed-fakes';
import { Metrics } from '../metrics/metrics';
import { ChangeProbe } from './change-probe';
import { ChangeTopics } from './change-topics';

const SUBNAMES = 'subname_changes';
const LISTINGS = 'listing_changes';

describe(ChangeProbe.name, () => {
  /** Which channels a probe sent through the pool comes back on. */
  let echoed: string[];
  let listening: boolean;
  let sent: string[];
  let subnames: FakeTarget;
  let listings: FakeTarget;
  let sut: ChangeProbe;
  const proven = () => [subnames.confirmed, listings.confirmed];

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    echoed = [SUBNAMES, LISTINGS];
    listening = true;
    sent = [];
    subnames = new FakeTarget();
    listings = new FakeTarget();
    const topics = new ChangeTopics();
    topics.add({ channel: SUBNAMES, redisChannel: 'subname-changes', cache: subnames });
    topics.add({ channel: LISTINGS, redisChannel: 'listing-changes', cache: listings });
    sut = new ChangeProbe({
      topics,
      instance: 'me',
      logger: new Logger('test'),
      listening: () => listening,
      notify: async (channels, id) => {
        sent.push(id);
        for (const channel of channels) if (echoed.includes(channel)) sut.heard(channel, id);
      },
      channelUp: new Metrics().changeChannelUp,
    });
    subnames.lastUsedAt = Date.now();
    sut.start();
  });

  afterEach(() => {
    sut.stop();
    jest.useRealTimers();
  });

  it('proves the caches from the time the probe was sent, once it came back on every channel', async () => {
    await jest.advanceTimersByTimeAsync(250);
    expect(sent).toEqual(['probe:me:1']);
    expect(subnames.confirmedAt).toBe(1_000_250);
    expect(proven()).toEqual([true, true]);
  });

  it('does not prove them when one channel stays silent, and backs off before the next round', async () => {
    echoed = [SUBNAMES];
    await jest.advanceTimersByTimeAsync(250 + 500);
    expect(proven()).toEqual([false, false]);
    echoed = [SUBNAMES, LISTINGS];
    // The round failed at 750 ms and backs off 500 ms: the tick at 1,000 ms is skipped, the one at 1,250 ms proves.
    await jest.advanceTimersByTimeAsync(250);
    expect(sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(250);
    expect(sent).toHaveLength(2);
    expect(proven()).toEqual([true, true]);
  });

  it('counts only its own current probe; other payloads are not probes', async () => {
    expect(sut.heard(SUBNAMES, 'a.oak.eth')).toBe(false);
    echoed = [];
    await jest.advanceTimersByTimeAsync(250);
    expect(sut.heard(SUBNAMES, 'probe:other:1')).toBe(true);
    expect(sut.heard(LISTINGS, 'probe:other:1')).toBe(true);
    await jest.advanceTimersByTimeAsync(500);
    expect(proven()).toEqual([false, false]);
  });

  it('sends nothing while the listener is down, or once no cache was used for 10 s', async () => {
    listening = false;
    await jest.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual([]);
    listening = true;
    await jest.advanceTimersByTimeAsync(10_000);
    const before = sent.length;
    expect(before).toBeGreaterThan(0);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sent).toHaveLength(before);
    listings.lastUsedAt = Date.now();
    await jest.advanceTimersByTimeAsync(250);
    expect(sent).toHaveLength(before + 1);
  });

  it('a probe statement that fails is a failed round: nothing proven, the next one backed off', async () => {
    const topics = new ChangeTopics();
    const cache = new FakeTarget();
    cache.lastUsedAt = Date.now();
    topics.add({ channel: SUBNAMES, redisChannel: 'subname-changes', cache });
    const notify = jest.fn(() => Promise.reject(new Error('pool closed')));
    const failing = new ChangeProbe({
      topics,
      instance: 'me',
      logger: new Logger('test'),
      listening: () => true,
      notify,
      channelUp: new Metrics().changeChannelUp,
    });
    sut.stop();
    failing.start();
    await jest.advanceTimersByTimeAsync(250);
    expect([notify.mock.calls.length, cache.confirmed]).toEqual([1, false]);
    await jest.advanceTimersByTimeAsync(250);
    expect(notify).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(250);
    expect(notify).toHaveBeenCalledTimes(2);
    failing.stop();
  });
});
