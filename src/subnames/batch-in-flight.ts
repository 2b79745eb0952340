import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { finalize, Observable } from 'rxjs';
import type { KeyedRequest } from '../auth/guards';
import { AppConfig } from '../config/app-config';
import { RateLimitedError } from '../rate-limit/rate-limit.errors';

/** What a refused batch is told to wait: about the time one batch takes. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Refuses a batch, 429 with Retry-After and before its body is read or validated, while its key already has
 * BATCHES_IN_FLIGHT_PER_KEY (default 1) in flight in this process, from before the body is read to the answer;
 * other keys are not affected. A batch of 1,000 items with 20 addresses each costs a few hundred milliseconds of
 * CPU (validated in slices, see ValidatedInSlices), so a key sending them in parallel would take the CPU from
 * every other client (issue 35.2); an importer sends them in turn.
 * Goes before ReadDeferredBody.
 */
@Injectable()
export class BatchInFlight implements NestInterceptor {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const id = context.switchToHttp().getRequest<KeyedRequest>().apiKey?.id;
    if (id === undefined) return next.handle();
    const running = this.inFlight.get(id) ?? 0;
    if (running >= this.config.batchesInFlightPerKey) {
      throw new RateLimitedError(
        `this API key already has ${running} batch(es) in flight, the most one key may have; send the next ` +
          'when one is answered',
        RETRY_AFTER_SECONDS,
        {},
      );
    }
    this.inFlight.set(id, running + 1);
    return next.handle().pipe(
      finalize(() => {
        const left = (this.inFlight.get(id) ?? 1) - 1;
        if (left > 0) this.inFlight.set(id, left);
        else this.inFlight.delete(id);
      }),
    );
  }
}
