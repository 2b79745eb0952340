import type { Logger } from '@nestjs/common';

/**
 * The primary's WAL position that a standby must have replayed to serve a read: learned from the primary after
 * every change committed here or heard through the change feed (NOTIFY arrives after the commit, so the position
 * asked then is at or past its commit record). Until a change is placed, there is no watermark: reads go to the
 * primary.
 */
export class WalWatermark {
  private position = 0n;
  // Counts from 1: the writes made before this process started are placed by the first learn().
  private changes = 1;
  private learned = 0;
  private learning = false;

  constructor(
    private readonly current: () => Promise<bigint>,
    private readonly logger: Logger,
  ) {}

  /** The position every standby read must see, or undefined while a change is not yet placed. */
  get value(): bigint | undefined {
    return this.learned < this.changes ? undefined : this.position;
  }

  changed(): void {
    this.changes++;
    void this.learn();
  }

  /** Asks the primary until every change counted so far is placed; one question at a time covers them all. */
  async learn(): Promise<void> {
    if (this.learning) return;
    this.learning = true;
    try {
      while (this.learned < this.changes) {
        const upTo = this.changes;
        const at = await this.current();
        if (at > this.position) this.position = at;
        this.learned = upTo;
      }
    } catch (e) {
      this.logger.debug(`primary WAL position unknown (${(e as Error).message}); reads stay on the primary`);
    } finally {
      this.learning = false;
    }
  }
}
