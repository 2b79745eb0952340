import { DomainError } from '../common/errors';

export class SubnameNotFoundError extends DomainError {
  constructor(fullName: string) {
    super('SUBNAME_NOT_FOUND', `No subname ${fullName}`);
  }
}

/** The key already runs as many exports as it may at once. */
export class ExportsBusyError extends DomainError {
  constructor(perKey: number) {
    super(
      'RATE_LIMITED',
      `This API key already runs ${perKey} exports at once, the most it may; retry when one has finished`,
      undefined,
      { 'Retry-After': '5' },
    );
  }
}

/** A creation that must not update: the name is stored already. */
export class SubnameTakenError extends DomainError {
  constructor(fullName: string) {
    super('SUBNAME_TAKEN', `${fullName} already exists`);
  }
}
