import { HttpStatus } from '@nestjs/common';

export interface FieldError {
  field: string;
  message: string;
}

/** Entries of a problem's `errors[]`; past it the body says how many more there were (`moreErrors`). */
export const MAX_FIELD_ERRORS = 100;

/**
 * The catalogue: every error code of docs/reference.md#errors with its HTTP status and title. A module throws its
 * errors as DomainError subclasses declared in its own `*.errors.ts` (headers included), and the one
 * problem filter turns any of them into RFC 9457 JSON.
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: { status: HttpStatus.BAD_REQUEST, title: 'Validation failed' },
  UNSUPPORTED_RESOLVER_CALL: { status: HttpStatus.BAD_REQUEST, title: 'Unsupported resolver call' },
  UNAUTHORIZED: { status: HttpStatus.UNAUTHORIZED, title: 'Unauthorized' },
  FORBIDDEN: { status: HttpStatus.FORBIDDEN, title: 'Forbidden' },
  FORBIDDEN_PARENT: { status: HttpStatus.FORBIDDEN, title: 'Parent name outside the key scope' },
  QUOTA_EXCEEDED: { status: HttpStatus.FORBIDDEN, title: 'Subname quota exceeded' },
  CROSS_SITE_REQUEST: { status: HttpStatus.FORBIDDEN, title: 'Cross-site request refused' },
  NOT_NAME_CONTROLLER: { status: HttpStatus.FORBIDDEN, title: 'Not a controller of the name' },
  NOT_OPERATOR: { status: HttpStatus.FORBIDDEN, title: 'Not an operator' },
  HOLDER_NOT_ALLOWED: { status: HttpStatus.FORBIDDEN, title: "Not allowed by the parent's policy" },
  CLAIM_LIMIT_REACHED: { status: HttpStatus.FORBIDDEN, title: 'Claim limit reached' },
  NOT_FOUND: { status: HttpStatus.NOT_FOUND, title: 'Not found' },
  SUBNAME_NOT_FOUND: { status: HttpStatus.NOT_FOUND, title: 'Subname not found' },
  LISTING_NOT_FOUND: { status: HttpStatus.NOT_FOUND, title: 'Listing not found' },
  POLICY_NOT_FOUND: { status: HttpStatus.NOT_FOUND, title: 'Policy not found' },
  METHOD_NOT_ALLOWED: { status: HttpStatus.METHOD_NOT_ALLOWED, title: 'Method not allowed' },
  SUBNAME_TAKEN: { status: HttpStatus.CONFLICT, title: 'Subname taken' },
  SUBNAME_RESERVED: { status: HttpStatus.CONFLICT, title: 'Subname reserved' },
  FORWARD_MISMATCH: { status: HttpStatus.CONFLICT, title: 'Name does not resolve to the address' },
  STALE_SIGNATURE: { status: HttpStatus.CONFLICT, title: 'Stale signature' },
  KEY_LIMIT_PER_PARENT: { status: HttpStatus.CONFLICT, title: 'Too many keys for this parent' },
  KEY_LIMIT_PER_WALLET: { status: HttpStatus.CONFLICT, title: 'Too many keys for this wallet' },
  CONFLICT: { status: HttpStatus.CONFLICT, title: 'Conflict' },
  REQUEST_TIMEOUT: { status: HttpStatus.REQUEST_TIMEOUT, title: 'Request timeout' },
  PAYLOAD_TOO_LARGE: { status: HttpStatus.PAYLOAD_TOO_LARGE, title: 'Payload too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, title: 'Unsupported media type' },
  RATE_LIMITED: { status: HttpStatus.TOO_MANY_REQUESTS, title: 'Too many requests' },
  CHALLENGE_LIMIT_PER_CLIENT: { status: HttpStatus.TOO_MANY_REQUESTS, title: 'Too many sign-in messages waiting' },
  HEADERS_TOO_LARGE: { status: 431, title: 'Request header fields too large' },
  SERVICE_UNAVAILABLE: { status: HttpStatus.SERVICE_UNAVAILABLE, title: 'Service unavailable' },
  SERVICE_BUSY: { status: HttpStatus.SERVICE_UNAVAILABLE, title: 'Service busy' },
  SEARCH_TIMEOUT: { status: HttpStatus.SERVICE_UNAVAILABLE, title: 'Search took too long' },
  CHAIN_UNAVAILABLE: { status: HttpStatus.SERVICE_UNAVAILABLE, title: 'Chain unavailable' },
  INTERNAL: { status: HttpStatus.INTERNAL_SERVER_ERROR, title: 'Internal server error' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'SERVICE_UNAVAILABLE',
};

/** The code a problem of this status carries when nothing names a more precise one. */
export function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED');
}

/** A failure the client can act on; the problem filter turns it into RFC 9457 JSON. */
export class DomainError extends Error {
  /** Field errors found beyond the MAX_FIELD_ERRORS that `errors` keeps. */
  readonly moreErrors: number;
  readonly errors?: FieldError[];

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    errors?: FieldError[],
    readonly headers?: Record<string, string>,
    total = errors?.length ?? 0,
  ) {
    super(detail);
    this.name = new.target.name;
    this.errors = errors && errors.length > MAX_FIELD_ERRORS ? errors.slice(0, MAX_FIELD_ERRORS) : errors;
    this.moreErrors = Math.max(0, total - (this.errors?.length ?? 0));
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export class ValidationFailedError extends DomainError {
  /** `total`: the bad fields found, when `errors` holds only the first of them. */
  constructor(errors: FieldError[], total = errors.length) {
    const detail = total === 1 ? `${errors[0].field}: ${errors[0].message}` : `${total} fields are invalid`;
    super('VALIDATION_FAILED', detail, errors, undefined, total);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(detail = 'A valid x-auth-token is required') {
    super('UNAUTHORIZED', detail);
  }
}

/** A path that names nothing: an unknown route, or an item of the admin API that does not exist. */
export class NotFoundError extends DomainError {
  constructor(detail: string) {
    super('NOT_FOUND', detail);
  }
}

/** The database cannot be reached; the client may try again after a few seconds. */
export class ServiceUnavailableError extends DomainError {
  constructor(detail = 'The database is unreachable; try again shortly', retryAfterSeconds = 5) {
    super('SERVICE_UNAVAILABLE', detail, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** Every database connection is in use and none came free in time; the database is up. Retry shortly. */
export class ServiceBusyError extends DomainError {
  constructor(
    detail = 'The service is busy (every database connection is in use); retry shortly',
    retryAfterSeconds = 2,
  ) {
    super('SERVICE_BUSY', detail, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** A public search that needed more database time than SEARCH_STATEMENT_TIMEOUT_MS; PostgreSQL cancelled it. */
export class SearchTimeoutError extends DomainError {
  constructor(timeoutMs: number) {
    super(
      'SEARCH_TIMEOUT',
      `The search needed more than its ${timeoutMs} ms of database time and was stopped: narrow it (fewer parents, ` +
        'a longer labelSearch, a more selective metadata filter, an earlier page) or retry later',
      undefined,
      { 'Retry-After': '5' },
    );
  }
}
