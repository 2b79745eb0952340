import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
// IncomingMessage.id, the field this middleware fills, is declared by pino-http's typings (nestjs-pino loads them).
import type {} from 'pino-http';

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/**
 * Takes a sane x-request-id from the caller (the gateway's) or makes one, and returns it on the response. It runs
 * first; the request logger reuses req.id, so logs, problem bodies and the header agree.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('x-request-id', id);
  next();
}

export function requestIdOf(req: { id?: unknown } | undefined): string {
  return typeof req?.id === 'string' ? req.id : 'unknown';
}

/** The request id, for the audit trail (a route without an API key records its wallet or signer beside it). */
export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string =>
  requestIdOf(ctx.switchToHttp().getRequest<Request>()),
);
