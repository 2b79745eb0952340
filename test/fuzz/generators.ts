import fc from 'fast-check';
import { dnsEncode, Interface, namehash } from 'ethers';
import { OpenApi, Operation, Schema } from './openapi';
import { validationHeavyBatch } from './validation-heavy';

/**
 * Requests derived from the OpenAPI document: first schema-valid ones (examples, near-examples and random
 * values within the declared bounds), then the same with one to three mutations (wrong types, NUL and lone
 * surrogates, odd numbers, deep nesting, unknown and prototype keys, repeated and bracketed query parameters,
 * bad percent-encoding, raw bodies, bad credentials). Nothing here knows a route: only the schemas and the
 * small table of setup values below (and the subname item shape of a validation-heavy batch, issue 35.2).
 */

/** Stands for a value that setup makes (an API key, its id); filled in when the request is sent. */
export interface ContextRef {
  $fuzz: 'ctx';
  name: string;
}
/** `depth` levels of nesting, written out as text only when the request is sent (nothing recursive). */
export interface Deep {
  $fuzz: 'deep';
  depth: number;
  array: boolean;
}
/** Text that goes into the URL exactly as it is (bad percent-encoding and the like). */
export interface Raw {
  $fuzz: 'raw';
  text: string;
}

export const ctx = (name: string): ContextRef => ({ $fuzz: 'ctx', name });
const raw = (text: string): Raw => ({ $fuzz: 'raw', text });

/**
 * The setup table: values that exist only once setup has run, offered beside a schema's examples, by the
 * name of the parameter or property. Keep it small; everything else comes from openapi.json.
 */
export const CONTEXT_VALUES: Record<string, string[]> = {
  id: ['keyId', 'portalKeyId'],
  // A primary-name choice signed during setup: offered together, some requests carry all four and succeed.
  address: ['primaryAddress'],
  name: ['primaryName'],
  issuedAt: ['primaryIssuedAt'],
  signature: ['primarySignature'],
};

/** What setup made, by name: texts, and numbers where a body needs a JSON number. */
export type FuzzContext = Record<string, string | number>;

/** The value each security scheme's header gets in a valid request. */
export const SECURITY_VALUES: Record<string, string> = {
  'x-auth-token': 'apiKey',
  'x-admin-token': 'adminToken',
  cookie: 'portalCookie',
};

export type QueryStyle = 'form' | 'formExploded' | 'deepObject' | 'json';

export interface QueryItem {
  name: string | Raw;
  value: unknown;
  style: QueryStyle;
}

export interface RequestModel {
  /** Generated from the schemas alone, no mutation: it must get a documented answer. */
  valid: boolean;
  mutations: string[];
  pathParams: Record<string, unknown>;
  query: QueryItem[];
  headers: Record<string, unknown>;
  body?: { value: unknown } | { raw: string };
  contentType?: string;
  /** Sent over a bare socket with this request target, bytes and all, instead of the path built above. */
  rawTarget?: string;
}

const isTagged = (v: unknown, tag: string): boolean =>
  typeof v === 'object' && v !== null && (v as { $fuzz?: unknown }).$fuzz === tag;

// ---------------------------------------------------------------------------------------------------------
// Valid values

const MAX_RANDOM_STRING = 40;
const MAX_RANDOM_ITEMS = 4;

function numberBounds(s: Schema): { min: number; max: number } {
  const min = s.minimum ?? -1_000_000;
  const max = s.maximum ?? Math.max(min, 0) + 1_000_000_000;
  return { min, max };
}

/** A value of the schema: one of its examples, a near-example (a short prefix added), or a random one. */
export function valueArb(api: OpenApi, schema: Schema, name?: string): fc.Arbitrary<unknown> {
  const s = api.resolve(schema);
  let arb = baseArb(api, s, name);
  if (s.nullable) arb = fc.oneof({ arbitrary: arb, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 });
  return arb;
}

function withExamples(s: Schema, name: string | undefined, random: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const known: unknown[] = [s.example, s.default].filter((v) => v !== undefined);
  const refs = (name && CONTEXT_VALUES[name]) || [];
  const choices: fc.WeightedArbitrary<unknown>[] = [{ arbitrary: random, weight: 2 }];
  if (known.length > 0) choices.push({ arbitrary: fc.constantFrom(...known), weight: 4 });
  if (refs.length > 0) choices.push({ arbitrary: fc.constantFrom(...refs.map(ctx)), weight: 6 });
  const text = known.filter((v): v is string => typeof v === 'string');
  if (text.length > 0) {
    // `alice` → `q7alice`, `oak.eth` → `q7oak.eth`: new names that stay valid, addresses that do not.
    const near = fc
      .tuple(fc.constantFrom(...text), fc.stringMatching(/^[a-z0-9]{1,4}$/))
      .map(([t, prefix]) => `${prefix}${t}`);
    choices.push({ arbitrary: near, weight: 2 });
  }
  return fc.oneof(...choices);
}

function baseArb(api: OpenApi, s: Schema, name?: string): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf)!.map((x) => valueArb(api, x, name)));
  const type = s.type ?? (s.properties || s.additionalProperties ? 'object' : undefined);
  switch (type) {
    case 'string': {
      const minLength = s.minLength ?? 0;
      let random: fc.Arbitrary<unknown>;
      if (s.pattern) random = fc.stringMatching(new RegExp(s.pattern));
      else if (s.format === 'date-time') {
        random = fc
          .date({ min: new Date('2000-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      } else {
        random = fc.string({
          unit: 'grapheme',
          minLength,
          maxLength: Math.max(minLength, Math.min(s.maxLength ?? MAX_RANDOM_STRING, MAX_RANDOM_STRING)),
        });
      }
      return withExamples(s, name, random);
    }
    case 'integer': {
      const { min, max } = numberBounds(s);
      return withExamples(s, name, fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max)));
    }
    case 'number': {
      const { min, max } = numberBounds(s);
      return withExamples(
        s,
        name,
        fc.oneof(
          fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
          fc.constantFrom(min, max),
          fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
        ),
      );
    }
    case 'boolean':
      return withExamples(s, name, fc.boolean());
    case 'array': {
      const items = s.items ? valueArb(api, s.items, name) : fc.string();
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? MAX_RANDOM_ITEMS, MAX_RANDOM_ITEMS));
      return withExamples(s, undefined, fc.array(items, { minLength, maxLength }));
    }
    case 'object': {
      const properties = Object.entries(s.properties ?? {});
      const model = Object.fromEntries(properties.map(([k, p]) => [k, valueArb(api, p, k)]));
      const record = fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in model) });
      let arb: fc.Arbitrary<unknown> = record;
      if (typeof s.additionalProperties === 'object' || s.additionalProperties === true) {
        const valueSchema = typeof s.additionalProperties === 'object' ? s.additionalProperties : {};
        const exampleKeys = typeof s.example === 'object' && s.example !== null ? Object.keys(s.example as object) : [];
        const key = exampleKeys.length
          ? fc.oneof(fc.constantFrom(...exampleKeys), fc.string({ minLength: 1, maxLength: 12 }))
          : fc.string({ minLength: 1, maxLength: 12 });
        const extra = fc.dictionary(key, valueArb(api, valueSchema), { maxKeys: 4, noNullPrototype: true });
        arb = fc.tuple(record, extra).map(([r, e]) => ({ ...e, ...r }));
      }
      return withExamples(s, undefined, arb);
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The value setup sends for a schema: its examples all the way down, the first enum value, or a plain one. */
export function exampleValue(api: OpenApi, schema: Schema, name?: string): unknown {
  const s = api.resolve(schema);
  const refs = name ? CONTEXT_VALUES[name] : undefined;
  if (refs) return ctx(refs[0]);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  if (s.type === 'array') return s.items ? [exampleValue(api, s.items)] : [];
  if (s.type === 'object' || s.properties) {
    return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, p]) => [k, exampleValue(api, p, k)]));
  }
  if (s.type === 'string') return 'example';
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return true;
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Requests

function queryStyle(api: OpenApi, schema: Schema, style?: string, explode?: boolean): fc.Arbitrary<QueryStyle> {
  const s = api.resolve(schema);
  if (s.type === 'object' || s.additionalProperties) return fc.constantFrom('deepObject', 'json');
  if (s.type === 'array') return fc.constant(explode === false && style !== 'deepObject' ? 'form' : 'formExploded');
  return fc.constant('form');
}

/** A schema-valid request of the operation. */
export function validRequestArb(api: OpenApi, op: Operation): fc.Arbitrary<RequestModel> {
  const pathParams = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, valueArb(api, p.schema, p.name)]),
  );
  const query = op.parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const item = fc
        .tuple(valueArb(api, p.schema, p.name), queryStyle(api, p.schema, p.style, p.explode))
        .map(([value, style]): QueryItem => ({ name: p.name, value, style }));
      return p.required ? item.map((i): QueryItem | undefined => i) : fc.option(item, { nil: undefined });
    });
  const body = op.body
    ? op.body.required
      ? valueArb(api, op.body.schema).map((value) => ({ value }))
      : fc.option(
          valueArb(api, op.body.schema).map((value) => ({ value })),
          { nil: undefined },
        )
    : fc.constant(undefined);
  return fc
    .record({ pathParams: fc.record(pathParams), query: fc.tuple(...query), body })
    .map(({ pathParams: pp, query: q, body: b }) => ({
      valid: true,
      mutations: [],
      pathParams: pp,
      query: q.filter((i): i is QueryItem => i !== undefined),
      headers: Object.fromEntries(op.securityHeaders.map((h) => [h, ctx(SECURITY_VALUES[h] ?? h)])),
      ...(b ? { body: b, contentType: op.body!.contentType } : {}),
    }));
}

/** The request setup sends: examples only, valid credentials. */
export function exampleRequest(api: OpenApi, op: Operation): RequestModel {
  const pathParams = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, exampleValue(api, p.schema, p.name)]),
  );
  return {
    valid: true,
    mutations: [],
    pathParams,
    query: op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => ({ name: p.name, value: exampleValue(api, p.schema, p.name), style: 'form' as const })),
    headers: Object.fromEntries(op.securityHeaders.map((h) => [h, ctx(SECURITY_VALUES[h] ?? h)])),
    ...(op.body ? { body: { value: exampleValue(api, op.body.schema) }, contentType: op.body.contentType } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Mutations

const EVIL_STRINGS = [
  'a\u0000b',
  '\u0000',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\udc00\ud800',
  '\ufeff',
  '\u202e',
  '\uffff',
  '%00',
  '%',
  '..',
  '/',
  '\\',
  "'; DROP TABLE subnames; --",
  '${x}',
  '\r\n',
  ' ',
  '',
  'a'.repeat(300),
  '🦊'.repeat(300),
  'A'.repeat(70_000),
];
const EVIL_CHARS = ['\u0000', '\ud800', '\udfff', '\u0001', '\u007f', '\u200d', '\ufe0f', '%', '.', '\n'];
const ODD_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  1e-7,
  -(2 ** 31) - 1,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 32,
  4294967295,
  4294967296,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
];
const ODD_VALUES: unknown[] = [null, true, false, '', '1', 'true', 'null', [], [1], [null], ['a', 'b'], {}, { a: 1 }];
const EVIL_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'k\u0000',
  '\ud800',
  '',
  'a.b',
  'a[0]',
  '$where',
  'unknownField',
];
const BAD_PERCENT = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%00',
  '%2F',
  '..',
  '%2e%2e',
  'a%20b',
  '%FF%FE',
  '%u0041',
  '%%',
  '%25',
];
const RAW_BODIES = [
  '',
  'null',
  '{',
  '{"a":',
  '[]',
  '"text"',
  '1',
  'true',
  '{"a":1}garbage',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '[{"a":1}]',
  '{"a":1,"a":2}',
  'a=1&b=2',
  '\u0000',
  '{"x":1e999}',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/merge-patch+json',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
];
const BAD_CREDENTIALS = ['', 'x', 'sns_0000000000000000000000000000000000000000000', 'a'.repeat(250), '\u00ff\u00fe'];
const RAW_TARGET_BYTES = [' ', '\u0000', '\u007f', '\u00ff', '\t', '"', '<', '\\', '#', '?%', 'é'];

/** A place in a request value that a mutation may change. */
interface Slot {
  holder: Record<string | number, unknown>;
  key: string | number;
}

function slotsOf(model: RequestModel): Slot[] {
  const slots: Slot[] = [];
  const walk = (holder: Record<string | number, unknown>, key: string | number) => {
    const stack: Slot[] = [{ holder, key }];
    while (stack.length > 0) {
      const slot = stack.pop()!;
      slots.push(slot);
      const v = slot.holder[slot.key];
      if (typeof v === 'object' && v !== null && !(v as { $fuzz?: unknown }).$fuzz) {
        for (const k of Object.keys(v)) stack.push({ holder: v as Record<string, unknown>, key: k });
      }
    }
  };
  for (const name of Object.keys(model.pathParams)) walk(model.pathParams, name);
  for (const item of model.query) walk(item as unknown as Record<string, unknown>, 'value');
  if (model.body && 'value' in model.body) walk(model.body as Record<string, unknown>, 'value');
  return slots;
}

/** Sets a property as data, so that `__proto__` becomes a key rather than a prototype. */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of a constant, so that no two requests (or two places of one) share an object. */
const fresh = <T>(v: T): T => (typeof v === 'object' && v !== null ? (JSON.parse(JSON.stringify(v)) as T) : v);

export type Mutation = { label: string; apply: (m: RequestModel, op: Operation) => void };

const pick = <T>(items: T[], n: number): T | undefined => (items.length ? items[n % items.length] : undefined);

// --- Abuse shapes: huge arrays, long labels, prototype-named keys, normalisation that changes a name's length ---

/** Array lengths past every bound of the API (50 records, 100 page size, 1000 batch items), up to far past. */
const HUGE_LENGTHS = [51, 101, 1001, 20_000];
/** Object.prototype's member names, as record keys and object keys: each must behave like any other name. */
const PROTOTYPE_NAMES = ['toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'constructor', '__proto__'];
/** Characters ENSIP-15 drops (soft hyphen, zero-width space) or expands (㍱ → hpa, ﬁ → fi, ㎏ → kg). */
const LENGTH_CHANGING = ['\u00ad', '\u200b', '\u3371', '\ufb01', '\u338f'];
/** Label lengths legal in ENS but past DNS's 63 bytes (issue 35.3), and one past ENS's 255. */
const LONG_LABELS = [64, 100, 255, 256];
/** The slots that hold a label or a name whose first label it replaces. */
const NAME_SLOTS = new Set(['label', 'name', 'fullName', 'parentName']);

function abuseMutations(at: fc.Arbitrary<number>): { arbitrary: fc.Arbitrary<Mutation>; weight: number }[] {
  const hugeArray = fc
    .tuple(at, fc.constantFrom(...HUGE_LENGTHS), fc.constantFrom<unknown>({}, 'x', 1))
    .map(([n, length, item]): Mutation => ({
      label: `huge array of ${length} ${JSON.stringify(item)}`,
      apply: (m) => {
        const slots = slotsOf(m).filter((s) => Array.isArray(s.holder[s.key]));
        const slot = pick(slots, n) ?? pick(slotsOf(m), n);
        if (slot) slot.holder[slot.key] = Array.from({ length }, () => fresh(item));
      },
    }));
  const prototypeRecordKey = fc.tuple(at, fc.constantFrom(...PROTOTYPE_NAMES)).map(([n, name]): Mutation => ({
    label: `record key ${JSON.stringify(name)}`,
    apply: (m) => {
      const records = slotsOf(m)
        .map((s) => s.holder[s.key])
        .filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null && 'key' in o);
      const record = pick(records, n);
      if (record) record.key = name;
      else if (m.body && 'value' in m.body && typeof m.body.value === 'object' && m.body.value !== null) {
        // A computed key defines its own property, `__proto__` included.
        define(m.body.value, 'metadata', { [name]: 'x' });
      }
    },
  }));
  const lengthChanging = fc
    .tuple(at, fc.nat(), fc.constantFrom(...LENGTH_CHANGING), fc.constantFrom(1, 3, 300))
    .map(([n, i, ch, times]): Mutation => ({
      label: `${times} × ${JSON.stringify(ch)} in a string`,
      apply: (m) => {
        const slot = pick(
          slotsOf(m).filter((s) => typeof s.holder[s.key] === 'string'),
          n,
        );
        if (!slot) return;
        const text = slot.holder[slot.key] as string;
        const p = i % (text.length + 1);
        slot.holder[slot.key] = text.slice(0, p) + ch.repeat(times) + text.slice(p);
      },
    }));
  const longLabel = fc.tuple(at, fc.constantFrom(...LONG_LABELS)).map(([n, length]): Mutation => ({
    label: `a label of ${length} letters`,
    apply: (m) => {
      const slot = pick(
        slotsOf(m).filter((s) => NAME_SLOTS.has(String(s.key)) && typeof s.holder[s.key] === 'string'),
        n,
      );
      if (!slot) return;
      const text = slot.holder[slot.key] as string;
      const rest = text.includes('.') ? text.slice(text.indexOf('.')) : '';
      slot.holder[slot.key] = 'l'.repeat(length) + rest;
    },
  }));
  return [
    { arbitrary: hugeArray, weight: 2 },
    { arbitrary: longLabel, weight: 2 },
    { arbitrary: prototypeRecordKey, weight: 2 },
    { arbitrary: lengthChanging, weight: 3 },
    { arbitrary: validationHeavyBatch, weight: 1 },
  ];
}

// --- End of the abuse shapes ---------------------------------------------------------------------------------

function mutationArb(): fc.Arbitrary<Mutation> {
  const at = fc.nat();
  const onSlot = (label: string, value: fc.Arbitrary<unknown>, only?: (v: unknown) => boolean) =>
    fc.tuple(at, value).map(([n, v]): Mutation => ({
      label: `${label} ${JSON.stringify(v)?.slice(0, 40)}`,
      apply: (m) => {
        const slots = slotsOf(m).filter((s) => !only || only(s.holder[s.key]));
        const slot = pick(slots, n);
        if (slot) slot.holder[slot.key] = fresh(v);
      },
    }));
  const insertChar = fc.tuple(at, fc.nat(), fc.constantFrom(...EVIL_CHARS)).map(([n, i, c]): Mutation => ({
    label: `insert ${JSON.stringify(c)}`,
    apply: (m) => {
      const slot = pick(
        slotsOf(m).filter((s) => typeof s.holder[s.key] === 'string'),
        n,
      );
      if (!slot) return;
      const s = slot.holder[slot.key] as string;
      const p = i % (s.length + 1);
      slot.holder[slot.key] = s.slice(0, p) + c + s.slice(p);
    },
  }));
  const deep = fc
    .tuple(fc.constantFrom(33, 200, 3000, 20_000), fc.boolean())
    .map(([depth, array]): Deep => ({ $fuzz: 'deep', depth, array }));
  const addKey = fc
    .tuple(at, fc.constantFrom(...EVIL_KEYS), fc.constantFrom('x', 1, null, { a: 1 }))
    .map(([n, key, v]): Mutation => ({
      label: `add key ${JSON.stringify(key)}`,
      apply: (m) => {
        const objects = slotsOf(m)
          .map((s) => s.holder[s.key])
          .filter((o): o is object => typeof o === 'object' && o !== null && !Array.isArray(o) && !isTagged(o, 'ctx'));
        const target = pick(objects, n);
        if (target) define(target, key, fresh(v));
        else m.query.push({ name: key, value: fresh(v), style: 'form' });
      },
    }));
  const dropKey = at.map((n): Mutation => ({
    label: 'drop a field',
    apply: (m) => {
      const slots = slotsOf(m).filter((s) => !Array.isArray(s.holder) && s.holder !== m.pathParams);
      const slot = pick(slots, n);
      if (!slot) return;
      if ('style' in slot.holder) m.query = m.query.filter((q) => q !== (slot.holder as unknown));
      else delete slot.holder[slot.key];
    },
  }));
  const queryRepeat = fc
    .tuple(at, fc.constantFrom('repeat', 'bracket', 'index', 'json', 'deepObject'))
    .map(([n, how]): Mutation => ({
      label: `query ${how}`,
      apply: (m) => {
        const item = pick(m.query, n) ?? { name: 'page', value: '1', style: 'form' as const };
        const name = typeof item.name === 'string' ? item.name : item.name.text;
        if (how === 'repeat') m.query.push({ ...item });
        else if (how === 'bracket') m.query.push({ name: `${name}[]`, value: item.value, style: 'form' });
        else if (how === 'index') m.query.push({ name: `${name}[x]`, value: item.value, style: 'form' });
        else item.style = how;
      },
    }));
  const unknownParam = fc
    .tuple(fc.constantFrom(...EVIL_KEYS, 'sort', 'page[0]', 'a[b][c]'), fc.string())
    .map(([name, v]): Mutation => ({
      label: `query param ${JSON.stringify(name)}`,
      apply: (m) => m.query.push({ name, value: v, style: 'form' }),
    }));
  const badPercent = fc.tuple(at, fc.constantFrom(...BAD_PERCENT), fc.boolean()).map(([n, text, inName]): Mutation => ({
    label: `percent ${text}${inName ? ' in a name' : ''}`,
    apply: (m) => {
      const params = Object.keys(m.pathParams);
      const targets = params.length + m.query.length;
      if (targets === 0 || inName) {
        m.query.push({ name: raw(text), value: 'x', style: 'form' });
        return;
      }
      const i = n % targets;
      if (i < params.length) m.pathParams[params[i]] = raw(`${text}`);
      else m.query[i - params.length].value = raw(text);
    },
  }));
  const rawBody = fc.tuple(fc.constantFrom(...RAW_BODIES), fc.boolean()).map(([text, keepType]): Mutation => ({
    label: `raw body ${JSON.stringify(text)}`,
    apply: (m) => {
      m.body = { raw: text };
      if (!keepType || !m.contentType) m.contentType = 'application/json';
    },
  }));
  const contentType = fc.constantFrom(...CONTENT_TYPES).map((type): Mutation => ({
    label: `content-type ${JSON.stringify(type)}`,
    apply: (m) => {
      m.contentType = type;
      m.body ??= { value: { a: 1 } };
    },
  }));
  const credentials = fc
    .tuple(at, fc.constantFrom(...BAD_CREDENTIALS, undefined), fc.boolean())
    .map(([n, value, swap]): Mutation => ({
      label: `credentials ${JSON.stringify(value)?.slice(0, 20)}${swap ? ' (the other scheme)' : ''}`,
      apply: (m, op) => {
        const header = pick(op.securityHeaders, n) ?? 'x-auth-token';
        if (swap) m.headers[header] = ctx(header === 'x-auth-token' ? 'adminToken' : 'apiKey');
        else if (value === undefined) delete m.headers[header];
        else m.headers[header] = value;
      },
    }));
  const oddHeader = fc
    .tuple(
      fc.constantFrom('x-request-id', 'content-encoding', 'accept', 'x-forwarded-for'),
      fc.constantFrom(
        'gzip',
        'deflate',
        'br',
        'identity, gzip',
        '*/*',
        '',
        'a'.repeat(200),
        '\u00ff',
        '1.2.3.4, ::1',
        '../../etc',
      ),
    )
    .map(([name, value]): Mutation => ({
      label: `header ${name}: ${JSON.stringify(value).slice(0, 20)}`,
      apply: (m) => {
        m.headers[name] = value;
      },
    }));
  const rawTarget = fc.tuple(fc.constantFrom(...RAW_TARGET_BYTES), fc.nat()).map(([bytes, n]): Mutation => ({
    label: `raw request target with ${JSON.stringify(bytes)}`,
    apply: (m, op) => {
      const path = op.path.replace(/\{[^}]+\}/g, 'x');
      const p = n % (path.length + 1);
      m.rawTarget = path.slice(0, p) + bytes + path.slice(p);
    },
  }));
  return fc.oneof(
    { arbitrary: onSlot('type', fc.constantFrom(...ODD_VALUES)), weight: 4 },
    { arbitrary: onSlot('text', fc.constantFrom(...EVIL_STRINGS)), weight: 4 },
    { arbitrary: insertChar, weight: 4 },
    { arbitrary: onSlot('number', fc.constantFrom(...ODD_NUMBERS)), weight: 3 },
    { arbitrary: onSlot('deep', deep), weight: 2 },
    { arbitrary: addKey, weight: 3 },
    { arbitrary: dropKey, weight: 2 },
    { arbitrary: queryRepeat, weight: 2 },
    { arbitrary: unknownParam, weight: 1 },
    { arbitrary: badPercent, weight: 3 },
    { arbitrary: rawBody, weight: 2 },
    { arbitrary: contentType, weight: 1 },
    { arbitrary: credentials, weight: 2 },
    { arbitrary: oddHeader, weight: 1 },
    { arbitrary: rawTarget, weight: 1 },
    ...abuseMutations(at),
  );
}

/** Structured clone of a request model that keeps `__proto__` as a key (JSON keeps lone surrogates too). */
function cloneModel(m: RequestModel): RequestModel {
  return JSON.parse(JSON.stringify(m)) as RequestModel;
}

/** Valid requests, and mutated ones (about three in five). */
export function requestArb(api: OpenApi, op: Operation): fc.Arbitrary<RequestModel> {
  const valid = validRequestArb(api, op);
  const mutated = fc.tuple(valid, fc.array(mutationArb(), { minLength: 1, maxLength: 3 })).map(([base, muts]) => {
    const m = cloneModel(base);
    m.valid = false;
    for (const mutation of muts) {
      mutation.apply(m, op);
      m.mutations.push(mutation.label);
    }
    return m;
  });
  return fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: mutated, weight: 3 });
}

// ---------------------------------------------------------------------------------------------------------
// Serialisation

export interface WireRequest {
  method: string;
  /** The request target: path and query, percent-encoded (or raw bytes in a raw target). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send over a bare socket: the target holds bytes an HTTP client would refuse. */
  rawSocket: boolean;
}

/** Percent-encodes text as UTF-8; a lone surrogate becomes the 3-byte sequence no decoder accepts. */
export function encodeText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

const DEEP_TOKEN = '__fuzz_deep_';

function deepText(d: Deep): string {
  return d.array ? `${'['.repeat(d.depth)}${']'.repeat(d.depth)}` : `${'{"a":'.repeat(d.depth)}1${'}'.repeat(d.depth)}`;
}

/** JSON text of a value, with setup values filled in and deep nesting written out. */
export function toJsonText(value: unknown, context: FuzzContext): string {
  const deeps: Deep[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (isTagged(v, 'ctx')) return context[(v as ContextRef).name] ?? '';
    if (isTagged(v, 'raw')) return (v as Raw).text;
    if (isTagged(v, 'deep')) {
      deeps.push(v as Deep);
      return `${DEEP_TOKEN}${deeps.length - 1}`;
    }
    return v;
  });
  if (text === undefined) return '';
  return deeps.reduce((t, d, i) => t.replace(`"${DEEP_TOKEN}${i}"`, deepText(d)), text);
}

function scalarText(value: unknown, context: FuzzContext): string {
  if (typeof value === 'string') return encodeText(value);
  if (isTagged(value, 'raw')) return (value as Raw).text;
  if (isTagged(value, 'ctx')) return encodeText(String(context[(value as ContextRef).name] ?? ''));
  if (typeof value === 'object' && value !== null) return encodeText(toJsonText(value, context));
  return encodeText(String(value));
}

function queryText(items: QueryItem[], context: FuzzContext): string {
  const pairs: string[] = [];
  for (const item of items) {
    const name = typeof item.name === 'string' ? encodeText(item.name) : item.name.text;
    const v = item.value;
    if (item.style === 'json') pairs.push(`${name}=${encodeText(toJsonText(v, context))}`);
    else if (
      item.style === 'deepObject' &&
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      !('$fuzz' in v)
    ) {
      for (const [k, inner] of Object.entries(v))
        pairs.push(`${name}%5B${encodeText(k)}%5D=${scalarText(inner, context)}`);
    } else if (Array.isArray(v) && item.style === 'formExploded') {
      for (const inner of v) pairs.push(`${name}=${scalarText(inner, context)}`);
    } else if (Array.isArray(v)) {
      pairs.push(`${name}=${v.map((inner) => scalarText(inner, context)).join(',')}`);
    } else {
      pairs.push(`${name}=${scalarText(v, context)}`);
    }
  }
  return pairs.join('&');
}

export function toWire(op: Operation, m: RequestModel, context: FuzzContext): WireRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => scalarText(m.pathParams[name], context));
  const query = queryText(m.query, context);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(m.headers)) {
    headers[name] = isTagged(value, 'ctx') ? String(context[(value as ContextRef).name] ?? '') : String(value);
  }
  let body: Buffer | undefined;
  if (m.body) body = Buffer.from('raw' in m.body ? m.body.raw : toJsonText(m.body.value, context), 'utf8');
  if (body !== undefined && m.contentType) headers['content-type'] = m.contentType;
  return {
    method: op.method,
    target: m.rawTarget ?? (query ? `${path}?${query}` : path),
    headers,
    body,
    rawSocket: m.rawTarget !== undefined,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Shared-offset multicalls

const RESOLVER_CALLS = new Interface([
  'function resolve(bytes name, bytes data)',
  'function addr(bytes32 node)',
  'function text(bytes32 node, string key)',
  'function contenthash(bytes32 node)',
]);

/** A gateway request whose multicall heads point, many to one, at a few shared inner calls. */
export interface SharedOffsetMulticall {
  /** The resolve(bytes,bytes) calldata, 0x-hex. */
  data: string;
  /** The inner call each head points at, in order: what the gateway decodes and must answer. */
  calls: string[];
}

const abiWord = (n: number) => n.toString(16).padStart(64, '0');

/** multicall(bytes[]) calldata whose heads point at `picks` of the shared calls, each shared call laid out once. */
export function sharedOffsetMulticall(shared: string[], picks: number[]): string {
  const starts: number[] = [];
  let tail = picks.length * 32;
  const tails = shared.map((call) => {
    const hex = call.slice(2);
    starts.push(tail);
    const padded = hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');
    tail += 32 + padded.length / 2;
    return `${abiWord(hex.length / 2)}${padded}`;
  });
  const heads = picks.map((p) => abiWord(starts[p])).join('');
  return `0xac9650d8${abiWord(0x20)}${abiWord(picks.length)}${heads}${tails.join('')}`;
}

/**
 * resolve(name, multicall) calldata in the amplifying shape: `count` heads, each pointing at one of a few shared
 * inner calls (addr, contenthash, or text of one of `textKeys`), so that a request of a few kilobytes asks for
 * as many answers as it has heads. ABI-valid all through; ethers decodes it.
 */
export function sharedOffsetMulticallArb(
  name: string,
  textKeys: string[],
  count: fc.Arbitrary<number>,
): fc.Arbitrary<SharedOffsetMulticall> {
  const node = namehash(name);
  const candidates = [
    RESOLVER_CALLS.encodeFunctionData('addr', [node]),
    RESOLVER_CALLS.encodeFunctionData('contenthash', [node]),
    ...textKeys.map((key) => RESOLVER_CALLS.encodeFunctionData('text', [node, key])),
  ];
  const shared = fc.uniqueArray(fc.constantFrom(...candidates), { minLength: 1, maxLength: candidates.length });
  return fc
    .tuple(shared, count)
    .chain(([calls, n]) =>
      fc.array(fc.nat({ max: calls.length - 1 }), { minLength: n, maxLength: n }).map((picks) => ({ calls, picks })),
    )
    .map(({ calls, picks }) => ({
      data: RESOLVER_CALLS.encodeFunctionData('resolve', [dnsEncode(name), sharedOffsetMulticall(calls, picks)]),
      calls: picks.map((p) => calls[p]),
    }));
}
