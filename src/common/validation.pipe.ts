import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError, ValidationFailedError } from './errors';

/** class-validator's built-in messages start with the property name; the field path already says it. */
function stripSubject(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** Flattens class-validator's tree into one entry per bad field, named by its path (`texts[1].key`). */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const isIndex = /^\d+$/.test(error.property);
    const path =
      parent === '' ? error.property : isIndex ? `${parent}[${error.property}]` : `${parent}.${error.property}`;
    if (error.constraints && error.value === undefined) {
      out.push({ field: path, message: 'is required' });
    } else if (error.constraints) {
      const messages = Object.entries(error.constraints)
        .filter(([name]) => name !== 'whitelistValidation')
        .map(([name, message]) =>
          name === 'nestedValidation' ? 'must be an object' : stripSubject(message, error.property),
        );
      out.push({
        field: path,
        message: messages.length > 0 ? messages.join('; ') : 'is not an accepted field',
      });
    }
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, path));
  }
  return out;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The first place in a request value that no field may hold: a string with NUL or an unpaired surrogate
 * (PostgreSQL cannot store either), or a key that reaches an object's prototype.
 */
export function unsafeValueProblem(value: unknown, path: string): FieldError | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000') || !value.isWellFormed()) {
      return { field: path, message: 'must not contain NUL characters or unpaired UTF-16 surrogates' };
    }
    return null;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = unsafeValueProblem(item, `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      const child = path === '' ? key : `${path}.${key}`;
      if (FORBIDDEN_KEYS.has(key)) return { field: child, message: 'is not an accepted field' };
      const keyProblem = unsafeValueProblem(key, child);
      if (keyProblem) return keyProblem;
      const problem = unsafeValueProblem((value as Record<string, unknown>)[key], child);
      if (problem) return problem;
    }
  }
  return null;
}

/** The global pipe: whitelist, refuse unknown fields, transform, and never coerce types implicitly. */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'custom') return value;
    if (metadata.type === 'body' && metadata.metatype && !this.isPlainObject(value)) {
      throw new ValidationFailedError([{ field: 'body', message: 'must be a JSON object' }]);
    }
    const unsafe = unsafeValueProblem(
      value,
      metadata.type === 'param' || metadata.type === 'query' ? (metadata.data ?? '') : '',
    );
    if (unsafe) throw new ValidationFailedError([unsafe]);
    return super.transform(value, metadata);
  }

  private isPlainObject(value: unknown): boolean {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}
