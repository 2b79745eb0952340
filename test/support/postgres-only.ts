/** The run's database is PostgreSQL (DATABASE_URL set) rather than the embedded PGlite. */
export const ON_POSTGRES = Boolean(process.env.DATABASE_URL);

/**
 * `it` for a test that needs a PostgreSQL feature the embedded database lacks (`needs` names it): on PostgreSQL it
 * runs; on the embedded database it is reported as skipped with that reason in its title, never silently.
 */
export function itOnPostgres(needs: string) {
  return (title: string, fn: jest.ProvidesCallback, timeout?: number): void =>
    ON_POSTGRES ? it(title, fn, timeout) : it.skip(`${title} [PostgreSQL only: ${needs}]`, fn, timeout);
}
