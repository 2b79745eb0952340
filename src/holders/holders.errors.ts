import { DomainError } from '../common/errors';

export class PolicyNotFoundError extends DomainError {
  constructor(parentName: string) {
    super('POLICY_NOT_FOUND', `${parentName} has no holder policy: holders can do nothing under it`);
  }
}

/** The parent's policy does not let holders do this; `rule` says which part of it. */
export class HolderNotAllowedError extends DomainError {
  constructor(rule: string) {
    super('HOLDER_NOT_ALLOWED', rule);
  }
}

export class ClaimLimitReachedError extends DomainError {
  constructor(address: string, parentName: string, limit: number) {
    super(
      'CLAIM_LIMIT_REACHED',
      `${address} has claimed ${limit} name${limit === 1 ? '' : 's'} under ${parentName}, the most its policy allows`,
    );
  }
}

export class NotHolderError extends DomainError {
  constructor(detail: string) {
    super('UNAUTHORIZED', detail);
  }
}

export class SubnameReservedError extends DomainError {
  constructor(label: string, parentName: string) {
    super('SUBNAME_RESERVED', `The label ${label} is reserved by the policy of ${parentName}`);
  }
}
