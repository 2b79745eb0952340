import { ExportsBusyError } from './subnames.errors';

/** Exports one API key may run at once in a process: each holds a database connection for its whole stream. */
export const MAX_EXPORTS_PER_KEY = 2;

/**
 * Counts the exports running per API key, so that one key cannot hold the connection pool with its streams: past
 * MAX_EXPORTS_PER_KEY a new one is refused (429 RATE_LIMITED with Retry-After) before anything is read.
 */
export class ExportSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly perKey = MAX_EXPORTS_PER_KEY) {}

  /** Takes a slot for the key, or throws; the returned function gives it back (once, however often called). */
  acquire(keyId: string): () => void {
    const now = this.running.get(keyId) ?? 0;
    if (now >= this.perKey) throw new ExportsBusyError(this.perKey);
    this.running.set(keyId, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(keyId) ?? 1) - 1;
      if (left <= 0) this.running.delete(keyId);
      else this.running.set(keyId, left);
    };
  }
}
