import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors';

/** `application/json` and `application/<anything>+json`, with any parameters: what the body parser reads. */
const JSON_TYPE = /^application\/(?:[!#$%&'*.^_`|~0-9a-z-]+\+)?json[ \t]*(?:;|$)/i;

/** Whether the request carries a body (a length above zero, or chunks), as body-parser's type-is decides. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Every body the API reads is JSON: one of another type is 415 rather than a body read as missing. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const type = req.headers['content-type'];
  if (!hasBody(req) || (type !== undefined && JSON_TYPE.test(type))) return next();
  next(
    new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      type === undefined
        ? 'The request body has no Content-Type: send it as application/json'
        : `The request body must be application/json, not ${type.split(';')[0].trim().slice(0, 100)}`,
    ),
  );
}
