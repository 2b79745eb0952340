import type { NextFunction, Request, RequestHandler, Response } from 'express';
import pino, { DestinationStream, Level, Logger as PinoLogger } from 'pino';
import { requestIdOf } from '../common/http/request-id';
import { onResponseEnd } from '../common/http/response-end';
import { AppConfig } from '../config/app-config';
import { routeOf } from '../metrics/http-metrics';

export const SECRET_HEADERS = ['x-auth-token', 'x-admin-token', 'authorization', 'cookie', 'set-cookie'];
export const SECRET_FIELDS = [
  'MINT_MAINNET_SIGNER_KEY',
  'MINT_TESTNET_SIGNER_KEY',
  'CCIP_SIGNER_KEY',
  'ADMIN_TOKEN',
  'signerKey',
  'privateKey',
  'adminToken',
];
export const CENSOR = '[REDACTED]';

/**
 * What is blanked out wherever it appears in a log object or a child logger's bindings, in pino's `redact` path
 * syntax. The request logger below never logs headers or bodies at all; these catch a header bag or a
 * configuration object that some other code might log.
 */
export const REDACT_PATHS = [
  ...SECRET_HEADERS.flatMap((h) => [`headers["${h}"]`, `req.headers["${h}"]`, `*.headers["${h}"]`]),
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

/** Health probes and scrapes are logged at debug level, so that they do not drown the log. */
const QUIET_PATHS = /^\/(health\/(live|ready)|metrics)\/?(\?|$)/;

/**
 * Linux's PIPE_BUF: a write to a pipe of at most this many bytes is never interleaved with another process's,
 * and sonic-boom fills each write with whole lines up to this size, so the workers of a cluster (WORKERS) that
 * share standard output never cut into each other's lines.
 */
const ATOMIC_WRITE_BYTES = 4096;

/** A write waits for more than this many bytes of lines, or for the next flush. */
const BATCH_BYTES = 3072;
/** How long a line may wait for a batch to fill. */
const FLUSH_MS = 100;

/**
 * Standard output, written asynchronously in batches: a write waits until lines fill about 3 KB or 100 ms have
 * passed, so a busy process makes one write per dozen lines or so instead of one per line or two (the bench's
 * profiles had the writes at 2–3 % of a request). pino flushes what is left on exit.
 */
function stdoutInBatches(): DestinationStream {
  return pino.destination({
    dest: 1,
    sync: false,
    maxWrite: ATOMIC_WRITE_BYTES,
    minLength: BATCH_BYTES,
    periodicFlush: FLUSH_MS,
  });
}

/**
 * `new Date(ms).toISOString()` for the whole milliseconds of Date.now(), with the part up to the second computed
 * once a second (logger.spec.ts proves them equal): every log line carries one, and a Date per line shows in
 * the request path's profile. Each call makes a clock of its own (one per logger).
 */
export function isoClock(): (ms: number) => string {
  let isoSecond = NaN;
  let isoPrefix = '';
  return (ms) => {
    const second = Math.floor(ms / 1000);
    if (second !== isoSecond) {
      isoSecond = second;
      isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    const milli = ms - second * 1000;
    return `${isoPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  };
}

const SERVICE = 'ens-subname-service';

/** pino's options for the root logger; exported so that logger.spec.ts can hold the request line to them. */
export function loggerOptions(config: AppConfig): pino.LoggerOptions {
  const isoTime = isoClock();
  return {
    level: config.logLevel,
    formatters: { level: (label) => ({ level: label }) },
    // pino applies it to child loggers' bindings too. The request line, the one line per request, bypasses it.
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    timestamp: () => `,"time":"${isoTime(Date.now())}"`,
    base: { service: SERVICE, pid: process.pid },
  };
}

/**
 * An application's log output, made once at start-up (LoggingModule for an application, main.ts for a cluster's
 * primary) and passed down: standard output in batches, and the JSON-lines root logger over it (LOG_LEVEL,
 * secrets redacted).
 */
export class LogOutput {
  readonly stream: DestinationStream;
  readonly root: PinoLogger;

  constructor(config: AppConfig, stream: DestinationStream = stdoutInBatches()) {
    this.stream = stream;
    this.root = pino(loggerOptions(config), stream);
  }

  /** One plain (non-JSON) line, after the log lines written before it (same stream, in order). */
  writePlainLine(text: string): void {
    this.stream.write(`${text}\n`);
  }
}

function levelOf(url: string, status: number): Level {
  // Probes are frequent, and the health controller logs each change of readiness itself.
  if (QUIET_PATHS.test(url)) return 'debug';
  // 503 is the expected answer while the database is away (the filter logs why): not an error of ours.
  if (status === 503) return 'warn';
  return status >= 500 ? 'error' : 'info';
}

/** The fields of a request line. */
export interface RequestLine {
  requestId: string;
  method: string;
  url: string;
  route: string;
  status: number;
  durationMs: number;
}

/**
 * The request line as `logger[level](line, msg)` writes it with `loggerOptions` (logger.spec.ts proves the two
 * equal over generated requests), serialised by hand: none of its keys is ever redacted and the request's own
 * id is in it, so pino's general serialiser and redaction walk would only cost time on every request.
 */
export function requestLineWriter(pid: number, now: () => number = Date.now) {
  const isoTime = isoClock();
  const bindings = `,"service":${JSON.stringify(SERVICE)},"pid":${pid}`;
  return (level: Level, line: RequestLine, msg: string): string =>
    `{"level":"${level}","time":"${isoTime(now())}"${bindings},"requestId":${JSON.stringify(line.requestId)},` +
    `"method":${JSON.stringify(line.method)},"url":${JSON.stringify(line.url)},"route":${JSON.stringify(line.route)},` +
    `"status":${line.status},"durationMs":${line.durationMs},"msg":${JSON.stringify(msg)}}\n`;
}

/**
 * One line per request when its response is finished (or cut off: status 499): request id (the one
 * request-id.ts took or made), method, URL, route template, status and duration. Other lines about a request
 * name it themselves (`requestId`, from the Actor or the request): no AsyncLocalStorage, whose promise hooks
 * cost every request about a tenth of its time on Node 20.
 */
export function httpLogger(output: LogOutput): RequestHandler {
  const logger = output.root;
  const format = requestLineWriter(process.pid);
  const out = output.stream;
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    onResponseEnd(res, () => {
      const status = res.writableFinished ? res.statusCode : 499;
      const url = req.originalUrl ?? req.url;
      const level = levelOf(url, status);
      if (!logger.isLevelEnabled(level)) return;
      const route = routeOf(req);
      const line = {
        requestId: requestIdOf(req),
        method: req.method,
        url,
        route,
        status,
        durationMs: Math.round(performance.now() - started),
      };
      out.write(format(level, line, `${req.method} ${route} ${res.statusCode}`));
    });
    next();
  };
}
