import type { ServerResponse } from 'node:http';

const HANDLERS = Symbol('responseEnd');

type Tracked = ServerResponse & { [HANDLERS]?: (() => void)[] };

/**
 * Runs `handler` once when the response ends, sent or cut off by the client: every handler of a response shares
 * one 'close' listener (Node emits 'close' after 'finish', a tick later, and alone when the connection drops), so
 * the request log, the metrics and the shutdown tracker do not add two listeners each to every request.
 * `res.writableFinished` tells the two endings apart. Handlers run in the order they were added.
 */
export function onResponseEnd(res: ServerResponse, handler: () => void): void {
  const tracked = res as Tracked;
  const handlers = tracked[HANDLERS];
  if (handlers) {
    handlers.push(handler);
    return;
  }
  const list = [handler];
  tracked[HANDLERS] = list;
  res.once('close', () => {
    for (const h of list) h();
  });
}
