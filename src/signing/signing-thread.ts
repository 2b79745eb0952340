import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StructSpec } from './eip712-struct';
import { JobSigner, SignJob, SigningMaterial, STOP } from './signing-jobs';

/** How long a thread asked to stop may take to end before it is terminated. */
const STOP_GRACE_MS = 5_000;

type Answer = string | { error: string };

interface Pending {
  job: SignJob;
  resolve: (signature: string) => void;
  reject: (error: Error) => void;
}

/**
 * Bytes as the thread should be sent them: a view of part of a larger buffer (Node's Buffer.from takes small
 * buffers from an 8 KB pool) is copied to its own, since postMessage copies a view's whole buffer.
 */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

function compact(job: SignJob): SignJob {
  if ('digest' in job) return { ...job, digest: own(job.digest) };
  if ('request' in job) return { ...job, request: own(job.request), result: own(job.result) };
  return job;
}

/** The worker's script: the build's .js, or under ts-jest the .ts through ts-node. */
function workerEntry(): { file: string; execArgv: string[] } {
  if (__filename.endsWith('.js')) return { file: join(__dirname, 'signing-worker.js'), execArgv: [] };
  return { file: join(__dirname, 'signing-worker.ts'), execArgv: ['--require', 'ts-node/register/transpile-only'] };
}

/**
 * Where the service's signatures are made: on a second thread once started, so that the event loop serving
 * requests does not spend a signature's 40–70 µs on each; on the event loop before (or without) that. Jobs asked
 * for while the loop is busy go over together, one message per batch (the batch closes at the loop's next check
 * phase: setImmediate), and come back a few at a time (ANSWER_CHUNK). The keys and struct types are handed to the
 * thread once, at start. Should the thread stop, what it had not answered is signed here, and so is all that
 * follows: a signature is never lost to it.
 */
export class SigningThread {
  private readonly material: SigningMaterial = { keys: [], structs: [] };
  private here: JobSigner | null = null;
  private worker: Worker | null = null;
  private queue: Pending[] = [];
  /** Batches sent to the thread, by id, with how many of their jobs are answered so far. */
  private readonly inFlight = new Map<number, { batch: Pending[]; answered: number }>();
  private next = 0;
  private scheduled = false;

  constructor(
    private readonly onFailure: (error: Error) => void,
    /** Told true when the thread starts and false when it stops (signing goes on here). */
    private readonly onRunning: (running: boolean) => void = () => {},
  ) {}

  /** Registers a key before the first job; returns the number its jobs name. */
  addKey(key: Uint8Array): number {
    return this.register(this.material.keys, key);
  }

  /** Registers an EIP-712 struct type before the first job; returns the number its jobs name. */
  addStruct(spec: StructSpec): number {
    return this.register(this.material.structs, spec);
  }

  private register<T>(list: T[], item: T): number {
    if (this.worker || this.here) throw new Error('keys and types are added before the first signature');
    list.push(item);
    return list.length - 1;
  }

  /** Signs on the event loop. */
  private get local(): JobSigner {
    this.here ??= new JobSigner(this.material);
    return this.here;
  }

  start(): void {
    const { file, execArgv } = workerEntry();
    // From now on the material is fixed (register refuses more): the thread and this loop sign with the same.
    void this.local;
    const worker = new Worker(file, {
      workerData: this.material,
      execArgv,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    worker.on('message', ({ id, out }: { id: number; out: Answer[] }) => this.answered(id, out));
    worker.on('error', (e) => this.onFailure(e));
    worker.on('exit', () => this.stopped(worker));
    // Never what keeps the process alive: the server, or a test, decides that.
    worker.unref();
    this.worker = worker;
    this.onRunning(true);
  }

  /**
   * Stops the thread; what it had not answered, and anything asked later, is signed in this thread. The thread is
   * asked to end between two signatures: terminate() during a native call aborts the whole process
   * (node-addon-api cannot throw into a terminating thread), so it is only the fallback for a thread that does not end.
   */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage(STOP);
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<void>((resolve) => {
      timer = setTimeout(() => void worker.terminate().then(() => resolve()), STOP_GRACE_MS);
    });
    await Promise.race([exited, stuck]);
    clearTimeout(timer);
  }

  sign(job: SignJob): Promise<string> {
    if (!this.worker) {
      try {
        return Promise.resolve(this.local.sign(job));
      } catch (e) {
        return Promise.reject(e as Error);
      }
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    if (!this.worker) return this.signHere(batch);
    const id = this.next++;
    this.inFlight.set(id, { batch, answered: 0 });
    this.worker.postMessage({ id, jobs: batch.map((p) => compact(p.job)) });
  };

  /** The next answers of batch `id`, in order (the thread sends a batch's answers a few at a time). */
  private answered(id: number, out: Answer[]): void {
    const sent = this.inFlight.get(id);
    if (!sent) return;
    for (const answer of out) {
      const p = sent.batch[sent.answered++];
      if (typeof answer === 'string') p.resolve(answer);
      else p.reject(new Error(answer?.error ?? 'the signing thread gave no answer'));
    }
    if (sent.answered >= sent.batch.length) this.inFlight.delete(id);
  }

  private stopped(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.onRunning(false);
    for (const { batch, answered } of this.inFlight.values()) this.signHere(batch.slice(answered));
    this.inFlight.clear();
    this.signHere(this.queue);
    this.queue = [];
  }

  private signHere(batch: Pending[]): void {
    for (const p of batch) {
      try {
        p.resolve(this.local.sign(p.job));
      } catch (e) {
        p.reject(e as Error);
      }
    }
  }
}
