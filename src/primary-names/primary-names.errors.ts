import { DomainError } from '../common/errors';

/** The name chosen does not resolve back to the address (its coin-60 address is another, or none). */
export class ForwardMismatchError extends DomainError {
  constructor(name: string, address: string, actual: string | null) {
    super(
      'FORWARD_MISMATCH',
      `${name} resolves to ${actual ?? 'no address'} for coin 60, not to ${address}: set its address first`,
    );
  }
}

/** issuedAt is outside the window, or not later than the signature last accepted for the address. */
export class StaleSignatureError extends DomainError {
  constructor(detail: string) {
    super('STALE_SIGNATURE', detail);
  }
}

/** No primary name was chosen for the address (or the choice was cleared). */
export class PrimaryNameNotFoundError extends DomainError {
  constructor(address: string) {
    super('NOT_FOUND', `${address} has no primary name chosen here`);
  }
}

export class NotHolderSignatureError extends DomainError {
  constructor(address: string) {
    super('UNAUTHORIZED', `The signature is not ${address}'s signature of this PrimaryName message`);
  }
}
