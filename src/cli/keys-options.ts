import { parseCommandLine, UsageError } from '../common/command-line';

export const KEYS_USAGE = [
  [
    'keys create',
    `  keys create --name NAME --parent NAME [--parent NAME …] [--quota N] [--expires ISO-8601]
      Issues a key and prints it once (with --json, as JSON).`,
  ],
  ['keys list', '  keys list'],
  ['keys update', '  keys update ID [--name NAME] [--parent NAME …] [--quota N] [--expires ISO-8601 | --no-expiry]'],
  [
    'keys rotate',
    `  keys rotate ID [--grace SECONDS]
      A new secret for the same key, printed once; the old one keeps working for SECONDS (default 0), then stops.`,
  ],
  ['keys revoke', '  keys revoke ID'],
  [
    'audit',
    `  audit [--since ISO-8601] [--actor admin|KEY-ID] [--name SUBJECT] [--page P] [--size S]
      The audit trail, newest first, as JSON.`,
  ],
  [
    'keys',
    `  Changes made here are recorded in the audit trail with the actor admin and a request id cli-<uuid>.
  The keys and audit commands use DATABASE_URL, or else the embedded database in DATA_DIR (through the running
  service when there is one).`,
  ],
] as const;

const OPTIONS = {
  name: { type: 'string' },
  parent: { type: 'string', multiple: true },
  quota: { type: 'string' },
  expires: { type: 'string' },
  'no-expiry': { type: 'boolean' },
  json: { type: 'boolean' },
  grace: { type: 'string' },
  since: { type: 'string' },
  actor: { type: 'string' },
  page: { type: 'string' },
  size: { type: 'string' },
} as const;

/** `keys …` or `audit` as given: the rest (dates, ids, names) is checked by the admin routes' own DTOs. */
export interface KeysArgs {
  group: string;
  command?: string;
  id?: string;
  values: ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];
  quota?: number;
  grace?: number;
}

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number (0 or more), not ${value}`);
  return Number(value);
}

/** The command line of `keys …` and `audit`; missing arguments and malformed numbers are told before anything loads. */
export function parseKeys(argv: string[]): KeysArgs {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [group, command, id] = positionals;
  const extra = positionals.slice(group === 'audit' ? 1 : command === 'create' || command === 'list' ? 2 : 3);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  const quota = integer(values.quota, '--quota');
  const grace = integer(values.grace, '--grace');
  if (group === 'keys' && (command === 'update' || command === 'revoke' || command === 'rotate') && !id) {
    throw new UsageError(`keys ${command} needs the key id`);
  }
  if (group === 'keys' && command === 'create') {
    const missing = [values.name === undefined && '--name NAME', values.parent === undefined && '--parent NAME'];
    if (missing.some(Boolean)) throw new UsageError(`keys create needs ${missing.filter(Boolean).join(' and ')}`);
  }
  return { group, command, id, values, quota, grace };
}
