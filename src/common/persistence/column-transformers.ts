/**
 * A bigint column read as a JavaScript number (the values stored fit: TTLs and fuses are below 2^32). The
 * entities declare it, and the raw-SQL row mappers use the same function, so both read a row alike.
 */
export const bigintAsNumber = {
  to: (v: number | null | undefined): number | null | undefined => v,
  from: (v: string | null): number | null => (v === null ? null : Number(v)),
};
