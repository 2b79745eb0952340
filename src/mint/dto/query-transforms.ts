import { Transform } from 'class-transformer';

/**
 * Query values arrive as strings and implicit conversion is off: these turn exactly `true`/`false` and plain
 * decimal integers into their types and leave anything else as it is, for the validators to refuse.
 */
export const QueryBoolean = () =>
  Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value));

export const QueryInteger = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value,
  );
