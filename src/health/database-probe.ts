/** What a readiness ping of the database found. */
export type ProbeOutcome = 'up' | 'busy' | 'timeout' | 'unreachable';

/** The part of the pool watch the probe asks: whether the database owes an answer and gave none since a moment. */
export interface AnswerWatch {
  silentSince(at: number): boolean;
}

/**
 * Pings the database within `timeoutMs`. Busy (still ready) when the ping waited behind a full pool: its wait
 * timed out (its own timer, or the pool's marked busy) while other queries were answered during it, or while
 * nothing was asked of the database. A timeout while the database owed answers and gave none is a timeout.
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
    return watch.silentSince(started) ? 'timeout' : 'busy';
  } finally {
    clearTimeout(timer);
  }
}
