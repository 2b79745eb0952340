import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { loadConfig } from '../config/app-config';
import {
  CENSOR,
  isoTime,
  loggerOptions,
  REDACT_PATHS,
  redactChildBindings,
  redactSecrets,
  requestLineWriter,
  SECRET_FIELDS,
  SECRET_HEADERS,
} from './logger';
import { runs } from '../../test/support/property-runs';

/** Two loggers that differ only in how they redact: pino's compiled `redact` (the reference) and ours. */
function loggers() {
  const out: { reference: string[]; ours: string[] } = { reference: [], ours: [] };
  const sink = (lines: string[]) =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
  const common = { timestamp: false, base: undefined } as const;
  const reference = pino({ ...common, redact: { paths: REDACT_PATHS, censor: CENSOR } }, sink(out.reference));
  const ours = pino({ ...common, formatters: { log: redactSecrets, bindings: redactSecrets } }, sink(out.ours));
  redactChildBindings(ours);
  return { reference, ours, out };
}

const KEYS = [...SECRET_FIELDS, ...SECRET_HEADERS, 'headers', 'req', 'res', 'config', 'name', 'x', '0'];
const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
const { tree } = fc.letrec<{ tree: unknown }>((self) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.dictionary(fc.constantFrom(...KEYS), self('tree'), { maxKeys: 5 }),
    fc.array(self('tree'), { maxLength: 3 }),
  ),
}));
const logObject = fc.dictionary(fc.constantFrom(...KEYS), tree, { maxKeys: 6 });

describe('redactSecrets (the request path’s redaction) equals pino’s redact over REDACT_PATHS', () => {
  it('writes the same line for generated objects with secrets at every depth, and leaves the input as it was', () => {
    const { reference, ours, out } = loggers();
    fc.assert(
      fc.property(logObject, fc.string({ maxLength: 10 }), (obj, msg) => {
        const before = JSON.stringify(obj);
        ours.info(obj, msg);
        expect(JSON.stringify(obj)).toBe(before);
        // (pino's own redact can leave overlapping paths censored in the input; it is only the reference here.)
        reference.info(structuredClone(obj), msg);
        expect(JSON.parse(out.ours.at(-1)!)).toEqual(JSON.parse(out.reference.at(-1)!));
      }),
      { seed: 20261123, numRuns: runs(3000) },
    );
    expect(out.ours.length).toBe(out.reference.length);
  });

  it('censors the bindings of a child logger the same way', () => {
    const { reference, ours, out } = loggers();
    fc.assert(
      fc.property(logObject, (bindings) => {
        // (pino's child needs bindings with Object's prototype.)
        reference.child({ ...bindings }).info('x');
        ours.child({ ...bindings }).info('x');
        expect(JSON.parse(out.ours.at(-1)!)).toEqual(JSON.parse(out.reference.at(-1)!));
      }),
      { seed: 7, numRuns: runs(1000) },
    );
  });

  it('censors the listed places and nothing else', () => {
    const secret = 'sekrit';
    const obj = {
      ADMIN_TOKEN: secret,
      headers: { 'x-auth-token': secret, accept: 'json' },
      req: { headers: { authorization: secret, 'x-request-id': 'r' }, url: '/x' },
      config: { ccip: { CCIP_SIGNER_KEY: secret, ttl: 300 }, port: 3000 },
      deep: { a: { b: { privateKey: 'too deep for the paths' } } },
    };
    expect(redactSecrets(obj)).toEqual({
      ADMIN_TOKEN: CENSOR,
      headers: { 'x-auth-token': CENSOR, accept: 'json' },
      req: { headers: { authorization: CENSOR, 'x-request-id': 'r' }, url: '/x' },
      config: { ccip: { CCIP_SIGNER_KEY: CENSOR, ttl: 300 }, port: 3000 },
      deep: { a: { b: { privateKey: 'too deep for the paths' } } },
    });
    expect(obj.headers['x-auth-token']).toBe(secret);
    const clean = { method: 'GET', url: '/api/v1/subnames/a.oak.eth', status: 200 };
    expect(redactSecrets(clean)).toBe(clean);
  });

  it('keeps an error an error (message and stack) when it censors a field of it', () => {
    const err = Object.assign(new Error('boom'), { privateKey: '0xabc' });
    const out = redactSecrets({ err }).err as Error & { privateKey: string };
    expect(out).toBeInstanceOf(Error);
    expect(out.message).toBe('boom');
    expect(out.stack).toBe(err.stack);
    expect(out.privateKey).toBe(CENSOR);
    expect(err.privateKey).toBe('0xabc');
  });
});

describe('the request line, written by hand', () => {
  it('isoTime is Date#toISOString for every millisecond it is given, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 253_402_300_799_999 }), { minLength: 1, maxLength: 20 }),
        (times) => {
          for (const ms of [...times, ...times.map((t) => Math.max(0, t - 1)), ...times.map((t) => t + 999)]) {
            if (ms > 253_402_300_799_999) continue;
            expect(isoTime(ms)).toBe(new Date(ms).toISOString());
          }
        },
      ),
      { seed: 20261124, numRuns: runs(2000) },
    );
  });

  it('is the line pino writes with the root logger options, key for key and in the same order', () => {
    const lines: string[] = [];
    const logger = pino(
      loggerOptions(loadConfig({ LOG_LEVEL: 'debug' })),
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    let clock = 0;
    const write = requestLineWriter(process.pid, () => clock);
    const text = fc.string({ unit: 'binary', maxLength: 60 });
    const line = fc.record({
      requestId: fc.oneof(fc.stringMatching(/^[\w.:-]{1,128}$/), fc.constant('unknown')),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
      url: fc.oneof(text, fc.webPath()),
      route: fc.oneof(fc.constant('unmatched'), fc.constant('/api/v1/subnames/:fullName'), text),
      status: fc.integer({ min: 100, max: 599 }),
      durationMs: fc.nat({ max: 120_000 }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom('debug', 'info', 'warn', 'error') as fc.Arbitrary<'info'>,
        line,
        text,
        (level, l, msg) => {
          clock = Date.now();
          logger[level](l, msg);
          const ours = write(level, l, msg);
          expect(ours.endsWith('\n')).toBe(true);
          const reference = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
          const parsed = JSON.parse(ours) as Record<string, unknown>;
          expect(Object.keys(parsed)).toEqual(Object.keys(reference));
          // pino read the clock itself a moment later.
          expect(Math.abs(Date.parse(parsed.time as string) - Date.parse(reference.time as string))).toBeLessThan(1000);
          expect(parsed.time).toBe(new Date(clock).toISOString());
          expect({ ...parsed, time: 0 }).toEqual({ ...reference, time: 0 });
        },
      ),
      { seed: 20261124, numRuns: runs(3000) },
    );
  });
});
