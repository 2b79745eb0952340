import { MIN_CAPACITY, NameFilter, NameSource, PAGE_SIZE, RETRY_MS } from './name-filter';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const settle = () => new Promise((r) => setImmediate(r));

/** A sorted table of names, read in pages like the repository's keyset query; each read can be held back. */
class FakeSource implements NameSource {
  names: string[] = [];
  /** When set, each page waits for it. */
  gate?: Promise<void>;
  pages: string[] = [];
  fail = false;

  async count(): Promise<number> {
    if (this.fail) throw new Error('database went away');
    return this.names.length;
  }

  async page(after: string, limit: number): Promise<string[]> {
    this.pages.push(after);
    if (this.gate) await this.gate;
    if (this.fail) throw new Error('database went away');
    return [...this.names]
      .sort()
      .filter((n) => n > after)
      .slice(0, limit);
  }
}

describe(NameFilter.name, () => {
  let source: FakeSource;
  let logs: string[];
  let warnings: string[];
  let sut: NameFilter;

  beforeEach(() => {
    source = new FakeSource();
    logs = [];
    warnings = [];
    sut = new NameFilter(source, { log: (m) => logs.push(m), warn: (m) => warnings.push(m) });
  });

  afterEach(() => sut.stop());

  it('answers "maybe" for everything until a build completes, then "absent" only for names not stored', async () => {
    source.names = ['alice.oak.eth', 'bob.oak.eth'];
    expect(sut.absent('carol.oak.eth')).toBe(false);
    sut.reset();
    expect(sut.absent('carol.oak.eth')).toBe(false);
    await settle();
    expect(sut.ready).toBe(true);
    expect(sut.absent('carol.oak.eth')).toBe(true);
    expect(sut.absent('alice.oak.eth')).toBe(false);
    expect(sut.absent('bob.oak.eth')).toBe(false);
    expect(logs).toEqual([expect.stringMatching(/^name filter built: 2 names, 628\d{3} bits, \d+ ms$/)]);
  });

  it('reads in keyset pages of PAGE_SIZE, each after the last name of the one before', async () => {
    source.names = Array.from({ length: 2 * PAGE_SIZE + 5 }, (_, i) => `n${String(i).padStart(6, '0')}.oak.eth`);
    sut.reset();
    await settle();
    expect(source.pages).toEqual(['', source.names[PAGE_SIZE - 1], source.names[2 * PAGE_SIZE - 1]]);
    expect(source.names.every((n) => !sut.absent(n))).toBe(true);
    expect(sut.current?.capacity).toBe(MIN_CAPACITY);
  });

  it('keeps the names added while it builds (a name stored after its page was read)', async () => {
    source.names = ['alice.oak.eth'];
    const gate = deferred<void>();
    source.gate = gate.promise;
    sut.reset();
    await settle();
    sut.add('zed.oak.eth');
    gate.resolve();
    await settle();
    expect(sut.ready).toBe(true);
    expect(sut.absent('zed.oak.eth')).toBe(false);
    expect(sut.absent('alice.oak.eth')).toBe(false);
  });

  it('adds to the filter in use once built, idempotently', async () => {
    sut.reset();
    await settle();
    expect(sut.absent('dave.oak.eth')).toBe(true);
    sut.add('dave.oak.eth');
    sut.add('dave.oak.eth');
    expect(sut.absent('dave.oak.eth')).toBe(false);
    expect(sut.current?.size).toBe(1);
  });

  it('distrusts itself from a reset until the build it starts completes, and throws away the one it overtook', async () => {
    sut.reset();
    await settle();
    expect(sut.ready).toBe(true);
    const first = deferred<void>();
    source.gate = first.promise;
    sut.reset();
    expect(sut.ready).toBe(false);
    expect(sut.absent('erin.oak.eth')).toBe(false);
    await settle();
    // The build begun at the first reset read an empty table; a name is stored before the second reset.
    source.names = ['erin.oak.eth'];
    const second = deferred<void>();
    source.gate = second.promise;
    sut.reset();
    first.resolve();
    await settle();
    expect(sut.ready).toBe(false);
    second.resolve();
    await settle();
    expect(sut.ready).toBe(true);
    expect(sut.absent('erin.oak.eth')).toBe(false);
    expect(logs).toHaveLength(2);
  });

  it('past its capacity builds a larger one in the background, the old one answering meanwhile', async () => {
    sut.reset();
    await settle();
    const old = sut.current!;
    const gate = deferred<void>();
    source.gate = gate.promise;
    let added = 0;
    for (let i = 0; old.size <= old.capacity; i++, added++) {
      const name = `n${i}.oak.eth`;
      source.names.push(name);
      sut.add(name);
    }
    // The rebuild has begun; the old filter is still trusted and still answers.
    expect(sut.ready).toBe(true);
    expect(sut.current).toBe(old);
    expect(sut.absent('n0.oak.eth')).toBe(false);
    sut.add('late.oak.eth');
    gate.resolve();
    await settle();
    const grown = sut.current!;
    expect(grown).not.toBe(old);
    expect(grown.capacity).toBe(2 * added);
    expect(sut.absent('late.oak.eth')).toBe(false);
    expect(sut.absent(`n${added - 1}.oak.eth`)).toBe(false);
    expect(sut.absent('someone-else.oak.eth')).toBe(true);
  });

  it('retries a failed build after RETRY_MS, trusting nothing meanwhile', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      source.fail = true;
      sut.reset();
      await settle();
      expect(warnings).toEqual([`name filter build failed (database went away); retrying in ${RETRY_MS} ms`]);
      expect(sut.ready).toBe(false);
      source.fail = false;
      jest.advanceTimersByTime(RETRY_MS);
      await settle();
      expect(sut.ready).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('builds nothing once stopped', async () => {
    const gate = deferred<void>();
    source.gate = gate.promise;
    sut.reset();
    await settle();
    sut.stop();
    gate.resolve();
    await settle();
    expect(sut.ready).toBe(false);
    expect(logs).toEqual([]);
  });
});
