import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** `application/json`, alone or with a UTF-8 charset (any case, optionally quoted): what API clients send. */
const PLAIN_JSON = /^application\/json[ \t]*(?:;[ \t]*charset=(?:utf-8|"utf-8")[ \t]*)?$/i;
const DECIMAL = /^[0-9]{1,9}$/;
/** What body-parser's strict mode skips before the first character of a JSON text. */
const JSON_WHITESPACE = /^[ \t\n\r]*/;

/** body-parser's client errors (http-errors): what ProblemFilter reads is `status`, `expose` and `type`. */
function clientError(message: string, type: string, extra: object = {}): Error {
  return Object.assign(new Error(message), { status: 400, statusCode: 400, expose: true, type, ...extra });
}

/** body-parser's JSON parse in strict mode: an empty text is {}, anything but an object or array is refused. */
export function parseStrictJson(text: string): unknown {
  if (text.length === 0) return {};
  const first = text[0] === '{' || text[0] === '[' ? text[0] : text[JSON_WHITESPACE.exec(text)![0].length];
  if (first !== '{' && first !== '[') {
    throw clientError(`Unexpected token in JSON: a JSON object or array is required`, 'entity.parse.failed', {
      body: text,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw clientError((e as Error).message, 'entity.parse.failed', { body: text });
  }
}

/**
 * The JSON body reader of every route: body-parser's `json` (`fallback`, configured with the same `limit`) for
 * anything out of the ordinary; for a request without a body (no Content-Length, not chunked), what body-parser
 * does without its type checks; and a direct read for the request nearly every client sends: `application/json`
 * in UTF-8, a Content-Length within the limit, no Content-Encoding and no chunking. That read does what
 * body-parser does for such a request (UTF-8 with the BOM dropped, strict JSON, the same error types for a bad
 * text or a body cut off) without its content-type parsing, stream decoder and option handling;
 * json-body.spec.ts proves the two give the same body or the same error over generated requests.
 */
export function jsonBody(limit: number, fallback: RequestHandler, precheck?: (text: string) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const headers = req.headers;
    const type = headers['content-type'];
    const length = headers['content-length'];
    if (length === undefined && headers['transfer-encoding'] === undefined) {
      // No body (a GET): what body-parser does before it looks at the type.
      if (!isFinished(req)) defineBody(req);
      return next();
    }
    if (
      type === undefined ||
      length === undefined ||
      headers['content-encoding'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      req.complete ||
      !DECIMAL.test(length) ||
      (type !== 'application/json' && !PLAIN_JSON.test(type))
    ) {
      return fallback(req, res, next);
    }
    const expected = Number(length);
    if (expected === 0 || expected > limit) return fallback(req, res, next);
    defineBody(req);
    read(req, expected, next, precheck);
  };
}

/** on-finished's `isFinished` for a request: body-parser passes such a request on untouched. */
function isFinished(req: Request): boolean {
  const socket = req.socket as Request['socket'] | null;
  return Boolean(
    (req as { upgrade?: boolean }).upgrade || !socket || !socket.readable || (req.complete && !req.readable),
  );
}

/** As body-parser does: from here on the request has a body property, parsed or not. */
function defineBody(req: Request): void {
  const withBody: { body?: unknown } = req;
  if (!('body' in withBody)) withBody.body = undefined;
}

/** `precheck` may refuse the text (by throwing) before it is parsed. */
function read(req: Request, expected: number, next: NextFunction, precheck?: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (err?: unknown) => {
    if (settled) return;
    settled = true;
    next(err);
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = () => {
    if (received !== expected) {
      return settle(
        clientError('request size did not match content length', 'request.size.invalid', { expected, received }),
      );
    }
    let text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      precheck?.(text);
      req.body = parseStrictJson(text);
    } catch (e) {
      return settle(e);
    }
    settle();
  };
  // The client went away before the body was complete (raw-body's `aborted`); after `end`, `close` changes
  // nothing. A request emits `error` only to listeners, and this reader needs none: `close` always follows.
  const onClose = () => {
    if (!settled)
      settle(clientError('request aborted', 'request.aborted', { code: 'ECONNABORTED', expected, received }));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onClose);
}
