/**
 * How many cases a property-based spec runs: `npm test` runs a twentieth of the full count (at least 25, or the full
 * count when it is smaller), enough to catch a regression on any change; `npm run test:deep` (FC_DEEP=1) runs the
 * full count. The seeds stay fixed either way, so a failure found once is found again.
 */
export const DEEP = process.env.FC_DEEP === '1';

export function runs(full: number): number {
  return DEEP ? full : Math.min(full, Math.max(25, Math.ceil(full / 20)));
}

/** `part` of `full` cases, scaled to the runs made: a coverage floor that holds at either count. */
export function share(part: number, full: number): number {
  return (runs(full) * part) / full;
}
