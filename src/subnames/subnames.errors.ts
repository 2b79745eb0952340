import { DomainError } from '../common/errors';

export class SubnameNotFoundError extends DomainError {
  constructor(fullName: string) {
    super('SUBNAME_NOT_FOUND', `No subname ${fullName}`);
  }
}
