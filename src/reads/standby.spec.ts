import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { ReadsRepository, ReplayState } from './reads.repository';
import { Standby } from './standby';

describe(Standby.name, () => {
  let now: number;
  let replay: ReplayState | null | Error;
  let sut: Standby;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    now = 1_000_000;
    replay = { replayed: 500n, lagSeconds: 0 };
    const dataSource = { isInitialized: true, manager: {} } as unknown as DataSource;
    const repository = {
      replayState: async () => {
        if (replay instanceof Error) throw replay;
        return replay;
      },
    } as unknown as ReadsRepository;
    sut = new Standby('postgres://u:secret@s1:5433/db', dataSource, repository, new Logger('test'), () => now);
  });

  it('is named without its credentials', () => {
    expect(sut.name).toBe('s1:5433/db');
  });

  it('serves nothing before its first good poll', () => {
    expect(sut.serves(0n, 5, 2000)).toBe(false);
  });

  it('serves a watermark it has replayed, within the lag bound, by a recent poll', async () => {
    await sut.poll();
    expect(sut.serves(500n, 5, 2000)).toBe(true);
    expect(sut.serves(501n, 5, 2000)).toBe(false);
    now += 2001;
    expect(sut.serves(500n, 5, 2000)).toBe(false);
    replay = { replayed: 900n, lagSeconds: 6 };
    await sut.poll();
    expect(sut.serves(500n, 5, 2000)).toBe(false);
    expect(sut.serves(500n, 6, 2000)).toBe(true);
  });

  it('is out of rotation after a failed poll or read, or once promoted, until a good poll', async () => {
    await sut.poll();
    sut.failed(new Error('connection refused'));
    expect(sut.serves(0n, 5, 2000)).toBe(false);
    await sut.poll();
    expect(sut.serves(0n, 5, 2000)).toBe(true);
    replay = new Error('the database system is shutting down');
    await sut.poll();
    expect(sut.serves(0n, 5, 2000)).toBe(false);
    replay = null;
    await sut.poll();
    expect(sut.serves(0n, 5, 2000)).toBe(false);
  });
});
