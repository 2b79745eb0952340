import { FieldError, ValidationFailedError } from '../errors';

/** Deepest nesting a request value may have; the deepest DTO (a batch item's records) needs 5. */
export const MAX_INPUT_DEPTH = 32;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Kind 1: text that PostgreSQL cannot store (NUL) or that is not Unicode (an unpaired UTF-16 surrogate). */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000') || !text.isWellFormed()) {
    return 'must not contain NUL characters or unpaired UTF-16 surrogates';
  }
  return null;
}

/** Kind 2: nesting deeper than any field of the API, which recursive code downstream could not survive. */
export function depthProblem(depth: number): string | null {
  return depth > MAX_INPUT_DEPTH ? `is nested deeper than ${MAX_INPUT_DEPTH} levels` : null;
}

/** Kind 3: an object key that would reach a prototype once merged into an object. */
export function keyProblem(key: string): string | null {
  return FORBIDDEN_KEYS.has(key) ? 'is not an accepted field' : null;
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

function isSafeText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/**
 * Whether the full walk (`firstInputProblem`) finds nothing, decided without building a path or an entry list: every request passes
 * here, and the paths are needed only to name a problem (input-safety.spec.ts proves the two agree over
 * generated values). Iterative, like `inputProblem`: values and their depths on two parallel stacks.
 */
export function isSafeInput(value: unknown): boolean {
  if (typeof value === 'string') return isSafeText(value);
  if (typeof value !== 'object' || value === null) return true;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const item = values.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_INPUT_DEPTH) return false;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const child: unknown = item[i];
        if (typeof child === 'string') {
          if (!isSafeText(child)) return false;
        } else if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const keys = Object.keys(item);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (FORBIDDEN_KEYS.has(key) || !isSafeText(key)) return false;
      const child: unknown = (item as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (!isSafeText(child)) return false;
      } else if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}

/**
 * The first unsafe place in a parsed request value, named by its path (`texts[2].value`): every string and
 * object key is checked for text problems, keys for prototype names, and the nesting for depth. The walk is
 * iterative (an explicit stack), so no input can overflow the call stack. Safe values (nearly all) are passed by
 * `isSafeInput` without building a path.
 */
export function inputProblem(value: unknown, path = ''): FieldError | null {
  return isSafeInput(value) ? null : firstInputProblem(value, path);
}

/** The full walk behind `inputProblem`, paths and all: exported as the reference `isSafeInput` is proved by. */
export function firstInputProblem(value: unknown, path = ''): FieldError | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const problem = textProblem(item.value);
      if (problem) return { field: item.path || 'value', message: problem };
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    const tooDeep = depthProblem(depth);
    if (tooDeep) return { field: item.path || 'body', message: tooDeep };
    const entries: [string | number, unknown][] = Array.isArray(item.value)
      ? item.value.map((v, i): [number, unknown] => [i, v])
      : Object.entries(item.value);
    // Pushed in reverse, so the first field in document order is reported first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const at = childPath(item.path, key);
      if (typeof key === 'string') {
        const problem = keyProblem(key) ?? textProblem(key);
        if (problem) return { field: at, message: problem };
      }
      stack.push({ value: child, path: at, depth });
    }
  }
  return null;
}

/** Throws a 400 naming the first unsafe place of a parsed value; see `inputProblem`. */
export function assertSafeInput(value: unknown, path = ''): void {
  const problem = inputProblem(value, path);
  if (problem) throw new ValidationFailedError([problem]);
}

/**
 * Top-level request fields whose object keys are data, not fields: the search's metadata filter names metadata
 * keys, and `constructor` is as good a metadata key as `tier`. Their keys are held to the text rules only;
 * no DTO is built from such a map (see free-key-map.ts), and on any other route Nest's pipe strips these keys.
 */
export const FREE_KEY_FIELDS: ReadonlySet<string> = new Set(['metadata']);

const FREE_KEY_FIELD_NAMES = [...FREE_KEY_FIELDS];
const hasOwn = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `inputProblem` for an object whose own keys are free names (see FREE_KEY_FIELDS); its values are walked as usual. */
export function freeKeyMapProblem(map: unknown, path: string): FieldError | null {
  if (!isRecord(map)) return inputProblem(map, path);
  for (const key of Object.keys(map)) {
    const at = childPath(path, key);
    const problem = textProblem(key);
    if (problem) return { field: at, message: problem };
    const inner = inputProblem(map[key], at);
    if (inner) return inner;
  }
  return null;
}

/** `inputProblem` for a whole body or query: the FREE_KEY_FIELDS among its fields have free keys. */
export function requestValueProblem(value: unknown, path = ''): FieldError | null {
  if (!isRecord(value) || !FREE_KEY_FIELD_NAMES.some((key) => hasOwn(value, key) && isRecord(value[key]))) {
    return inputProblem(value, path);
  }
  // A spread defines own data properties: a `__proto__` key stays a key.
  const rest: Record<string, unknown> = { ...value };
  const maps = FREE_KEY_FIELD_NAMES.filter((key) => hasOwn(value, key) && isRecord(value[key]));
  for (const key of maps) delete rest[key];
  const problem = inputProblem(rest, path);
  if (problem) return problem;
  for (const key of maps) {
    const inMap = freeKeyMapProblem(value[key], childPath(path, key));
    if (inMap) return inMap;
  }
  return null;
}

/**
 * A JSON value carried inside a query parameter (`metadata={"tier":"gold"}`): parsed, then held to the same
 * rules as a body. Undefined when the text is not JSON, so the field's validator can name what it expected.
 */
export function parseJsonParameter(text: string, field: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const problem = FREE_KEY_FIELDS.has(field) ? freeKeyMapProblem(parsed, field) : inputProblem(parsed, field);
  if (problem) throw new ValidationFailedError([problem]);
  return parsed;
}

/**
 * Holds every value a request brings before routing to the rules above: the query (keys and values), the
 * headers, and the JSON body if one was read already (bodies are read later, by module middleware that holds them
 * to the same rules: body-readers.ts, deferred-body.ts). Path parameters, known only after routing, and JSON
 * inside a query parameter go through `assertSafeInput` where they are decoded.
 */
export function inputSafetyMiddleware(
  req: { body?: unknown; query: unknown; headers: unknown },
  _res: unknown,
  next: (err?: unknown) => void,
): void {
  const problem =
    (req.body !== undefined ? requestValueProblem(req.body) : null) ??
    requestValueProblem(req.query) ??
    inputProblem(req.headers, 'headers');
  next(problem ? new ValidationFailedError([problem]) : undefined);
}
