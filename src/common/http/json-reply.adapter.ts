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
    const text = JSON.stringify(body);
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(text));
    // Node sends no body to a HEAD request, as Express's res.send does not.
    return response.end(text);
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
