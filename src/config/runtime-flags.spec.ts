import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const flag = (text: string) => /--max-old-space-size=(\d+)/.exec(text)?.[1];

describe('the heap limit the service runs with', () => {
  it('is the same in the Dockerfile, npm start, npm run start:prod and npm run bench', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const limit = flag(read('Dockerfile'));
    expect(limit).toBe('192');
    expect(flag(scripts.start)).toBe(limit);
    expect(flag(scripts['start:prod'])).toBe(limit);
    expect(flag(/SERVICE_NODE_OPTIONS = '([^']*)'/.exec(read('bench/service.ts'))?.[1] ?? '')).toBe(limit);
  });
});
