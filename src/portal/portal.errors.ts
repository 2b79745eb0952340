import { DomainError } from '../common/errors';

/** A state change that did not come from the portal's own page (origin, fetch metadata or CSRF token). */
export class CrossSiteRequestError extends DomainError {
  constructor(detail: string) {
    super('CROSS_SITE_REQUEST', detail);
  }
}

/** The signed-in wallet does not control the name on chain now; the detail says who does. */
export class NotNameControllerError extends DomainError {
  constructor(detail: string) {
    super('NOT_NAME_CONTROLLER', detail);
  }
}

/** An operator route asked by a wallet that is not in PORTAL_ADMIN_ADDRESSES. */
export class NotOperatorError extends DomainError {
  constructor() {
    super('NOT_OPERATOR', 'This wallet is not an operator of the service (PORTAL_ADMIN_ADDRESSES)');
  }
}

/** An address already has as many sign-in messages waiting as it may; the first of them expires in `seconds`. */
export class TooManyChallengesError extends DomainError {
  constructor(address: string, limit: number, seconds: number) {
    super(
      'RATE_LIMITED',
      `${address} already has ${limit} sign-in messages waiting: sign one of them, or ask again in ${seconds} s`,
      undefined,
      { 'Retry-After': String(seconds) },
    );
  }
}

/** One client address already has as many sign-in messages waiting as it may, whatever wallets they are for. */
export class TooManyClientChallengesError extends DomainError {
  constructor(limit: number, seconds: number) {
    super(
      'CHALLENGE_LIMIT_PER_CLIENT',
      `This client already has ${limit} sign-in messages waiting: sign one of them, or ask again in ${seconds} s`,
      undefined,
      { 'Retry-After': String(seconds) },
    );
  }
}

/** The wallet has no live key covering the name, and a policy needs one: its claims are charged to that key. */
export class NoKeyForNameError extends DomainError {
  constructor(name: string) {
    super('FORBIDDEN_PARENT', `No live key of this wallet covers ${name}: create one first (claims use its quota)`);
  }
}
