import { UsageError } from '../common/command-line';
import { ValidationFailedError } from '../common/errors';
import { AppValidationPipe } from '../common/validation/validation.pipe';

/**
 * The value an HTTP route's own validation (the global pipe) hands over, so a command accepts and refuses exactly
 * what the route does; a refused value is a usage error naming each bad argument by its option (`flags`).
 */
export async function validated<T extends object>(
  cls: new () => T,
  plain: object,
  type: 'body' | 'query' | 'param',
  flags: Readonly<Record<string, string>>,
): Promise<T> {
  try {
    return (await new AppValidationPipe().transform(plain, { type, metatype: cls })) as T;
  } catch (e) {
    if (!(e instanceof ValidationFailedError)) throw e;
    throw new UsageError((e.errors ?? []).map((f) => `${flags[f.field] ?? f.field}: ${f.message}`).join('\n'));
  }
}
