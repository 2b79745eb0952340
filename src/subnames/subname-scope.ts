import type { AuthenticatedKey } from '../auth/api-key';
import { ForbiddenParentError } from '../auth/auth.errors';
import { keyCovers } from '../auth/api-keys.service';
import type { FieldError } from '../common/errors';

/** 403 naming every (normalised) parent name that the key does not cover, by the field it came from. */
export function refuseOutsideScope(
  key: AuthenticatedKey,
  parents: { field: string; name: string }[],
  verb: 'read' | 'write' = 'write',
): void {
  const outside = parents.filter((p) => !keyCovers(key, p.name));
  if (outside.length === 0) return;
  const errors: FieldError[] = outside.map((p) => ({
    field: p.field,
    message: `${p.name} lies outside this API key's scope`,
  }));
  throw new ForbiddenParentError([...new Set(outside.map((p) => p.name))].join(', '), errors, verb);
}
