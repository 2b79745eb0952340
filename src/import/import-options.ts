import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { CliFailure, parseCommandLine, UsageError } from '../common/command-line';
import { MAX_BATCH_ITEMS } from '../subnames/dto/batch-limits';

export const IMPORT_USAGE = [
  [
    'import',
    `  import FILE --url URL --key KEY [--dry-run] [--batch-size N] [--json]
      Creates or updates the subnames of FILE through POST /subnames/batch, in chunks of N (default 500, at
      most 1000). FILE is NDJSON in the request shape of POST /subnames (what GET /subnames/export writes) or
      NameStone's get-names JSON. Every entry is validated here first; refused entries are listed with their
      line numbers and the exit code is 1. --dry-run validates the whole file and sends nothing (a parentName
      outside the length bounds is left to the service, which accepts its legacy parents).`,
  ],
] as const;

const DEFAULT_BATCH_SIZE = 500;
const REACH_TIMEOUT_MS = 5000;

export interface ImportOptions {
  file: string;
  url: string;
  key: string;
  dryRun: boolean;
  batchSize: number;
  json: boolean;
}

export function parseOptions(argv: string[]): ImportOptions {
  const { values, positionals } = parseCommandLine(argv, {
    url: { type: 'string' },
    key: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'batch-size': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('import needs the FILE to import');
  if (extra.length > 0) throw new UsageError(`import takes one FILE, not also ${extra[0]}`);
  const dryRun = values['dry-run'] === true;
  if (!dryRun && (!values.url || !values.key)) throw new UsageError('import needs --url and --key (or --dry-run)');
  if (values.url !== undefined && !/^https?:\/\/[^\s/]+/.test(values.url)) {
    throw new UsageError(`--url must be the service's http(s) URL, not ${values.url}`);
  }
  const size = values['batch-size'] ?? String(DEFAULT_BATCH_SIZE);
  if (!/^\d+$/.test(size) || Number(size) < 1 || Number(size) > MAX_BATCH_ITEMS) {
    throw new UsageError(`--batch-size must be a whole number from 1 to ${MAX_BATCH_ITEMS}`);
  }
  return {
    file,
    url: values.url ?? '',
    key: values.key ?? '',
    dryRun,
    batchSize: Number(size),
    json: values.json === true,
  };
}

/** The file is readable before any work starts, or the user is told which path to fix. */
export async function readable(file: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code;
    throw new CliFailure(`cannot read ${file} (${why}): give the path of an NDJSON export or a NameStone JSON file`);
  }
}

/** The service answers at --url (any HTTP answer will do) before the first entry is read. */
export async function reachable(url: string): Promise<void> {
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new CliFailure(`cannot reach ${url} (${why}): check --url and that the service is running`);
  }
}
