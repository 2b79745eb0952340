/** What a readiness ping of the database found. */
export type ProbeOutcome = 'up' | 'busy' | 'timeout' | 'unreachable';

/** The part of the pool watch the probe asks: whether the database answered a query since a moment. */
export interface AnswerWatch {
  answeredSince(at: number): boolean;
}

/**
 * Pings the database within `timeoutMs`. Busy (still ready) only when the ping waited behind a working pool:
 * its wait timed out (its own timer, or the pool's marked busy) while other queries were answered during it.
 * A refused or dropped connection is unreachable whatever was answered before it.
 */
export async function probeDatabase(
  ping: () => Promise<unknown>,
  watch: AnswerWatch,
  isBusy: (e: unknown) => boolean,
  timeoutMs: number,
): Promise<ProbeOutcome> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Error('timeout');
  try {
    await Promise.race([
      ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(timedOut), timeoutMs);
      }),
    ]);
    return 'up';
  } catch (e) {
    if (isBusy(e)) return 'busy';
    if (e !== timedOut) return 'unreachable';
    // After the loop's next poll: an answer that arrived in the timer's turn but is not read yet still counts.
    await new Promise((resolve) => setImmediate(resolve));
    return watch.answeredSince(started) ? 'busy' : 'timeout';
  } finally {
    clearTimeout(timer);
  }
}
