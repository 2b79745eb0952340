import { RequestMethod } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { jsonReader } from '../common/http/body-readers';
import { deferBody } from '../common/http/deferred-body';
import { topLevelArrayLength } from '../common/http/json-array-length';
import { ValidationFailedError } from '../common/errors';
import { MAX_BATCH_ITEMS } from './dto/batch-limits';

/** POST /subnames/batch carries up to 1000 bodies, so it alone may send up to 2 MB. */
export const BATCH_BODY_LIMIT = 2 * 1024 * 1024;
/** The route that reads its body itself, after its guards (no 64 KB reader is applied to it). */
export const BATCH_ROUTE = { path: 'subnames/batch', method: RequestMethod.POST };

/** Refuses a JSON text whose top-level `items` array has more than `max` elements, as validation would. */
function refuseItemsPast(max: number): (text: string) => void {
  return (text) => {
    const length = topLevelArrayLength(text, 'items');
    if (length !== undefined && length > max) {
      throw new ValidationFailedError([
        { field: 'items', message: `must contain no more than ${max} elements (${length} given)` },
      ]);
    }
  };
}

/**
 * The batch's body reader, read after the guards (ReadDeferredBody on the route): key and budgets first, from the
 * headers alone; an items array past its bound is refused from the text, before it is parsed.
 */
export function batchBody(): RequestHandler {
  return deferBody(jsonReader(BATCH_BODY_LIMIT, refuseItemsPast(MAX_BATCH_ITEMS)));
}
