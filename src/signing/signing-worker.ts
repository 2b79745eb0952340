import { parentPort, workerData } from 'node:worker_threads';
import { runSignJob, SignJob } from './signing-jobs';

/** The signing thread (signing-thread.ts): signs each batch it is sent, in order, and answers with the signatures. */
const keys = (workerData as { keys: Uint8Array[] }).keys;

parentPort!.on('message', ({ id, jobs }: { id: number; jobs: SignJob[] }) => {
  const out = jobs.map((job) => {
    try {
      return runSignJob(keys, job);
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  });
  parentPort!.postMessage({ id, out });
});
