import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { Circus } from '@jest/types';
import NodeEnvironment from 'jest-environment-node';
import { logRunDir } from './suite-log';

/** How many of the log's last lines a failing test file prints. */
const TAIL_LINES = 60;

/**
 * jest's node environment, with a log file per test file (suite-log.ts writes it) that is printed, its path and
 * last lines, only when a test or hook of the file failed: jest-circus tells failures to the environment alone.
 */
export default class SuiteLogEnvironment extends NodeEnvironment {
  private readonly logPath: string;
  private failed = false;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.logPath = join(logRunDir(), `${basename(context.testPath)}.log`);
    this.global.__SUITE_LOG__ = this.logPath;
  }

  handleTestEvent(event: Circus.Event): void {
    if ((event.name === 'test_done' && event.test.errors.length > 0) || event.name === 'hook_failure') {
      this.failed = true;
    }
  }

  override async teardown(): Promise<void> {
    await super.teardown();
    if (!this.failed) return;
    if (!existsSync(this.logPath)) {
      process.stderr.write(`\n${basename(this.logPath)}: the failing file's processes and apps logged nothing\n`);
      return;
    }
    const tail = readFileSync(this.logPath, 'utf8').trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
    process.stderr.write(`\nlog of the failing file: ${this.logPath}\nits last ${TAIL_LINES} lines:\n${tail}\n\n`);
  }
}
