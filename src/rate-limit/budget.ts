import type { Metrics } from '../metrics/metrics';
import { KEY_LIMIT, RESOLUTION_LIMIT } from '../common/http/rate-limit.constants';
import type { WindowCount } from './memory-windows';
import { RateLimitedError } from './rate-limit.errors';

/** One budget (per address, key or signer): its limit and the header values that never change. */
export class Budget {
  readonly limitHeader: string;
  readonly policyHeader: string;
  readonly seconds: number;

  constructor(
    readonly name: string,
    readonly limit: number,
    windowMs: number,
    private readonly metrics: Metrics,
    private readonly scope = name === KEY_LIMIT ? 'API key' : 'client address',
  ) {
    this.seconds = Math.round(windowMs / 1000);
    this.limitHeader = String(limit);
    this.policyHeader = `${limit};w=${this.seconds}`;
  }

  /** The draft-6 headers of a count. */
  headers(hits: number, secondsLeft: number): Record<string, string> {
    return {
      'RateLimit-Limit': this.limitHeader,
      'RateLimit-Remaining': String(Math.max(0, this.limit - hits)),
      'RateLimit-Reset': String(secondsLeft),
      'RateLimit-Policy': this.policyHeader,
    };
  }

  /** The seconds left of the count's window; past the limit, a 429 RATE_LIMITED with the headers instead. */
  check(count: WindowCount): number {
    const secondsLeft = Math.max(1, Math.ceil(count.msLeft / 1000));
    if (count.hits > this.limit) this.refuse(count.hits, secondsLeft);
    return secondsLeft;
  }

  /** The 429 RATE_LIMITED of a count past the limit, with the headers and Retry-After. */
  refuse(hits: number, secondsLeft: number): never {
    this.metrics.rateLimited.inc({ limit: this.name });
    const what = this.name === RESOLUTION_LIMIT ? 'lookups' : 'requests';
    throw new RateLimitedError(
      `More than ${this.limit} ${what} in ${this.seconds} s from this ${this.scope}; retry in ${secondsLeft} s`,
      secondsLeft,
      this.headers(hits, secondsLeft),
    );
  }
}
