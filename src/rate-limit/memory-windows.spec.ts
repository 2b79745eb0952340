import { MemoryWindows } from './memory-windows';

describe(MemoryWindows.name, () => {
  it('counts hits in a fixed window that starts with the first hit, then starts a new one', () => {
    const sut = new MemoryWindows();
    expect(sut.hit('k', 60_000, 1, 1_000)).toEqual({ hits: 1, msLeft: 60_000 });
    expect(sut.hit('k', 60_000, 1, 31_000)).toEqual({ hits: 2, msLeft: 30_000 });
    expect(sut.hit('other', 60_000, 1, 31_000)).toEqual({ hits: 1, msLeft: 60_000 });
    expect(sut.hit('k', 60_000, 1, 61_000)).toEqual({ hits: 1, msLeft: 60_000 });
  });

  it('forgets ended windows as it goes, so idle trackers do not accumulate', () => {
    const sut = new MemoryWindows();
    for (let i = 0; i < 100; i++) sut.hit(`ip:${i}`, 1_000, 1, Date.now());
    expect(sut.size).toBe(100);
    sut.hit('late', 1_000, 1, Date.now() + 5_000);
    expect(sut.size).toBe(1);
  });
});

describe(`${MemoryWindows.name} counts and refunds`, () => {
  it('counts several hits at once as that many hits in a row would', () => {
    const sut = new MemoryWindows();
    expect(sut.hit('k', 60_000, 30, 1_000)).toEqual({ hits: 30, msLeft: 60_000 });
    expect(sut.hit('k', 60_000, 7, 11_000)).toEqual({ hits: 37, msLeft: 50_000 });
    expect(sut.hit('k', 60_000, 1, 11_000)).toEqual({ hits: 38, msLeft: 50_000 });
  });

  it('gives back one hit of a running window, never below zero, and nothing to an ended one', () => {
    const sut = new MemoryWindows();
    sut.hit('ip:a', 60_000, 1, 1_000);
    sut.hit('ip:a', 60_000, 1, 2_000);
    sut.refund('ip:a', 3_000);
    expect(sut.hit('ip:a', 60_000, 1, 4_000).hits).toBe(2);
    sut.refund('ip:a', 5_000);
    sut.refund('ip:a', 5_000);
    sut.refund('ip:a', 5_000);
    expect(sut.hit('ip:a', 60_000, 1, 6_000).hits).toBe(1);
    sut.refund('ip:a', 70_000);
    expect(sut.hit('ip:a', 60_000, 1, 70_000)).toEqual({ hits: 1, msLeft: 60_000 });
    sut.refund('never-seen', 1_000);
    expect(sut.size).toBe(1);
  });
});
