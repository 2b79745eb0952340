import { SwitchCarry } from './switch-carry';

describe(SwitchCarry.name, () => {
  it("adds the other source's window to the new one's count until that window ends, either way", () => {
    const carry = new SwitchCarry();
    expect(carry.count('k', 'redis', { hits: 3, msLeft: 10_000 }, 0)).toEqual({ hits: 3, msLeft: 10_000 });
    // Redis went away: the host's first hit counts Redis's 3 too.
    expect(carry.count('k', 'host', { hits: 1, msLeft: 60_000 }, 1_000)).toEqual({ hits: 4, msLeft: 60_000 });
    expect(carry.count('k', 'host', { hits: 2, msLeft: 59_000 }, 2_000)).toEqual({ hits: 5, msLeft: 59_000 });
    // Redis's window ended at 10 s: the host counts alone.
    expect(carry.count('k', 'host', { hits: 3, msLeft: 49_000 }, 11_000)).toEqual({ hits: 3, msLeft: 49_000 });
    // Back on Redis: the host's window (ending at 60 s) still counts.
    expect(carry.count('k', 'redis', { hits: 1, msLeft: 60_000 }, 12_000)).toEqual({ hits: 4, msLeft: 60_000 });
    expect(carry.count('k', 'redis', { hits: 2, msLeft: 59_000 }, 13_000)).toEqual({ hits: 5, msLeft: 59_000 });
    expect(carry.count('k', 'redis', { hits: 3, msLeft: 12_000 }, 60_000)).toEqual({ hits: 3, msLeft: 12_000 });
    // Other keys are their own.
    expect(carry.count('other', 'host', { hits: 1, msLeft: 60_000 }, 13_000)).toEqual({ hits: 1, msLeft: 60_000 });
  });

  it('forgets ended windows once it holds many keys', () => {
    const carry = new SwitchCarry();
    for (let i = 0; i < 1024; i++) carry.count(`k${i}`, 'redis', { hits: 1, msLeft: 1_000 }, 0);
    expect(carry.size).toBe(1024);
    carry.count('late', 'redis', { hits: 1, msLeft: 1_000 }, 5_000);
    expect(carry.size).toBe(1);
  });
});
