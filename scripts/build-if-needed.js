// Builds dist/ when it is missing or older than any source file, so `npm start` works on a fresh clone.
const { execSync } = require('node:child_process');
const { readdirSync, statSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
    const p = join(dir, e.name);
    return Math.max(max, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }, 0);

const built = join(root, 'dist', 'main.js');
if (!existsSync(built) || statSync(built).mtimeMs < newest(join(root, 'src'))) {
  console.error('building dist/ …');
  execSync('npx nest build', { cwd: root, stdio: 'inherit' });
}
