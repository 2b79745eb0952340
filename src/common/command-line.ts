import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** What a command prints (on stdout; a verdict for the person, apart from the data, on stderr) and its exit code. */
export interface CliResult {
  output: string;
  exitCode: number;
  verdict?: string;
}

/** The exit codes every command shares: 0 done, 1 failed (one line says what to do), 2 wrong usage. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Wrong usage (unknown command or option, a missing or malformed argument): named with the usage, exit 2. */
export class UsageError extends Error {}

/** A failure the user can act on: its one line is printed, exit 1 (or the command's own code for it). */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode = EXIT_FAILED,
  ) {
    super(message);
  }
}

/** Usage text per command path (`keys create`); a prefix (`keys`) selects every entry under it. */
export class Usage {
  constructor(
    private readonly entries: readonly (readonly [command: string, text: string])[],
    private readonly footer = '',
  ) {}

  /** The commands this usage knows at `depth` words after `prefix` (`keys` → create, list, …). */
  commands(prefix: string[] = []): string[] {
    const words = this.entries.map(([c]) => c.split(' ')).filter((w) => prefix.every((p, i) => w[i] === p));
    return [...new Set(words.map((w) => w[prefix.length]).filter((w): w is string => w !== undefined))];
  }

  /** The longest command path at the start of `words` that this usage knows. */
  known(words: string[]): string[] {
    const path: string[] = [];
    for (const word of words) {
      if (!this.commands(path).includes(word)) break;
      path.push(word);
    }
    return path;
  }

  /** The entries on `prefix`'s path: those under it and the notes of the groups above it. */
  text(prefix: string[] = []): string {
    const path = prefix.join(' ');
    const on = (c: string) => path === '' || c === path || c.startsWith(`${path} `) || path.startsWith(`${c} `);
    const body = this.entries
      .filter(([c]) => on(c))
      .map(([, text]) => text)
      .join('\n');
    const footer = path === '' && this.footer ? `\n\n${this.footer}` : '';
    return `Usage: npm run cli -- ${path ? `${path} …` : '<command> [--help]'}\n\n${body}${footer}`;
  }
}

/** Node's own words for a parse error, reworded as the option it is about. */
function parseProblem(e: { code?: string; message: string }): string | undefined {
  if (!e.code?.startsWith('ERR_PARSE_ARGS')) return undefined;
  const option = /'(-{1,2}[^' ]+)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option ?? e.message}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /ambiguous/.test(e.message)) {
    return `${option} needs a value (write ${option}=VALUE for a value starting with "-")`;
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${option ?? 'an option'} needs a value`;
  return e.message.split('\n')[0];
}

/**
 * Strict parsing with `--help` on every command; a negative number after an option is its value (`--quota -5`),
 * so that its own check can name what is wrong with it.
 */
export function parseCommandLine<const O extends OptionsConfig>(argv: string[], options: O) {
  const args = argv.flatMap((a, i) =>
    /^-\d/.test(a) && /^--[\w-]+$/.test(argv[i - 1] ?? '') && options[argv[i - 1].slice(2)]?.type === 'string'
      ? []
      : /^--[\w-]+$/.test(a) && /^-\d/.test(argv[i + 1] ?? '') && options[a.slice(2)]?.type === 'string'
        ? [`${a}=${argv[i + 1]}`]
        : [a],
  );
  try {
    const config = {
      args,
      allowPositionals: true as const,
      strict: true as const,
      options: { ...options, help: { type: 'boolean' as const, short: 'h' } },
    };
    return parseArgs(config);
  } catch (e) {
    const problem = parseProblem(e as { code?: string; message: string });
    if (problem === undefined) throw e;
    throw new UsageError(problem);
  }
}
