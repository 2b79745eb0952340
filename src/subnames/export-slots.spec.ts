import { ExportSlots } from './export-slots';
import { ExportsBusyError } from './subnames.errors';

describe(ExportSlots.name, () => {
  it('lets a key run its allowance of exports at once, refuses the next with 429 and Retry-After, per key', () => {
    const sut = new ExportSlots(2);
    const first = sut.acquire('k1');
    sut.acquire('k1');
    expect(() => sut.acquire('k1')).toThrow(ExportsBusyError);
    try {
      sut.acquire('k1');
    } catch (e) {
      expect(e).toMatchObject({ code: 'RATE_LIMITED', status: 429, headers: { 'Retry-After': '5' } });
    }
    expect(() => sut.acquire('k2')).not.toThrow();
    first();
    first(); // a second release gives nothing back twice
    expect(() => sut.acquire('k1')).not.toThrow();
    expect(() => sut.acquire('k1')).toThrow(ExportsBusyError);
  });
});
