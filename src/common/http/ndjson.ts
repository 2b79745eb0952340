import { Logger } from '@nestjs/common';
import type { Response } from 'express';

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

const logger = new Logger('Ndjson');

/** Resolves when the response can take more (drain) or will never take more (closed by either side). */
function writable(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Streams chunks of NDJSON as they are produced, with backpressure: the next chunk is asked for only when the
 * client has taken the last one. The first chunk is read before the status line, so a failure there (the
 * database, say) is still an ordinary problem response. A client that goes away stops the producer (its
 * `return` runs, so a generator reads no further pages); a failure after the first byte cuts the response
 * short, so the client sees an incomplete transfer rather than a silently shorter file.
 */
export async function streamNdjson(res: Response, chunks: AsyncIterable<string>): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  let next = await iterator.next();
  let closed = false;
  res.once('close', () => (closed = true));
  res.status(200);
  res.setHeader('Content-Type', NDJSON_CONTENT_TYPE);
  res.setHeader('Cache-Control', 'no-store');
  try {
    while (!next.done && !closed) {
      if (!res.write(next.value)) await writable(res);
      if (closed) break;
      next = await iterator.next();
    }
  } catch (e) {
    logger.error(`export stream failed after its first byte: ${(e as Error).message}`);
    res.destroy(e as Error);
    return;
  } finally {
    if (!next.done) await iterator.return?.();
  }
  if (!closed) res.end();
}
