import { parentPort, workerData } from 'node:worker_threads';
import { ANSWER_CHUNK, JobSigner, SignJob, SigningMaterial, STOP } from './signing-jobs';

/** The signing thread (signing-thread.ts): signs each batch it is sent, in order, answering ANSWER_CHUNK at a time. */
const signer = new JobSigner(workerData as SigningMaterial);

parentPort!.on('message', (message: { id: number; jobs: SignJob[] } | typeof STOP) => {
  // Ends between two signatures, never inside a native call (see SigningThread.stop).
  if (message === STOP) process.exit(0);
  const { id, jobs } = message;
  for (let from = 0; from < jobs.length; from += ANSWER_CHUNK) {
    const out = jobs.slice(from, from + ANSWER_CHUNK).map((job) => {
      try {
        return signer.sign(job);
      } catch (e) {
        return { error: e instanceof Error ? e.message : String(e) };
      }
    });
    parentPort!.postMessage({ id, out });
  }
});
