import type { TransformFnParams } from 'class-transformer';
import { satisfies } from '../../common/validation/validators';

/** For each batch item whose normalised fullName an earlier item of the same batch has: that earlier item. */
const repeatOf = new WeakMap<object, { index: number; fullName: string }>();

/** The items are built by now: a label and parent that could be normalised are strings, in canonical form. */
function normalizedFullName(item: object): string | undefined {
  const { label, parentName } = item as { label?: unknown; parentName?: unknown };
  // Anything else is refused by the item's own validators, which name it.
  return typeof label === 'string' && typeof parentName === 'string' ? `${label}.${parentName}` : undefined;
}

/**
 * Transform of a batch's items: runs once they are DTO instances and before validation, and marks every item
 * that repeats an earlier item's fullName, for IsFirstOfItsFullName on its label.
 */
export function markRepeatedFullNames({ value }: TransformFnParams): unknown {
  if (!Array.isArray(value)) return value;
  const first = new Map<string, number>();
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'object' || item === null) continue;
    const fullName = normalizedFullName(item as object);
    if (fullName === undefined) continue;
    const earlier = first.get(fullName);
    if (earlier === undefined) first.set(fullName, index);
    else repeatOf.set(item as object, { index: earlier, fullName });
  }
  return value;
}

/** Fails only for an item that markRepeatedFullNames marked, so the error's path is items[7].label. */
export const IsFirstOfItsFullName = () =>
  satisfies('isFirstOfItsFullName', (_, args) => {
    const repeat = repeatOf.get(args.object);
    return repeat ? `repeats the fullName ${repeat.fullName} of items[${repeat.index}]` : null;
  });
