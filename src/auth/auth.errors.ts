import { DomainError, FieldError } from '../common/errors';

/** A valid key asked to write (or export: read) outside the parent names it was issued for; `errors` names the items when several. */
export class ForbiddenParentError extends DomainError {
  constructor(name: string, errors?: FieldError[], verb: 'read' | 'write' = 'write') {
    super('FORBIDDEN_PARENT', `This API key may not ${verb} under ${name}`, errors);
  }
}
