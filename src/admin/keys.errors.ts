import { DomainError } from '../common/errors';

/** A revoked key stays revoked: it cannot be given a new secret (issue a new key instead). */
export class KeyRevokedError extends DomainError {
  constructor(id: string) {
    super('CONFLICT', `API key ${id} is revoked and cannot be rotated; issue a new key`);
  }
}
