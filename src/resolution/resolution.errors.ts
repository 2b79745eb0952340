import { DomainError } from '../common/errors';

/** The inner call decodes but asks for a function the gateway does not answer. */
export class UnsupportedResolverCallError extends DomainError {
  constructor(field: string, message: string) {
    super('UNSUPPORTED_RESOLVER_CALL', `${field}: ${message}`, [{ field, message }]);
  }
}

/** A part of the calldata that is wrong; `field` is its path (`data.name`, `data.calls[1].node`). */
export class CalldataError extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** True when the call decodes but names a function the gateway does not answer. */
    readonly unsupported = false,
  ) {
    super(message);
  }
}
