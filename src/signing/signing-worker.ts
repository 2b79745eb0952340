import { parentPort, workerData } from 'node:worker_threads';
import { JobSigner, SignJob, SigningMaterial } from './signing-jobs';

/** The signing thread (signing-thread.ts): signs each batch it is sent, in order, and answers with the signatures. */
const signer = new JobSigner(workerData as SigningMaterial);

parentPort!.on('message', ({ id, jobs }: { id: number; jobs: SignJob[] }) => {
  const out = jobs.map((job) => {
    try {
      return signer.sign(job);
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  });
  parentPort!.postMessage({ id, out });
});
