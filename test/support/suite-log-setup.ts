import { Logger } from '@nestjs/common';
import pino from 'pino';
import { SuiteLogger, suiteLogWriter } from './suite-log';

// In-process apps log past jest's console capture (pino writes to fd 1, Nest's logger to process.stdout): their
// lines go to the test file's log instead (suite-log.ts), printed only when one of its tests fails.

const stdoutDestination = pino.destination;
/** pino's standard output becomes the suite log, written synchronously so that the log is whole when a test ends. */
pino.destination = ((options?: Parameters<typeof stdoutDestination>[0]) => {
  const dest = typeof options === 'object' && options !== null && 'dest' in options ? options.dest : options;
  if (dest !== 1 && dest !== 2) return stdoutDestination(options);
  return suiteLogWriter(`app ${process.pid}`);
}) as typeof pino.destination;

Logger.overrideLogger(new SuiteLogger());
