import type { Logger } from '@nestjs/common';
import type { Client, Notification } from 'pg';
import type { Gauge } from 'prom-client';
import type { ChangeTopics } from './change-topics';

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;
const CLOSE_TIMEOUT_MS = 1_000;

/** Ends a connection politely, or drops its socket when the server does not answer (a black-holed database). */
async function closeClient(client: Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_TIMEOUT_MS)));
  const ended = client.end().then(
    () => true,
    () => false,
  );
  const closed = await Promise.race([ended, timeout]);
  clearTimeout(timer);
  if (!closed) (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

export interface ListenerOptions {
  topics: ChangeTopics;
  /** A new (unconnected) listening connection. */
  createClient: () => Client;
  /** Each notification heard, on any channel. */
  heard: (channel: string, payload: string) => void;
  logger: Logger;
  /** The application's subname_changes_channel_up gauge: 0 whenever the listening connection is lost. */
  channelUp: Gauge;
}

/**
 * The one dedicated connection that LISTENs to every topic's channel, reconnecting by itself with a growing delay.
 * Losing it withdraws every cache's proof at once; listening again forgets every cached entry, since changes made
 * while nobody listened were not heard.
 */
export class ChangeListener {
  private current?: Client;
  private listeningNow = false;
  private closed = false;
  private reconnectDelay = RECONNECT_MIN_MS;
  private reconnectTimer?: NodeJS.Timeout;

  constructor(private readonly options: ListenerOptions) {}

  get listening(): boolean {
    return this.listeningNow;
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.current;
    this.current = undefined;
    this.listeningNow = false;
    this.options.topics.forEachCache((c) => c.unconfirm());
    this.options.channelUp.set(0);
    if (client) await closeClient(client);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { topics, logger } = this.options;
    const client = this.options.createClient();
    this.current = client;
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('connection closed')));
    client.on('notification', (n: Notification) => this.options.heard(n.channel, n.payload ?? ''));
    try {
      await client.connect();
      for (const channel of topics.channels) await client.query(`LISTEN ${channel}`);
    } catch (e) {
      this.lost(client, e as Error);
      return;
    }
    if (this.current !== client) return;
    this.listeningNow = true;
    this.reconnectDelay = RECONNECT_MIN_MS;
    topics.forEachCache((c) => c.reset());
    logger.log(`listening for changes on ${topics.channels.join(', ')}`);
  }

  private lost(client: Client, e: Error): void {
    if (this.current !== client) return;
    this.current = undefined;
    const wasListening = this.listeningNow;
    this.listeningNow = false;
    this.options.topics.forEachCache((c) => c.unconfirm());
    this.options.channelUp.set(0);
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void closeClient(client);
    if (this.closed) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    const message = `change channel ${wasListening ? 'lost' : 'unavailable'} (${e.message}); cached entries live under 1 s; retrying in ${delay} ms`;
    if (wasListening) this.options.logger.warn(message);
    else this.options.logger.debug(message);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
