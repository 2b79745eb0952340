import { DomainError } from '../common/errors';

/** The inner call decodes but asks for a function the gateway does not answer (docs/reference.md#resolution-gateway). */
export class UnsupportedResolverCallError extends DomainError {
  constructor(field: string, message: string) {
    super('UNSUPPORTED_RESOLVER_CALL', `${field}: ${message}`, [{ field, message }]);
  }
}
