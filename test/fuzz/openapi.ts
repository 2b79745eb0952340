import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** A JSON Schema of the OpenAPI 3.0 document, as much of it as the fuzzer reads. */
export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
}

export interface Operation {
  /** `METHOD /path`, the name a failure is reported under. */
  id: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { schema: Schema; required: boolean; contentType: string };
  /** Documented answers: status → content type → schema (undefined for a body of no declared shape). */
  responses: Map<number, Map<string, Schema | undefined>>;
  /** Header names of the security schemes the operation takes (x-auth-token, x-admin-token; cookie for the portal). */
  securityHeaders: string[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, Schema>; securitySchemes?: Record<string, { in?: string; name?: string }> };
}

interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security?: Record<string, string[]>[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export class OpenApi {
  readonly document: OpenApiDocument;
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file = join(__dirname, '..', '..', 'openapi.json')) {
    this.document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
    // OpenAPI 3.0 schemas: `nullable` is understood by Ajv; `example` and the like are annotations.
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, 'openapi.json');
  }

  /** Every operation of the document, in document order. */
  operations(): Operation[] {
    const schemes = this.document.components.securitySchemes ?? {};
    const out: Operation[] = [];
    for (const [path, item] of Object.entries(this.document.paths)) {
      for (const method of METHODS) {
        const raw = item[method];
        if (!raw) continue;
        const [contentType, media] = Object.entries(raw.requestBody?.content ?? {})[0] ?? [];
        const responses = new Map<number, Map<string, Schema | undefined>>();
        for (const [status, response] of Object.entries(raw.responses)) {
          const contents = new Map<string, Schema | undefined>();
          for (const [type, m] of Object.entries(response.content ?? {})) contents.set(type, m.schema);
          responses.set(Number(status), contents);
        }
        out.push({
          id: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          parameters: (raw.parameters ?? []).map((p) => ({ ...p, schema: p.schema ?? {} })),
          body: media ? { schema: media.schema, required: raw.requestBody?.required ?? false, contentType } : undefined,
          responses,
          securityHeaders: (raw.security ?? [])
            .flatMap((s) => Object.keys(s))
            .map((name) => schemes[name])
            .filter((s) => (s?.in === 'header' || s?.in === 'cookie') && s.name)
            .map((s) => (s.in === 'cookie' ? 'cookie' : s.name!.toLowerCase())),
        });
      }
    }
    return out;
  }

  /** Follows `#/components/schemas/…` references. */
  resolve(schema: Schema): Schema {
    let s = schema;
    for (let i = 0; s.$ref && i < 20; i++) {
      const name = s.$ref.replace('#/components/schemas/', '');
      s = this.document.components.schemas[name];
      if (!s) throw new Error(`unresolvable $ref ${schema.$ref}`);
    }
    return s;
  }

  /** Validates a value against a schema of the document; the errors in Ajv's words, or null. */
  validate(schema: Schema, value: unknown): string | null {
    const key = JSON.stringify(schema);
    let validator = this.validators.get(key);
    if (!validator) {
      validator = this.ajv.compile(this.relocate(schema));
      this.validators.set(key, validator);
    }
    if (validator(value)) return null;
    return this.ajv.errorsText(validator.errors, { dataVar: 'body' });
  }

  /** Schemas taken out of the document keep their references into it. */
  private relocate(schema: Schema): Schema {
    return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/')) as Schema;
  }
}
