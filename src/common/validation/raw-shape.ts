import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { FieldError } from '../errors';
import { nestedTypeOf } from './nested-type';

type Constructor = abstract new (...args: never[]) => unknown;

/** What one DTO class declares: its properties, @ArrayMaxSize per property, the class each nested one holds. */
interface ClassBounds {
  properties: Set<string>;
  maxItems: [string, number][];
  nested: [string, Constructor][];
}

/**
 * Names an object inherits (`toString`, `valueOf`, `hasOwnProperty`…): class-transformer skips a body field so
 * named, so the whitelist never sees it; it is refused here as any other unknown field is.
 */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

const boundsByClass = new WeakMap<Constructor, ClassBounds>();

function boundsOf(dto: Constructor): ClassBounds {
  let bounds = boundsByClass.get(dto);
  if (bounds) return bounds;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  bounds = { properties: new Set(metadatas.map((m) => m.propertyName)), maxItems: [], nested: [] };
  for (const meta of metadatas) {
    if (meta.name === 'arrayMaxSize') bounds.maxItems.push([meta.propertyName, Number(meta.constraints[0])]);
  }
  for (const property of bounds.properties) {
    const target = nestedTypeOf(dto, property);
    if (typeof target === 'function' && target !== Object) bounds.nested.push([property, target]);
    else if (metadatas.some((m) => m.propertyName === property && m.type === ValidationTypes.NESTED_VALIDATION)) {
      // Its elements would go unchecked here: @Type given directly, or a mapped type (PickType…) of the DTO.
      throw new Error(`${dto.name}.${property} is validated nested but its class is not given with @NestedType`);
    }
  }
  boundsByClass.set(dto, bounds);
  return bounds;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(value: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}

/**
 * What a raw (parsed, not yet transformed) value breaks before a single element is transformed or validated:
 * every array longer than its DTO's @ArrayMaxSize, and every undeclared field named like an inherited member,
 * each named by path (`items`, `items[3].texts`, `toString`). An oversized array then costs one walk over its
 * containers, not the validation of each element; an array within its bound is entered (its elements' arrays
 * are checked), an oversized one is not. Iterative, so no depth overflows.
 */
export function rawShapeProblems(value: unknown, dto: Constructor, path = ''): FieldError[] {
  const problems: FieldError[] = [];
  const stack: { value: unknown; dto: Constructor; path: string }[] = [{ value, dto, path }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (!isRecord(item.value)) continue;
    const bounds = boundsOf(item.dto);
    const at = (key: string) => (item.path === '' ? key : `${item.path}.${key}`);
    for (const key of Object.keys(item.value)) {
      if (INHERITED_NAMES.has(key) && !bounds.properties.has(key))
        problems.push({ field: at(key), message: 'is not an accepted field' });
    }
    const oversized = new Set<string>();
    for (const [key, max] of bounds.maxItems) {
      const field = own(item.value, key);
      if (Array.isArray(field) && field.length > max) {
        oversized.add(key);
        problems.push({ field: at(key), message: `must contain no more than ${max} elements (${field.length} given)` });
      }
    }
    for (const [key, nested] of bounds.nested) {
      if (oversized.has(key)) continue;
      const field = own(item.value, key);
      if (Array.isArray(field)) {
        for (let i = field.length - 1; i >= 0; i--)
          stack.push({ value: field[i], dto: nested, path: `${at(key)}[${i}]` });
      } else stack.push({ value: field, dto: nested, path: at(key) });
    }
  }
  return problems;
}
