import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A guide from docs/, served as text at /guides/<file>. */
export interface Guide {
  file: string;
  title: string;
  body: string;
}

/** What GET / answers with `Accept: application/json`. */
export interface FrontDoor {
  name: string;
  version: string;
  docs: string;
  portal: string;
}

export const SERVICE_NAME = 'ENS subname service';
const GUIDE_FILES = ['integrators.md', 'operators.md', 'reference.md', 'resolution-on-chain.md'];
// src/home and dist/home both sit two folders below the checkout (or the image's /app).
const ROOT = join(__dirname, '..', '..');

/** The package's version (package.json beside src/ and dist/). */
export function serviceVersion(root = ROOT): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The guides of docs/ that are present (an image without them serves the page without their links). */
export function loadGuides(dir = join(ROOT, 'docs')): Guide[] {
  return GUIDE_FILES.flatMap((file) => {
    try {
      const body = readFileSync(join(dir, file), 'utf8');
      const title = /^# (.+)$/m.exec(body)?.[1] ?? file;
      return [{ file, title, body }];
    } catch {
      return [];
    }
  });
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The short HTML page at GET /: what the service is and where to go next. */
export function frontDoorPage(door: FrontDoor, guides: Guide[]): string {
  const guideItems = guides
    .map((g) => `<li><a href="/guides/${g.file}">${escapeHtml(g.title)}</a></li>`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(door.name)}</title>
  </head>
  <body>
    <h1>${escapeHtml(door.name)} <small>${escapeHtml(door.version)}</small></h1>
    <p>Offchain ENS subnames behind API keys, resolved in wallets through CCIP-Read, and signed mint parameters.</p>
    <ul>
      <li><a href="${door.docs}">API reference (Swagger UI)</a>: every route, with "Try it out"</li>
      <li><a href="${door.portal}">Developer portal</a>: sign in with a wallet, get a key for your parent name</li>
    </ul>
    ${guides.length ? `<h2>Guides</h2>\n    <ul>\n      ${guideItems}\n    </ul>` : ''}
  </body>
</html>
`;
}
