import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { ValidationFailedError } from '../errors';
import { requestValueProblem } from '../validation/input-safety';

/** Bytes of a JSON body, on every route whose module does not read bodies of its own: 64 KB. */
export const BODY_LIMIT = 64 * 1024;

/** What a precheck threw, carried through body-parser's `verify` hook, which would make any error a 403. */
class RefusedBeforeParsing extends Error {
  constructor(readonly refusal: unknown) {
    super('refused before parsing');
  }
}

/**
 * Reads a JSON body of at most `limit` bytes with Express's `json` (strict: an object or an array); `precheck` may
 * refuse the raw text (by throwing) before it is parsed, and its error is what the reader fails with.
 */
export function jsonReader(limit: number, precheck?: (text: string) => void): RequestHandler {
  const verify = precheck
    ? (_req: unknown, _res: unknown, raw: Buffer) => {
        try {
          precheck(raw.toString('utf8'));
        } catch (e) {
          throw new RefusedBeforeParsing(e);
        }
      }
    : undefined;
  const parse = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'], verify });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => next(err instanceof RefusedBeforeParsing ? err.refusal : err));
}

/**
 * A body reader as module middleware (`consumer.apply(...)`), before the guards: the body is read and held to
 * the input-safety rules (the query and headers were, before routing). A refusal (413, 400) is the returned
 * promise's rejection, which Nest hands to the exception filters (passed to `next`, Nest's Express error layer
 * would turn body-parser's SyntaxError into a plain 400 first). A request without a body passes synchronously.
 */
export function readBodyFirst(reader: RequestHandler): (req: Request, res: Response, next: NextFunction) => unknown {
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      return reader(req, res, next);
    }
    return new Promise<void>((resolve, reject) =>
      reader(req, res, (err?: unknown) => {
        if (err) return reject(err);
        const problem = req.body !== undefined ? requestValueProblem(req.body) : null;
        if (problem) return reject(new ValidationFailedError([problem]));
        resolve();
      }),
    ).then(() => next());
  };
}

/**
 * What a module applies to its routes that take a JSON body of at most `limit` bytes (64 KB unless the route needs
 * more), read before the guards: `consumer.apply(jsonBody()).forRoutes(...)`. Named routes, not a wildcard under
 * the prefix: every router layer whose path matches a request decodes the request's path into parameters before
 * its method is compared, and a gateway lookup's path is 500 characters of calldata (3.5 µs of
 * `decodeURIComponent` a layer).
 */
export function jsonBody(limit = BODY_LIMIT): (req: Request, res: Response, next: NextFunction) => unknown {
  return readBodyFirst(jsonReader(limit));
}
