import { ArgumentMetadata, createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { parseJsonParameter } from '../common/input-safety';
import { AppValidationPipe } from '../common/validation.pipe';

const METADATA_KEY = /^metadata\[(.*)\]$/;

/**
 * The query string as the search DTO expects it. Express 5's default (simple) query parser leaves
 * `metadata[tier]=gold` and `parentNames[]=oak.eth` as flat keys; they are gathered here, so the route
 * works the same under the simple and the extended parser. `metadata={"tier":"gold"}` is parsed here too, and
 * its content held to the rules of a body (no NUL, no lone surrogate, bounded depth) before anything reads it.
 */
export function gatherListQuery(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const parentNames: unknown[] = [];
  const metadata: Record<string, unknown> = {};
  let bracketed = false;
  for (const [key, value] of Object.entries(query)) {
    const m = METADATA_KEY.exec(key);
    if (m) {
      metadata[m[1]] = value;
      bracketed = true;
    } else if (key === 'parentNames' || key === 'parentNames[]') {
      parentNames.push(...(Array.isArray(value) ? value : [value]));
    } else {
      out[key] = value;
    }
  }
  if (parentNames.length > 0) out.parentNames = parentNames;
  if (typeof out.metadata === 'string') out.metadata = parseJsonParameter(out.metadata, 'metadata') ?? out.metadata;
  if (bracketed) out.metadata = out.metadata === undefined ? metadata : merged(out.metadata, metadata);
  return out;
}

/** `metadata=<JSON object>` beside `metadata[k]=v`: both apply; anything else is left for the validator. */
function merged(given: unknown, extra: Record<string, unknown>): unknown {
  const isObject = typeof given === 'object' && given !== null && !Array.isArray(given);
  return isObject ? { ...given, ...extra } : given;
}

/** The query of GET /subnames, gathered by `gatherListQuery`; pair it with ListQueryValidationPipe. */
export const ListQuery = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  gatherListQuery(ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown>),
);

/** The global pipe's rules, applied to a custom parameter (which the global pipe leaves alone). */
@Injectable()
export class ListQueryValidationPipe implements PipeTransform {
  private readonly pipe = new AppValidationPipe();

  transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return this.pipe.transform(value, { ...metadata, type: 'query' });
  }
}
