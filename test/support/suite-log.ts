import { type ChildProcess, execFile, type ExecFileOptions } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inspect, promisify } from 'node:util';
import type { LoggerService, LogLevel } from '@nestjs/common';

// What the processes and apps of a test file print goes to that file's log, shown only when one of its tests fails.

declare global {
  /** The running test file's log, set by suite-log-environment.ts. */
  var __SUITE_LOG__: string | undefined;
}

/** The run's log folder: made once by the run's global setup, inherited by its workers through the environment. */
export function logRunDir(): string {
  process.env.SNS_TEST_LOG_DIR ??= join(
    tmpdir(),
    'sns-test-logs',
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
  );
  return process.env.SNS_TEST_LOG_DIR;
}

/** The log of the running test file (outside one, as in the global setup: the run's global.log). */
export function suiteLogPath(): string {
  return globalThis.__SUITE_LOG__ ?? join(logRunDir(), 'global.log');
}

/** Appends `text` to the suite log, each line prefixed with `[source]`. */
export function writeSuiteLog(source: string, text: string): void {
  const lines = text.replace(/\n$/, '').split('\n');
  const path = suiteLogPath();
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, lines.map((line) => `[${source}] ${line}\n`).join(''));
}

/** A writer that logs whole lines as `[source]`, holding a partial line until its end arrives (or `end()`). */
export function suiteLogWriter(source: string): { write(chunk: Buffer | string): void; end(): void } {
  let partial = '';
  return {
    write(chunk) {
      const text = partial + chunk.toString();
      const cut = text.lastIndexOf('\n');
      partial = text.slice(cut + 1);
      if (cut >= 0) writeSuiteLog(source, text.slice(0, cut));
    },
    end() {
      if (partial) writeSuiteLog(source, partial);
      partial = '';
    },
  };
}

/** Copies a child's standard output and error into the suite log as `[name pid]` (its own listeners still see all). */
export function logChild<T extends ChildProcess>(name: string, child: T): T {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    const writer = suiteLogWriter(`${name} ${child.pid}`);
    stream.on('data', (d: Buffer) => writer.write(d));
    stream.once('end', () => writer.end());
  }
  return child;
}

/** util.promisify(execFile), its output also copied into the suite log as `[name pid]`. */
export function execFileLogged(
  name: string,
  file: string,
  args: string[],
  options: ExecFileOptions,
): Promise<{ stdout: string; stderr: string }> {
  const running = promisify(execFile)(file, args, { ...options, encoding: 'utf8' });
  logChild(name, running.child);
  return running;
}

const ALL_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Nest's logger into the suite log, with the levels an app sets (createNestApplication's `logger` option). */
export class SuiteLogger implements LoggerService {
  private levels = new Set<LogLevel>(ALL_LEVELS);

  setLogLevels(levels: LogLevel[]): void {
    this.levels = new Set(levels);
  }

  fatal = (message: unknown, ...rest: unknown[]) => this.print('fatal', message, rest);
  error = (message: unknown, ...rest: unknown[]) => this.print('error', message, rest);
  warn = (message: unknown, ...rest: unknown[]) => this.print('warn', message, rest);
  log = (message: unknown, ...rest: unknown[]) => this.print('log', message, rest);
  debug = (message: unknown, ...rest: unknown[]) => this.print('debug', message, rest);
  verbose = (message: unknown, ...rest: unknown[]) => this.print('verbose', message, rest);

  private print(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (!this.levels.has(level)) return;
    // Nest passes the context last (a logger's name), and an error's stack before it.
    const context = typeof rest.at(-1) === 'string' ? ` [${String(rest.pop())}]` : '';
    const text = [message, ...rest.filter((r) => r !== undefined)]
      .map((part) => (typeof part === 'string' ? part : inspect(part, { depth: 4, breakLength: Infinity })))
      .join(' ');
    writeSuiteLog(`nest ${process.pid}`, `${level.toUpperCase()}${context} ${text}`);
  }
}
