import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError, ValidationFailedError } from './errors';
import { assertSafeInput } from './input-safety';

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
    // Bodies, queries and headers were checked on arrival (inputSafetyMiddleware); path parameters are decoded
    // only once routed, so here.
    if (metadata.type === 'param') assertSafeInput(value, metadata.data ?? '');
    return super.transform(value, metadata);
  }

  private isPlainObject(value: unknown): boolean {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}
