import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { LRUCache } from 'lru-cache';
import { FieldError, MAX_FIELD_ERRORS, ValidationFailedError } from '../errors';
import { rawShapeProblems } from './raw-shape';
import { assertSafeInput } from './input-safety';
import { detachFreeKeyMaps, freeKeyMapFields } from './free-key-map';
import {
  applySlicedTransform,
  ElementStandIn,
  isObjectElement,
  mapInSlices,
  mergeElementErrors,
  SlicedArrayField,
  slicedArrayField,
} from './sliced-array';

/** class-validator's built-in messages start with the property name; the field path already says it. */
function stripSubject(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** Constraints on a value's type: when one fails, the value's range or shape rules say nothing useful. */
const TYPE_CONSTRAINTS = ['isArray', 'isInt', 'isNumber', 'isString', 'isBoolean', 'isObject'];

/** The failed type constraint of a node, if any (its message is then the node's only one). */
function failedType(error: ValidationError): string | undefined {
  return error.constraints && TYPE_CONSTRAINTS.find((name) => name in error.constraints!);
}

/** One bad field of class-validator's tree, or null for a node that only holds bad children. */
function fieldError(error: ValidationError, path: string): FieldError | null {
  if (!error.constraints) return null;
  if (error.value === undefined) {
    // A rule of its own on a missing field ("is required (or parentNames)") says more than the plain words.
    const own = Object.values(error.constraints).find((m) => m.startsWith('is required'));
    return { field: path, message: own ?? 'is required' };
  }
  const type = failedType(error);
  if (type) return { field: path, message: stripSubject(error.constraints[type], error.property) };
  const messages = Object.entries(error.constraints)
    .filter(([name]) => name !== 'whitelistValidation')
    .map(([name, message]) =>
      name === 'nestedValidation' ? 'must be an object' : stripSubject(message, error.property),
    );
  return { field: path, message: messages.length > 0 ? messages.join('; ') : 'is not an accepted field' };
}

/**
 * Flattens class-validator's tree into one entry per bad field, named by its path (`texts[1].key`), in
 * document order: the first `limit` of them, and how many there were in all. Iterative, so no tree is too big.
 */
export function flattenValidationErrors(
  errors: ValidationError[],
  limit = MAX_FIELD_ERRORS,
): { errors: FieldError[]; total: number } {
  const out: FieldError[] = [];
  let total = 0;
  const stack: { error: ValidationError; parent: string }[] = [];
  for (let i = errors.length - 1; i >= 0; i--) stack.push({ error: errors[i], parent: '' });
  while (stack.length > 0) {
    const { error, parent } = stack.pop()!;
    const isIndex = /^\d+$/.test(error.property);
    const path =
      parent === '' ? error.property : isIndex ? `${parent}[${error.property}]` : `${parent}.${error.property}`;
    const entry = fieldError(error, path);
    if (entry) {
      total++;
      if (out.length < limit) out.push(entry);
    }
    // A value of the wrong type has no fields or elements worth naming: one error says the type wanted.
    const children = failedType(error) ? [] : (error.children ?? []);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ error: children[i], parent: path });
  }
  return { errors: out, total };
}

/** Path parameters a route DTO remembers (per DTO class, the most recent kept); longer ones are not kept. */
const PARAMS_KEPT = 10_000;
const PARAMS_MAX_KEY_CHARS = 4_096;

/**
 * The global pipe: whitelist, refuse unknown fields, transform, and never coerce types implicitly. Path parameters
 * (a few strings, read again and again: the same names, the same resolver calls) are validated once per distinct
 * value and DTO class: validation is a pure function of them, so a repeat gets a copy of the DTO the first one
 * made (validation.pipe.spec.ts proves it equal, and that refusals are never remembered). Bodies and queries are
 * validated every time.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  private readonly validParams = new Map<unknown, LRUCache<string, object>>();

  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => {
        const flat = flattenValidationErrors(errors);
        return new ValidationFailedError(flat.errors, flat.total);
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'custom') return value;
    // No body at all is an empty object: its fields are then named as missing, and a DTO of optional fields passes.
    if (metadata.type === 'body' && value === undefined) value = {};
    if (metadata.type === 'body' && metadata.metatype && !this.isPlainObject(value)) {
      throw new ValidationFailedError([{ field: 'body', message: 'must be a JSON object' }]);
    }
    // Bodies, queries and headers were checked on arrival (inputSafetyMiddleware); path parameters are decoded
    // only once routed, so here.
    if (metadata.type === 'param') return this.transformParams(value, metadata);
    // An array past its bound is refused before any of its elements is transformed or validated.
    if (metadata.metatype && this.toValidate(metadata)) {
      const problems = rawShapeProblems(value, metadata.metatype);
      if (problems.length > 0) throw new ValidationFailedError(problems);
      const maps = freeKeyMapFields(metadata.metatype);
      if (maps.length > 0 && this.isPlainObject(value)) {
        return this.transformWithMaps(value as Record<string, unknown>, metadata, maps);
      }
      const sliced = slicedArrayField(metadata.metatype);
      const elements = sliced && this.isPlainObject(value) && (value as Record<string, unknown>)[sliced.property];
      if (sliced && Array.isArray(elements) && elements.length > 0 && elements.every(isObjectElement)) {
        return this.transformInSlices(value as Record<string, unknown>, metadata, sliced, elements);
      }
    }
    return super.transform(value, metadata);
  }

  /** A DTO with free-key maps (see FreeKeyMap): the rest as usual, the maps beside it, every problem in one 400. */
  private async transformWithMaps(
    value: Record<string, unknown>,
    metadata: ArgumentMetadata,
    fields: ReturnType<typeof freeKeyMapFields>,
  ): Promise<unknown> {
    const { rest, maps, problems } = detachFreeKeyMaps(value, fields);
    let dto: Record<string, unknown>;
    try {
      dto = (await super.transform(rest, metadata)) as Record<string, unknown>;
    } catch (e) {
      if (!(e instanceof ValidationFailedError) || problems.length === 0) throw e;
      const errors = [...(e.errors ?? []), ...problems];
      throw new ValidationFailedError(errors, errors.length + e.moreErrors);
    }
    if (problems.length > 0) throw new ValidationFailedError(problems);
    for (const [property, map] of maps) dto[property] = map;
    return dto;
  }

  /**
   * A DTO with a long array of objects (see ValidatedInSlices): its elements built, then validated, a slice at a
   * time, the rest of the DTO as usual with stand-ins for them; the errors merged as one validation would give them.
   */
  private async transformInSlices(
    value: Record<string, unknown>,
    metadata: ArgumentMetadata,
    field: SlicedArrayField,
    raw: object[],
  ): Promise<unknown> {
    const { property, element } = field;
    const dto = metadata.metatype as new () => object;
    const built = await mapInSlices(raw, raw, (slice) => {
      this.stripProtoKeys(slice);
      return plainToInstance(element, slice, this.transformOptions) as object[];
    });
    const rest = { ...value };
    delete rest[property];
    this.stripProtoKeys(rest);
    const shell = plainToInstance(dto, rest, this.transformOptions) as Record<string, unknown>;
    const array = applySlicedTransform(field, built, value, this.transformOptions ?? {}) as object[];
    const options = {
      ...this.validatorOptions,
      validationError: { target: false, ...this.validatorOptions.validationError },
    };
    shell[property] = array.map(() => new ElementStandIn());
    const errors = await this.validate(shell, options);
    shell[property] = array;
    const elementErrors = await mapInSlices(array, raw, (slice) =>
      Promise.all(slice.map((item) => this.validate(item, options))),
    );
    const merged = mergeElementErrors(dto, property, array, errors, elementErrors);
    if (merged.length > 0) throw await this.exceptionFactory(merged);
    return shell;
  }

  private async transformParams(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    if (!metatype || metadata.data !== undefined || !this.isPlainObject(value)) {
      assertSafeInput(value, metadata.data ?? '');
      return super.transform(value, metadata);
    }
    let memo = this.validParams.get(metatype);
    if (!memo) {
      memo = new LRUCache<string, object>({
        max: PARAMS_KEPT,
        maxEntrySize: PARAMS_MAX_KEY_CHARS,
        sizeCalculation: (_dto, key) => key.length,
      });
      this.validParams.set(metatype, memo);
    }
    const key = JSON.stringify(value);
    const known = memo.get(key);
    if (known) return Object.assign(new (metatype as new () => object)(), known);
    assertSafeInput(value, '');
    const dto = (await super.transform(value, metadata)) as object;
    memo.set(key, { ...dto });
    return dto;
  }

  private isPlainObject(value: unknown): boolean {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}
