import type Redis from 'ioredis';

/** ioredis options that notice a dead peer: TCP keep-alive probes, and a stuck socket destroyed after 500 ms. */
export const LIVENESS_OPTIONS = { keepAlive: 1_000, disconnectTimeout: 500 } as const;

/** A connection accepted but not ready within this long is taken for dead (a hung proxy answers nothing). */
export const READY_TIMEOUT_MS = 2_000;

export function isCommandTimeout(e: unknown): boolean {
  return e instanceof Error && e.message === 'Command timed out';
}

/**
 * Reconnects `redis` when its connection died without being closed (a partition, a hung proxy): a command that
 * timed out on a ready connection, or a connection that does not become ready in READY_TIMEOUT_MS. Without it
 * ioredis keeps a silent socket forever and every command on it times out. `commandFailed` takes a command's error.
 */
export function watchLiveness(redis: Redis): { commandFailed: (e: unknown) => void } {
  redis.on('connect', () => {
    setTimeout(() => {
      if (redis.status === 'connect') redis.disconnect(true);
    }, READY_TIMEOUT_MS).unref();
  });
  return {
    commandFailed: (e) => {
      if (isCommandTimeout(e) && redis.status === 'ready') redis.disconnect(true);
    },
  };
}
