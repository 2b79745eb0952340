import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import pino, { Logger as PinoLogger } from 'pino';
import { pinoHttp, HttpLogger } from 'pino-http';
import { AppConfig } from '../config/app-config';
import { routeOf } from '../metrics/http-metrics';

const SECRET_HEADERS = ['x-auth-token', 'x-admin-token', 'authorization', 'cookie', 'set-cookie'];
const SECRET_FIELDS = [
  'MINT_MAINNET_SIGNER_KEY',
  'MINT_TESTNET_SIGNER_KEY',
  'CCIP_SIGNER_KEY',
  'ADMIN_TOKEN',
  'signerKey',
  'privateKey',
  'adminToken',
];

/**
 * Paths pino blanks out wherever they appear in a log object. The request logger below never serialises headers
 * or bodies at all; these catch a header bag or a configuration object that some other code might log.
 */
export const REDACT_PATHS = [
  ...SECRET_HEADERS.flatMap((h) => [`headers["${h}"]`, `req.headers["${h}"]`, `*.headers["${h}"]`]),
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

/** Health probes and scrapes are logged at debug level, so that they do not drown the log. */
const QUIET_PATHS = /^\/(health\/(live|ready)|metrics)\/?(\?|$)/;

const loggers = new WeakMap<AppConfig, PinoLogger>();

/** The process's JSON-lines logger (one per configuration): stdout, LOG_LEVEL, secrets redacted. */
export function rootLogger(config: AppConfig): PinoLogger {
  let logger = loggers.get(config);
  if (!logger) {
    logger = pino({
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
      base: { service: 'ens-subname-service', pid: process.pid },
    });
    loggers.set(config, logger);
  }
  return logger;
}

/**
 * One line per request when its response is finished: request id (the one request-id.ts took or made),
 * method, URL, route template, status and duration. Logs written while the request is handled carry its id.
 */
export function httpLogger(config: AppConfig): HttpLogger {
  const line = (req: IncomingMessage, res: ServerResponse) => ({
    method: req.method,
    url: (req as Request).originalUrl ?? req.url,
    route: routeOf(req as Request),
    status: res.writableFinished ? res.statusCode : 499,
  });
  return pinoHttp({
    logger: rootLogger(config),
    genReqId: (req) => (typeof req.id === 'string' ? req.id : 'unknown'),
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: (req, res, err) => {
      // Probes are frequent, and the health controller logs each change of readiness itself.
      if (QUIET_PATHS.test(req.url ?? '')) return 'debug';
      // 503 is the expected answer while the database is away (the filter logs why): not an error of ours.
      if (res.statusCode === 503) return 'warn';
      return err || res.statusCode >= 500 ? 'error' : 'info';
    },
    customSuccessObject: (req, res, val: { durationMs: number }) => ({ ...line(req, res), durationMs: val.durationMs }),
    customErrorObject: (req, res, _err, val: { durationMs: number }) => ({
      ...line(req, res),
      durationMs: val.durationMs,
    }),
    customSuccessMessage: (req, res) => `${req.method} ${routeOf(req as Request)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${routeOf(req as Request)} ${res.statusCode}`,
  });
}
