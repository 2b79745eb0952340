import { logRunDir } from './suite-log';

/** The unit run's global setup: one log folder for the run, which its workers inherit. */
export default function logRunSetup(): void {
  logRunDir();
}
