import { DomainError } from '../common/errors';

/** Over a rate limit: the budget's headers and Retry-After go with the refusal. */
export class RateLimitedError extends DomainError {
  constructor(detail: string, retryAfterSeconds: number, headers: Record<string, string>) {
    super('RATE_LIMITED', detail, undefined, { ...headers, 'Retry-After': String(retryAfterSeconds) });
  }
}
