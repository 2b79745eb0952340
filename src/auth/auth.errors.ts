import { DomainError, FieldError } from '../common/errors';

/** A valid key asked to write outside the parent names it was issued for; `errors` names the items when several. */
export class ForbiddenParentError extends DomainError {
  constructor(name: string, errors?: FieldError[]) {
    super('FORBIDDEN_PARENT', `This API key may not write under ${name}`, errors);
  }
}
