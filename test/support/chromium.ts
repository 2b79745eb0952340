import { accessSync, constants } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Where distributions and installers put Chromium or Chrome, in the order they are tried after CHROMIUM_PATH. */
const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An error whose report is its one line: what to install, not where in this file it was noticed. */
function missing(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/**
 * The browser the browser specs drive, found as on a user's machine: CHROMIUM_PATH, else the first of CANDIDATES.
 * Without one it throws a single line saying what to install.
 */
export function findChromium(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (executable(configured)) return configured;
    throw missing(`CHROMIUM_PATH=${configured} is not an executable file: point it at Chromium or Chrome`);
  }
  const found = CANDIDATES.find(executable);
  if (found) return found;
  throw missing('Chromium not found: apt-get install -y chromium, or set CHROMIUM_PATH to a Chromium or Chrome');
}

/** A headless Chromium (without the sandbox, which CI's root user cannot use). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--no-sandbox'], headless: true });
}
