import { Transform } from 'class-transformer';
import { parse } from 'node:querystring';
import { parseJsonParameter } from '../validation/input-safety';

/**
 * Query values arrive as strings and implicit conversion is off: these turn exactly what they accept into
 * its type and leave anything else as it is, for the validators to refuse with the field's name.
 */
export const toInteger = (value: unknown): unknown =>
  typeof value === 'string' && /^-?[0-9]{1,15}$/.test(value) ? Number(value) : value;

export const toBoolean = (value: unknown): unknown => (value === 'true' ? true : value === 'false' ? false : value);

/** `a,b`, repeated `x=a&x=b`, bracketed `x[]=a`, or all of them: one list of strings. */
export const toList = (value: unknown): unknown => {
  if (typeof value === 'string') return value.split(',');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return (value as string[]).flatMap((v) => v.split(','));
  }
  return value;
};

/**
 * An object given as JSON (`x={"k":"v"}`) or as bracketed keys (`x[k]=v`), or both (merged, keys from
 * brackets winning); anything else is left for the validator.
 */
export const toObject =
  (field: string) =>
  (value: unknown): unknown => {
    const parts = Array.isArray(value) ? value : [value];
    const merged = Object.create(null) as Record<string, unknown>;
    for (const part of parts) {
      // JSON inside a parameter is checked like any other input once parsed (NUL, surrogates, depth, prototype keys).
      const object = typeof part === 'string' ? parseJsonParameter(part, field) : part;
      if (typeof object !== 'object' || object === null || Array.isArray(object)) return value;
      Object.assign(merged, object);
    }
    return merged;
  };

export const QueryInteger = () => Transform(({ value }: { value: unknown }) => toInteger(value));
export const QueryBoolean = () => Transform(({ value }: { value: unknown }) => toBoolean(value));

type QueryValue = string | string[] | Record<string, string | string[]> | (string | Record<string, unknown>)[];

/**
 * Express's query parser: node's querystring (Express 5's "simple" parser), plus one level of brackets, so
 * that `x[]=a` is a list and `x[k]=v` an object, without the extended parser's depth and array rules.
 * A name given both plainly and bracketed keeps every form, in a list, for the DTO to combine or refuse.
 * Objects have no prototype, so no key (`__proto__` included) reaches one; the pipe refuses such keys.
 */
export function parseQuery(text: string): Record<string, QueryValue> {
  const flat = parse(text);
  const plain = new Map<string, string[]>();
  const listed = new Set<string>();
  const objects = new Map<string, Record<string, string | string[]>>();
  for (const key of Object.keys(flat)) {
    const value = flat[key] as string | string[];
    const values = Array.isArray(value) ? value : [value];
    const bracket = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    if (bracket && bracket[2] === '') {
      plain.set(bracket[1], [...(plain.get(bracket[1]) ?? []), ...values]);
      listed.add(bracket[1]);
    } else if (bracket) {
      const object = objects.get(bracket[1]) ?? (Object.create(null) as Record<string, string | string[]>);
      object[bracket[2]] = value;
      objects.set(bracket[1], object);
    } else {
      plain.set(key, [...(plain.get(key) ?? []), ...values]);
    }
  }
  const out = Object.create(null) as Record<string, QueryValue>;
  for (const [name, values] of plain) {
    out[name] = values.length === 1 && !listed.has(name) && !objects.has(name) ? values[0] : values;
  }
  for (const [name, object] of objects) {
    const given = plain.get(name);
    out[name] = given ? [...given, object] : object;
  }
  return out;
}
