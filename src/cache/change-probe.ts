import type { Logger } from '@nestjs/common';
import type { Gauge } from 'prom-client';
import type { ChangeTopics } from './change-topics';

const PROBE_PREFIX = 'probe:';
const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 500;
const MAX_PROBE_BACKOFF_MS = 5_000;
/** Nobody has read through a cache for this long: stop proving the channel until someone does. */
const IDLE_AFTER_MS = 10_000;

interface Round {
  id: string;
  /** Channels the probe has not come back on yet. */
  pending: Set<string>;
  arrived: () => void;
}

export interface ProbeOptions {
  topics: ChangeTopics;
  /** Tells this process's probes from other replicas'. */
  instance: string;
  /** Whether the listening connection is up: no round is sent while it is not. */
  listening: () => boolean;
  /** NOTIFYs `id` on every channel through the ordinary pool. */
  notify: (channels: string[], id: string) => Promise<unknown>;
  logger: Logger;
  /** The application's subname_changes_channel_up gauge: 1 while a round proved the channels. */
  channelUp: Gauge;
}

/**
 * The proof that the channels work: every PROBE_INTERVAL_MS while a cache is in use, one statement through the
 * ordinary pool NOTIFYs a probe on every channel, and each must come back on the listening connection. Notifications
 * arrive in commit order, so their arrival proves every earlier change has been heard, and only then may cached
 * entries outlive one second (RecordCache). A failed round backs off before the next.
 */
export class ChangeProbe {
  private timer?: NodeJS.Timeout;
  private round?: Round;
  private seq = 0;
  private failures = 0;
  private nextAt = 0;
  private warned = false;
  private stopped = false;

  constructor(private readonly options: ProbeOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.once(), PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Whether a notification is a probe (this process's or another's); one of ours counts towards its round. */
  heard(channel: string, payload: string): boolean {
    if (!payload.startsWith(PROBE_PREFIX)) return false;
    const round = this.round;
    if (round?.id !== payload) return true;
    round.pending.delete(channel);
    if (round.pending.size === 0) round.arrived();
    return true;
  }

  /** One round: NOTIFY every channel through the pool, wait for each on the listening connection. */
  private async once(): Promise<void> {
    const { topics } = this.options;
    const now = Date.now();
    if (!this.options.listening() || this.stopped || this.round || now < this.nextAt) return;
    if (now - topics.lastUsedAt > IDLE_AFTER_MS) return;
    const id = `${PROBE_PREFIX}${this.options.instance}:${++this.seq}`;
    const channels = topics.channels;
    let timer: NodeJS.Timeout | undefined;
    const arrival = new Promise<boolean>((resolve) => {
      this.round = { id, pending: new Set(channels), arrived: () => resolve(true) };
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    const sentAt = Date.now();
    let arrived = false;
    try {
      await this.options.notify(channels, id);
      arrived = await arrival;
    } catch {
      arrived = false;
    } finally {
      clearTimeout(timer);
      this.round = undefined;
    }
    if (arrived) this.proven(sentAt);
    else this.failed();
  }

  private proven(sentAt: number): void {
    this.options.topics.forEachCache((c) => c.confirm(sentAt));
    this.options.channelUp.set(1);
    this.failures = 0;
    this.nextAt = 0;
    this.warned = false;
  }

  private failed(): void {
    this.options.channelUp.set(this.options.topics.confirmed ? 1 : 0);
    this.failures += 1;
    this.nextAt = Date.now() + Math.min(PROBE_INTERVAL_MS * 2 ** this.failures, MAX_PROBE_BACKOFF_MS);
    if (this.failures >= 3 && !this.warned) {
      this.warned = true;
      this.options.logger.warn(
        'change notifications do not come back on the listening connection (an embedded database or a ' +
          'transaction-pooling proxy?); cached entries live under 1 s',
      );
    }
  }
}
