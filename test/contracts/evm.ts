import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface CallResult {
  success: boolean;
  error?: string;
  returnData: string;
  logs: { address: string; topics: string[]; data: string }[];
}

/** A test's handle on the in-memory chains of evm-host.ts (a child Node process; see there for why). */
export class Evm {
  private next = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private stderr = '';

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line) as { id: number; result?: unknown; error?: string };
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.error !== undefined) p?.reject(new Error(msg.error));
      else p?.resolve(msg.result);
    });
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    child.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`evm host exited with ${code}: ${this.stderr}`));
      this.pending.clear();
    });
  }

  static start(): Evm {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, 'evm-host.ts')], {
      cwd: join(__dirname, '..', '..'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new Evm(child);
  }

  private request<T>(body: Record<string, unknown>): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin!.write(`${JSON.stringify({ id, ...body })}\n`);
    });
  }

  /** A fresh chain with this chain id (what the CHAINID opcode and so EIP-712 domains see). */
  async chain(chainId: number): Promise<number> {
    return (await this.request<{ chain: number }>({ op: 'chain', chainId })).chain;
  }

  async deploy(chain: number, from: string, data: string): Promise<string> {
    return (await this.request<{ address: string }>({ op: 'deploy', chain, from, data })).address;
  }

  /** Runs a transaction from `from` in a block with this timestamp; state changes persist. */
  call(
    chain: number,
    tx: { from: string; to: string; data: string; value?: bigint; timestamp: number },
  ): Promise<CallResult> {
    return this.request<CallResult>({ op: 'call', chain, ...tx, value: (tx.value ?? 0n).toString() });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin!.end();
    });
  }
}
