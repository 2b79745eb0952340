import { FieldError, ValidationFailedError } from '../errors';

/** One DTO property whose value is a map with free keys (see FREE_KEY_FIELDS in input-safety.ts). */
export interface FreeKeyMapField {
  property: string;
  /** From the raw input to the map (a query's `metadata[k]=v` and `metadata={…}` forms); may throw a 400. */
  convert?: (raw: unknown) => unknown;
  /** What is wrong with the converted map, or null. */
  problem: (map: unknown) => string | null;
}

type Constructor = abstract new (...args: never[]) => unknown;

const fieldsByClass = new WeakMap<object, FreeKeyMapField[]>();

/**
 * Marks a property as a map whose keys are data: the validation pipe takes it out of the input before
 * class-transformer and Nest's prototype-key stripping see it (they would drop `constructor` or `toString` keys,
 * silently widening a filter), checks it with `problem`, and puts a plain copy of it on the DTO.
 */
export function FreeKeyMap(field: Omit<FreeKeyMapField, 'property'>): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    const fields = fieldsByClass.get(target.constructor) ?? [];
    fields.push({ ...field, property: property as string });
    fieldsByClass.set(target.constructor, fields);
  };
}

/** The free-key maps a DTO class declares, its ancestors' included. */
export function freeKeyMapFields(dto: Constructor): FreeKeyMapField[] {
  const fields: FreeKeyMapField[] = [];
  for (let c: unknown = dto; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    fields.push(...(fieldsByClass.get(c) ?? []));
  }
  return fields;
}

/** A map as given, its own entries copied into a plain object (`__proto__` stays a key: fromEntries defines it). */
function plainCopy(map: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map as Record<string, unknown>));
}

export interface DetachedMaps {
  /** The input without its free-key maps, for the usual transform and validation. */
  rest: Record<string, unknown>;
  /** Checked maps, to be put on the DTO. */
  maps: [string, Record<string, unknown>][];
  /** Their problems, by field. */
  problems: FieldError[];
}

/** Takes the free-key maps out of an input object and checks them (see FreeKeyMap). */
export function detachFreeKeyMaps(input: Record<string, unknown>, fields: FreeKeyMapField[]): DetachedMaps {
  // A spread defines own data properties: a `__proto__` key stays a key.
  const rest: Record<string, unknown> = { ...input };
  const detached: DetachedMaps = { rest, maps: [], problems: [] };
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(rest, field.property)) continue;
    const raw = rest[field.property];
    delete rest[field.property];
    let map: unknown;
    try {
      map = field.convert ? field.convert(raw) : raw;
    } catch (e) {
      if (!(e instanceof ValidationFailedError)) throw e;
      detached.problems.push(...(e.errors ?? []));
      continue;
    }
    const problem = field.problem(map);
    if (problem) detached.problems.push({ field: field.property, message: problem });
    else if (map !== undefined) detached.maps.push([field.property, plainCopy(map)]);
  }
  return detached;
}
