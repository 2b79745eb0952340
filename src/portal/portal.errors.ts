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
