import { DomainError } from '../common/errors';
import type { Network } from '../signing/mint-context';

export class ListingNotFoundError extends DomainError {
  constructor(network: Network, parentName: string) {
    super('LISTING_NOT_FOUND', `${parentName} has no active listing on ${network}`);
  }
}

export class SubnameReservedError extends DomainError {
  constructor(label: string, parentName: string) {
    super('SUBNAME_RESERVED', `The label ${label} is reserved by the listing of ${parentName}`);
  }
}

export class SubnameTakenError extends DomainError {
  constructor(fullName: string) {
    super('SUBNAME_TAKEN', `${fullName} already exists`);
  }
}
