import { ClassTransformOptions, Transform, TransformationType, TransformFnParams } from 'class-transformer';
import { Allow, getMetadataStorage, ValidationError } from 'class-validator';
import { NestedType } from './nested-type';

type Constructor = new () => object;

/** Work units of one slice: about 10 batch items of 20 addresses, a few milliseconds on the two-core machine. */
export const SLICE_WEIGHT = 200;

/** A class-transformer @Transform function. */
type TransformFn = (params: TransformFnParams) => unknown;

/** A DTO property whose elements are built and validated a slice at a time (see ValidatedInSlices). */
export interface SlicedArrayField {
  property: string;
  element: Constructor;
  /** Runs on the built array before validation, as a @Transform on the property would. */
  transform?: TransformFn;
}

const slicedByClass = new WeakMap<object, { property: string; element: () => Constructor; transform?: TransformFn }>();

/**
 * Marks an array of nested DTOs that may be long (a batch's items): the validation pipe builds and validates its
 * elements a slice at a time, yielding to the event loop between slices, so one body cannot hold the loop for its
 * whole validation; the errors are those of validating it whole. The array's own rules see stand-ins (empty
 * objects) for its elements: they may judge its length and that its elements are objects, never their contents.
 * The elements' class (NestedType) and the transform of the built array (class-transformer's Transform) are given
 * here, so that the sliced path applies exactly what the whole one does: no other @Transform goes on the property.
 */
export function ValidatedInSlices(element: () => Constructor, transform?: TransformFn): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    NestedType(element)(target, property);
    if (transform) Transform(transform)(target, property);
    slicedByClass.set(target.constructor, { property: property as string, element, transform });
  };
}

/** The property of `dto` validated in slices, with its elements' class and its transform, if it has one. */
export function slicedArrayField(dto: object): SlicedArrayField | undefined {
  const sliced = slicedByClass.get(dto);
  return sliced && { property: sliced.property, element: sliced.element(), transform: sliced.transform };
}

/** Whether `value` is a plain object (not null, not an array): the only elements the sliced path takes. */
export function isObjectElement(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Work units of one raw element: itself and the entries of its arrays (a batch item's records). */
function weightOf(element: object): number {
  let weight = 1;
  for (const value of Object.values(element)) if (Array.isArray(value)) weight += value.length;
  return weight;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `work` over consecutive slices of `elements` of about SLICE_WEIGHT units each (weighed from `raw`, the elements
 * as sent), in order, yielding to the event loop between two slices.
 */
export async function mapInSlices<T, R>(
  elements: T[],
  raw: object[],
  work: (slice: T[], start: number) => R[] | Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  let start = 0;
  while (start < elements.length) {
    if (start > 0) await yieldToEventLoop();
    let end = start;
    for (let weight = 0; end < elements.length && weight < SLICE_WEIGHT; end++) weight += weightOf(raw[end]);
    out.push(...(await work(elements.slice(start, end), start)));
    start = end;
  }
  return out;
}

/** The field's transform (see ValidatedInSlices) on its built array, as plainToInstance applies it. */
export function applySlicedTransform(
  { property, transform }: SlicedArrayField,
  value: unknown,
  obj: Record<string, unknown>,
  options: ClassTransformOptions,
): unknown {
  return transform ? transform({ value, key: property, obj, type: TransformationType.PLAIN_TO_CLASS, options }) : value;
}

/** What stands in for each element while the array's own rules are checked: valid, and checked in microseconds. */
export class ElementStandIn {
  @Allow() standIn?: undefined;
}

/**
 * Puts the errors of an array's elements under the array's node, where class-validator puts them when it validates
 * the DTO whole: `errors` came from the DTO with stand-ins, `elements[i]` from element i (empty when it passed).
 */
export function mergeElementErrors(
  dto: Constructor,
  field: string,
  array: unknown[],
  errors: ValidationError[],
  elements: ValidationError[][],
): ValidationError[] {
  const children = elements.flatMap((childErrors, i) =>
    childErrors.length === 0
      ? []
      : [Object.assign(new ValidationError(), { value: array[i], property: String(i), children: childErrors })],
  );
  const own = errors.find((e) => e.property === field && !e.constraints?.whitelistValidation);
  if (own) {
    own.value = array;
    own.children = children;
  }
  if (own || children.length === 0) return errors;
  const node = Object.assign(new ValidationError(), { value: array, property: field, children });
  // class-validator lists refused unknown fields first, then the DTO's properties in the order it declares them.
  const storage = getMetadataStorage();
  const order = Object.keys(storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', false, false)));
  const rank = (e: ValidationError) => (e.constraints?.whitelistValidation ? -1 : order.indexOf(e.property));
  const at = errors.findIndex((e) => rank(e) > order.indexOf(field));
  return at < 0 ? [...errors, node] : [...errors.slice(0, at), node, ...errors.slice(at)];
}
