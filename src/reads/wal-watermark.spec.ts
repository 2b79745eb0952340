import { Logger } from '@nestjs/common';
import { WalWatermark } from './wal-watermark';

/** A primary whose answers the test releases one at a time. */
function primary() {
  const waiting: ((position: bigint) => void)[] = [];
  return {
    asked: () => waiting.length,
    current: () => new Promise<bigint>((resolve) => waiting.push(resolve)),
    answer: async (position: bigint) => {
      waiting.shift()!(position);
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe(WalWatermark.name, () => {
  const logger = new Logger('test');

  beforeAll(() => Logger.overrideLogger(false));

  it('has no watermark until the first answer places the writes made before the process started', async () => {
    const db = primary();
    const sut = new WalWatermark(db.current, logger);
    expect(sut.value).toBeUndefined();
    void sut.learn();
    expect(sut.value).toBeUndefined();
    await db.answer(100n);
    expect(sut.value).toBe(100n);
  });

  it('has none from a change until an answer asked after it, and asks once for changes that pile up', async () => {
    const db = primary();
    const sut = new WalWatermark(db.current, logger);
    void sut.learn();
    await db.answer(100n);
    sut.changed();
    expect(sut.value).toBeUndefined();
    sut.changed();
    sut.changed();
    expect(db.asked()).toBe(1);
    // The answer was asked before the two later changes: they are not placed by it.
    await db.answer(150n);
    expect(sut.value).toBeUndefined();
    expect(db.asked()).toBe(1);
    await db.answer(180n);
    expect(sut.value).toBe(180n);
    expect(db.asked()).toBe(0);
  });

  it('never moves back, and stays unplaced while the primary does not answer', async () => {
    const failing = new WalWatermark(async () => Promise.reject(new Error('down')), logger);
    await failing.learn();
    expect(failing.value).toBeUndefined();
    const db = primary();
    const sut = new WalWatermark(db.current, logger);
    void sut.learn();
    await db.answer(200n);
    sut.changed();
    await db.answer(150n);
    expect(sut.value).toBe(200n);
  });
});
