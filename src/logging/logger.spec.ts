import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { loadConfig } from '../config/app-config';
import { CENSOR, isoClock, loggerOptions, requestLineWriter, SECRET_FIELDS, SECRET_HEADERS } from './logger';
import { runs } from '../../test/support/property-runs';

/** A logger with the root logger's options, writing into `lines`. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    loggerOptions(loadConfig({ LOG_LEVEL: 'debug' })),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { logger, lines };
}

const SECRET = 'sekrit';

/** An object with a secret at every place REDACT_PATHS names, and beside them what must stay. */
function secrets() {
  return {
    ADMIN_TOKEN: SECRET,
    headers: { 'x-auth-token': SECRET, accept: 'json' },
    req: { headers: { authorization: SECRET, 'x-request-id': 'r' }, url: '/x' },
    config: { ccip: { CCIP_SIGNER_KEY: SECRET, ttl: 300 }, port: 3000, signerKey: SECRET },
    deep: { a: { b: { privateKey: 'too deep for the paths' } } },
  };
}

const CENSORED = {
  ADMIN_TOKEN: CENSOR,
  headers: { 'x-auth-token': CENSOR, accept: 'json' },
  req: { headers: { authorization: CENSOR, 'x-request-id': 'r' }, url: '/x' },
  config: { ccip: { CCIP_SIGNER_KEY: CENSOR, ttl: 300 }, port: 3000, signerKey: CENSOR },
  deep: { a: { b: { privateKey: 'too deep for the paths' } } },
};

describe('the root logger censors secrets (REDACT_PATHS)', () => {
  it('in a logged object, at the listed places and nowhere else, leaving the object as it was', () => {
    const { logger, lines } = capture();
    const obj = secrets();
    logger.info(obj, 'x');
    expect(lines[0]).toMatchObject(CENSORED);
    expect(obj).toEqual(secrets());
  });

  it('in the bindings of a child logger, and of its children', () => {
    const { logger, lines } = capture();
    const child = logger.child(secrets());
    child.info('from the child');
    child.child({ MINT_MAINNET_SIGNER_KEY: SECRET, step: 2 }).info('from the grandchild');
    expect(lines[0]).toMatchObject({ ...CENSORED, msg: 'from the child' });
    expect(lines[1]).toMatchObject({ ...CENSORED, MINT_MAINNET_SIGNER_KEY: CENSOR, step: 2 });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('in every header and field it lists, at the top and one level down', () => {
    const { logger, lines } = capture();
    for (const field of SECRET_FIELDS) logger.info({ [field]: SECRET, nested: { [field]: SECRET } });
    for (const header of SECRET_HEADERS)
      logger.info({ headers: { [header]: SECRET }, res: { headers: { [header]: SECRET } } });
    expect(lines).toHaveLength(SECRET_FIELDS.length + SECRET_HEADERS.length);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('keeps an error an error (message and stack) when it censors a field of it', () => {
    const { logger, lines } = capture();
    const err = Object.assign(new Error('boom'), { privateKey: '0xabc' });
    logger.error({ err }, 'failed');
    expect(lines[0].err).toMatchObject({ type: 'Error', message: 'boom', stack: err.stack, privateKey: CENSOR });
    expect(err.privateKey).toBe('0xabc');
  });
});

describe('the request line, written by hand', () => {
  it('isoClock is Date#toISOString for every millisecond it is given, in any order', () => {
    const isoTime = isoClock();
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
