import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

declare module 'http' {
  interface IncomingMessage {
    id?: string;
  }
}

const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** Takes a sane x-request-id from the caller or makes one, and returns it on the response. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('x-request-id', id);
  next();
}

export function requestIdOf(req: { id?: string } | undefined): string {
  return req?.id ?? 'unknown';
}
