import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { labelProblem, nameProblem } from './ens';
import {
  addressValueProblem,
  coinProblem,
  contenthashProblem,
  evmAddressProblem,
  metadataKeyProblem,
  recordValueProblem,
  textKeyProblem,
} from './records';

type Problem = (value: unknown, args: ValidationArguments) => string | null;

/** Builds a property decorator from a function that names what is wrong with a value, or returns null. */
export function satisfies(name: string, problem: Problem, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => problem(value, args) === null,
        defaultMessage: (args: ValidationArguments) => problem(args.value, args) ?? 'is invalid',
      },
    });
}

export const IsEnsLabel = () => satisfies('isEnsLabel', labelProblem);
export const IsEnsName = (minLabels = 2, options?: ValidationOptions) =>
  satisfies('isEnsName', (v) => nameProblem(v, minLabels), options);
export const IsEvmAddress = () => satisfies('isEvmAddress', evmAddressProblem);
export const IsTextKey = () => satisfies('isTextKey', textKeyProblem);
export const IsRecordValue = () => satisfies('isRecordValue', recordValueProblem);
export const IsMetadataKey = () => satisfies('isMetadataKey', metadataKeyProblem);
export const IsCoinType = () => satisfies('isCoinType', coinProblem);
/** Checks `value` against the coin of the same object. */
export const IsAddressForCoin = () =>
  satisfies('isAddressForCoin', (v, args) => addressValueProblem((args.object as { coin?: unknown }).coin, v));
export const IsContenthash = () => satisfies('isContenthash', contenthashProblem);

/** Refuses a second entry with the same `key` in an array of records, naming the first. */
export const HasUniqueEntries = (field: string) =>
  satisfies('hasUniqueEntries', (value) => {
    if (!Array.isArray(value)) return null;
    const seen = new Map<unknown, number>();
    for (const [i, entry] of value.entries()) {
      const k = (entry as Record<string, unknown> | null)?.[field];
      if (k === undefined) continue;
      if (seen.has(k)) return `has ${field} ${JSON.stringify(k)} twice (entries ${seen.get(k)} and ${i})`;
      seen.set(k, i);
    }
    return null;
  });
