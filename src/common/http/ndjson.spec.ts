import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { streamNdjson } from './ndjson';

/** A response whose socket takes `room` writes before it asks the writer to wait for 'drain'. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  headers: Record<string, string> = {};
  statusCode = 0;
  ended = false;
  destroyed: Error | undefined;
  constructor(private room = Infinity) {
    super();
  }
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  write(chunk: string): boolean {
    this.written.push(chunk);
    return this.written.length < this.room;
  }
  end() {
    this.ended = true;
    this.emit('close');
  }
  destroy(e: Error) {
    this.destroyed = e;
    this.emit('close');
  }
}

/** A producer that records how far it was read and whether it was told to stop. */
function producer(pages: number, failAt?: number) {
  const state = { read: 0, stopped: false };
  async function* generate(): AsyncGenerator<string> {
    try {
      for (let i = 0; i < pages; i++) {
        if (i === failAt) throw new Error('database went away');
        state.read = i + 1;
        yield `{"page":${i}}\n`;
      }
    } finally {
      state.stopped = true;
    }
  }
  return { state, chunks: generate() };
}

const tick = () => new Promise((r) => setImmediate(r));

describe(streamNdjson.name, () => {
  it('writes every chunk as NDJSON and ends', async () => {
    const res = new FakeResponse();
    const { chunks } = producer(3);
    await streamNdjson(res as unknown as Response, chunks);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.written.join('')).toBe('{"page":0}\n{"page":1}\n{"page":2}\n');
    expect(res.ended).toBe(true);
  });

  it('waits for drain before it reads the next page', async () => {
    const res = new FakeResponse(1);
    const { state, chunks } = producer(3);
    const done = streamNdjson(res as unknown as Response, chunks);
    await tick();
    await tick();
    expect(res.written).toHaveLength(1);
    expect(state.read).toBe(1);
    res.emit('drain');
    await tick();
    await tick();
    expect(state.read).toBe(2);
    res.emit('drain');
    await tick();
    await tick();
    expect(state.read).toBe(3);
    res.emit('drain');
    await done;
    expect(res.written).toHaveLength(3);
    expect(res.ended).toBe(true);
  });

  it('stops reading when the client goes away', async () => {
    const res = new FakeResponse(1);
    const { state, chunks } = producer(100);
    const done = streamNdjson(res as unknown as Response, chunks);
    await tick();
    res.emit('close');
    await done;
    expect(state.read).toBe(1);
    expect(state.stopped).toBe(true);
    expect(res.ended).toBe(false);
  });

  it('a failure before the first byte is thrown, for the problem filter; nothing is written', async () => {
    const res = new FakeResponse();
    const { chunks } = producer(3, 0);
    await expect(streamNdjson(res as unknown as Response, chunks)).rejects.toThrow('database went away');
    expect(res.statusCode).toBe(0);
    expect(res.written).toEqual([]);
  });

  it('a failure after the first byte cuts the response short instead of ending it cleanly', async () => {
    const res = new FakeResponse();
    const { chunks } = producer(3, 2);
    await streamNdjson(res as unknown as Response, chunks);
    expect(res.written).toHaveLength(2);
    expect(res.destroyed?.message).toBe('database went away');
    expect(res.ended).toBe(false);
  });
});
