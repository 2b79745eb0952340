import { DomainError } from '../common/errors';

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
