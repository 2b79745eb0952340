/**
 * npm run bench:profile -- <a build's dist/main.js> [<another's>]: where two builds spend their main thread's CPU
 * on one workload. Both start as in bench:compare; the workload (BENCH_WORKLOAD: create, read, resolution or mint,
 * default read) then runs BENCH_SECONDS on each under V8's sampling profiler, alternately (A B B A, BENCH_ROUNDS
 * rounds), and the self time per request of each file and function is printed side by side, largest difference
 * first. The profiles are kept (Chrome DevTools opens them) in the directory it prints.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { side } from './compare-side';
import { LOAD_SECONDS } from './load';

const WORKLOADS = ['create', 'read', 'resolution', 'mint'];
const WRAPPER = join(__dirname, 'profile-wrap.js');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function progress(message: string): void {
  console.error(`[profile ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** Self time in µs by file (node_modules packages by name) and by function, summed over profiles. */
function selfTimes(files: string[], root: string): { byFile: Map<string, number>; byFunction: Map<string, number> } {
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const file of files) {
    const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, i) => {
      const { url, functionName, lineNumber } = nodes.get(id)!.callFrame;
      const where = place(url, root);
      add(byFile, where, p.timeDeltas[i]);
      add(byFunction, `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`, p.timeDeltas[i]);
    });
  }
  return { byFile, byFunction };
}

/** A package for node_modules files, a path under dist for the service's own, V8's name otherwise. */
function place(url: string, root: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  if (path.startsWith(root)) return path.slice(root.length);
  return path.startsWith('node:') ? path : path.split('/').slice(-2).join('/');
}

function table(title: string, a: Map<string, number>, b: Map<string, number>, ra: number, rb: number, rows: number) {
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  const per = (m: Map<string, number>, k: string, r: number) => (m.get(k) ?? 0) / r;
  keys.sort((x, y) => Math.abs(per(b, y, rb) - per(a, y, ra)) - Math.abs(per(b, x, rb) - per(a, x, ra)));
  const sum = (m: Map<string, number>, r: number) => [...m.values()].reduce((s, v) => s + v, 0) / r;
  console.log(`\n${title} (µs of main-thread self time per request)\n`);
  console.log(`| ${'where'.padEnd(70)} | A µs | B µs | B − A |`);
  console.log(`|${'-'.repeat(72)}|-----:|-----:|------:|`);
  const line = (k: string, x: number, y: number) =>
    console.log(`| ${k.slice(0, 70).padEnd(70)} | ${x.toFixed(1)} | ${y.toFixed(1)} | ${(y - x).toFixed(1)} |`);
  line('(all)', sum(a, ra), sum(b, rb));
  for (const k of keys.slice(0, rows)) line(k, per(a, k, ra), per(b, k, rb));
}

async function main(): Promise<void> {
  const [first, second] = process.argv.slice(2);
  if (!first) throw new Error('usage: npm run bench:profile -- <a build dist/main.js> [<b build dist/main.js>]');
  const workload = process.env.BENCH_WORKLOAD ?? 'read';
  const index = WORKLOADS.indexOf(workload);
  if (index < 0) throw new Error(`BENCH_WORKLOAD must be one of ${WORKLOADS.join(', ')}`);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const mains = [resolve(first), resolve(second ?? join(__dirname, '..', 'dist', 'main.js'))];
  const dir = mkdtempSync(join(tmpdir(), 'sns-profile-'));
  progress(`A = ${mains[0]}\n  B = ${mains[1]}\n  ${workload}, ${LOAD_SECONDS} s × ${rounds} each; profiles in ${dir}`);
  const sides = await Promise.all(
    ['a', 'b'].map(async (name, k) => ({
      name,
      ...(await side(WRAPPER, dir, { PROFILE_MAIN: mains[k], PROFILE_OUT: join(dir, name) })),
      requests: 0,
    })),
  );
  try {
    for (const s of sides) await s.loads[index].slice(2, 1e9); // warm-up, not profiled
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
        process.kill(s.pid, 'SIGUSR2');
        const slice = await s.loads[index].slice(LOAD_SECONDS, round * 1e7);
        process.kill(s.pid, 'SIGUSR2');
        s.requests += slice.latencies.length;
        progress(`${s.name}: ${(slice.latencies.length / slice.seconds).toFixed(0)} req/s, ${slice.errors} errors`);
      }
    }
    await new Promise((r) => setTimeout(r, 1000)); // the last profiles are written
  } finally {
    for (const s of sides) await s.stop();
  }
  const [a, b] = sides.map((s, k) =>
    selfTimes(
      readdirSync(dir)
        .filter((f) => f.startsWith(`${s.name}.`) && f.endsWith('.cpuprofile'))
        .map((f) => join(dir, f)),
      resolve(mains[k], '..', '..') + '/',
    ),
  );
  const rows = Number(process.env.PROFILE_ROWS ?? 25);
  table('By file or package', a.byFile, b.byFile, sides[0].requests, sides[1].requests, rows);
  table('By function', a.byFunction, b.byFunction, sides[0].requests, sides[1].requests, rows);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
