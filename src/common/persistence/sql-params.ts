/**
 * The parameters of one statement, shared by the builders that compose it (each module's `*.statements.ts`):
 * values are bound, never spliced into the text; `add` answers the placeholder of the value it binds.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** A name a builder writes into SQL (a column, or a relation of the caller's statement): a plain identifier only. */
export function sqlIdentifier(name: string): string {
  if (!PLAIN_IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${JSON.stringify(name)}`);
  return name;
}
