import 'reflect-metadata';
// eslint-disable-next-line no-restricted-imports -- the one place that applies Type, so that its target is recorded
import { Type } from 'class-transformer';

type Constructor = abstract new (...args: never[]) => unknown;

const NESTED_TYPE = Symbol('nestedType');

/**
 * class-transformer's @Type (the class a nested object or each element of an array is built as), also recorded
 * where nestedTypeOf reads it: class-transformer exports no reader of its own, and the pipe's raw-shape check and
 * sliced validation need the class before class-transformer runs.
 */
export function NestedType(target: () => Constructor): PropertyDecorator {
  const type = Type(target);
  return (prototype: object, property: string | symbol) => {
    type(prototype, property);
    Reflect.defineMetadata(NESTED_TYPE, target, prototype, property);
  };
}

/** The class NestedType gave `property` of `dto` or of the nearest ancestor that declares it, if any. */
export function nestedTypeOf(dto: Constructor, property: string): Constructor | undefined {
  const target = Reflect.getMetadata(NESTED_TYPE, dto.prototype as object, property) as (() => Constructor) | undefined;
  return target?.();
}
