import { FUTURE_ALLOWANCE_MS, migrationOrderProblems, readMigrationFiles } from './migration-order';

const NOW = 1_795_756_307_000;
const migration = (timestamp: number, name: string) => ({
  file: `${timestamp}-${name}.ts`,
  text: `export class ${name}${timestamp} implements MigrationInterface {\n  name = '${name}${timestamp}';\n}`,
});

describe('migration order', () => {
  it('the migrations of src/database/migrations are in order, named after their class, none in the future', () => {
    const files = readMigrationFiles();
    expect(files.length).toBeGreaterThanOrEqual(12);
    expect(migrationOrderProblems(files, Date.now())).toEqual([]);
  });

  it('accepts increasing timestamps up to a day ahead', () => {
    const files = [migration(NOW - 2, 'A'), migration(NOW - 1, 'B'), migration(NOW + FUTURE_ALLOWANCE_MS, 'C')];
    expect(migrationOrderProblems(files, NOW)).toEqual([]);
  });

  it('refuses a timestamp equal to the previous one (file order by name)', () => {
    const files = [migration(NOW - 5, 'Later'), migration(NOW - 5, 'Earlier')];
    expect(migrationOrderProblems(files, NOW)).toEqual([
      `${NOW - 5}-Later.ts: timestamp not after ${NOW - 5}-Earlier.ts's`,
    ]);
  });

  it('refuses a shorter timestamp that sorts after a longer one by name', () => {
    const files = [migration(1_795_000_000_000, 'A'), migration(999_999_999_999, 'B')];
    expect(migrationOrderProblems(files, NOW)).toEqual(["999999999999-B.ts: timestamp not after 1795000000000-A.ts's"]);
  });

  it('refuses a timestamp more than a day ahead of now', () => {
    const ahead = NOW + FUTURE_ALLOWANCE_MS + 1;
    expect(migrationOrderProblems([migration(ahead, 'Ahead')], NOW)).toEqual([
      `${ahead}-Ahead.ts: timestamp in the future`,
    ]);
  });

  it('refuses a class or name that does not carry the file timestamp', () => {
    const file = { file: `${NOW}-Users.ts`, text: `export class Users1 {\n  name = 'Users1';\n}` };
    expect(migrationOrderProblems([file], NOW)).toEqual([
      `${NOW}-Users.ts: class is not Users${NOW}`,
      `${NOW}-Users.ts: name is not 'Users${NOW}'`,
    ]);
  });

  it('refuses a file not named <timestamp>-<Name>.ts', () => {
    expect(migrationOrderProblems([{ file: 'Users.ts', text: '' }], NOW)).toEqual([
      'Users.ts: not named <timestamp>-<Name>.ts',
    ]);
  });
});
