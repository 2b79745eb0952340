import { DomainError, FieldError } from '../common/errors';

/** A valid key asked to write (or export: read) outside the parent names it was issued for; `errors` names the items when several. */
export class ForbiddenParentError extends DomainError {
  constructor(name: string, errors?: FieldError[], verb: 'read' | 'write' = 'write') {
    super('FORBIDDEN_PARENT', `This API key may not ${verb} under ${name}`, errors);
  }
}

/** A wallet holds as many live portal keys as it may, for one parent or in all. */
export class KeyLimitError extends DomainError {
  constructor(code: 'KEY_LIMIT_PER_PARENT' | 'KEY_LIMIT_PER_WALLET', detail: string) {
    super(code, detail);
  }
}
