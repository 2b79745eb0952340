import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { ValidationFailedError } from '../errors';
import { requestValueProblem } from '../validation/input-safety';
import { jsonBody } from './json-body';

/** Bytes of a JSON body, on every route whose module does not read bodies of its own: 64 KB. */
export const BODY_LIMIT = 64 * 1024;

/** Reads a JSON body of at most `limit` bytes (see jsonBody); `precheck` may refuse the text before it is parsed. */
export function jsonReader(limit: number, precheck?: (text: string) => void): RequestHandler {
  const fallback = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
  return jsonBody(limit, fallback, precheck);
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
