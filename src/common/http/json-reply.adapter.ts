import type { ServerResponse } from 'node:http';
import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/** What Express's res.json sets when a response has no type yet (json → mime type with its charset). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

type ReplyTransform = (body: unknown) => unknown;
const REPLY_TRANSFORM = Symbol('replyTransform');

/**
 * Has JsonReplyAdapter rewrite this response's body before it is sent: what an interceptor's map would do, without
 * the RxJS pipeline and async-context binding Nest wraps around every request of a route with an interceptor
 * (about a third of a cached read's CPU, bench/RESULTS.md).
 */
export function transformReply(res: Response, transform: ReplyTransform): void {
  (res.locals as Record<typeof REPLY_TRANSFORM, ReplyTransform>)[REPLY_TRANSFORM] = transform;
}

/**
 * Nest's Express adapter, with the common reply written directly: a JSON object or array, on a response without
 * a type of its own, is serialised and ended here instead of through Express's res.json and res.send (settings
 * lookups, content-type parsing and charset rewriting, ETag and freshness checks that never apply to this API:
 * ETag is off and nothing sets Last-Modified). The bytes, status and headers are those Express would send
 * (json-reply.adapter.spec.ts proves it); anything else (no body, strings, buffers, streams, a type already set,
 * 204/304) goes through Nest's own reply.
 */
export class JsonReplyAdapter extends ExpressAdapter {
  private readonly answers = new AnswersPerTurn();

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const transform = (response.locals as Partial<Record<typeof REPLY_TRANSFORM, ReplyTransform>>)[REPLY_TRANSFORM];
    if (transform) body = transform(body);
    // A handler's 304 (a conditional GET it found current) stands over the route's default status, bodiless.
    if (response.statusCode === 304) return response.end();
    if (!isJsonValue(body) || response.getHeader('content-type') !== undefined) {
      return super.reply(response, body, statusCode);
    }
    const status = statusCode ?? response.statusCode;
    if (status === 204 || status === 304) return super.reply(response, body, statusCode);
    response.statusCode = status;
    return this.answers.send(response, JSON.stringify(body));
  }
}

function isJsonValue(body: unknown): body is object {
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof StreamableFile) &&
    !ArrayBuffer.isView(body) &&
    !(body instanceof ArrayBuffer)
  );
}

/**
 * Ends responses with a JSON text, as Express's res.send does for it (a HEAD request gets the headers only), at
 * the end of this turn of the event loop (its check phase), together with the other answers made during it: a
 * burst of writes costs the kernel less than the same writes spread between requests (a read costs less CPU with
 * the client on loopback and with it across a network namespace's link alike). An answer waits at most for the
 * rest of the turn. One per adapter, so two applications in one process keep their own batches.
 */
export class AnswersPerTurn {
  /** Answers made during this turn of the event loop, written together at its end. */
  private toWrite: [ServerResponse, string | undefined][] = [];

  private readonly writeAll = (): void => {
    const answers = this.toWrite;
    this.toWrite = [];
    for (const [res, text] of answers) {
      try {
        res.end(text);
      } catch (e) {
        // Never one answer's failure the others'.
        res.destroy(e as Error);
      }
    }
  };

  send(res: ServerResponse, text: string): ServerResponse {
    res.setHeader('Content-Type', JSON_CONTENT_TYPE);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    if (this.toWrite.length === 0) setImmediate(this.writeAll);
    this.toWrite.push([res, res.req?.method === 'HEAD' ? undefined : text]);
    return res;
  }
}
