/** The parent names stored before length bounds held the normalised form: accepted back in their stored form. */
const names = new Set<string>();

/** Read-only for the DTOs; filled once at start-up by LegacyParentNamesLedger from legacy_parent_names. */
export const legacyParentNames: ReadonlySet<string> = names;

/** Replaces the set's contents with the ledger's (at start-up). */
export function loadLegacyParentNames(ledger: Iterable<string>): void {
  names.clear();
  for (const name of ledger) names.add(name);
}
