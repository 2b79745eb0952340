/**
 * The JSON-RPC surface of a node, answered by the in-process EVM of evm.ts as an EIP-1193 object:
 * reads (eth_call, eth_getCode, eth_getBalance) and writes (eth_sendRawTransaction, decoded with ethers and run in
 * the VM, one transaction per mined block), with the receipts, blocks and fee answers that ethers' JsonRpcProvider
 * and Wallet ask for on the way. rpc-server.ts serves it over HTTP.
 */
import {
  type Eip1193Provider,
  getAddress,
  keccak256,
  toBeHex,
  toQuantity,
  Transaction,
  ZeroAddress,
  ZeroHash,
} from 'ethers';
import type { CallResult, Evm } from './evm';

interface RpcTransaction {
  from?: string;
  to?: string | null;
  data?: string;
  input?: string;
  value?: string;
}

interface Mined {
  block: number;
  tx: Transaction;
  result: CallResult;
}

interface MinedBlock {
  number: number;
  hash: string;
  timestamp: number;
  transactions: string[];
}

const GAS_PRICE = 1_000_000_000n;
const BLOCK_GAS_LIMIT = 30_000_000n;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }
}

const reverted = (result: CallResult) => new RpcError(3, 'execution reverted', result.returnData);

export class EvmEip1193 implements Eip1193Provider {
  /** Seconds added to the wall clock for the timestamp of the blocks calls run in: tests move time forward. */
  clockOffsetSeconds = 0;
  private readonly blocks: MinedBlock[] = [];
  private readonly mined = new Map<string, Mined>();

  constructor(
    private readonly evm: Evm,
    private readonly chain: number,
    readonly chainId: number,
  ) {
    this.blocks.push({ number: 0, hash: keccak256(toBeHex(chainId, 32)), timestamp: this.now(), transactions: [] });
  }

  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffsetSeconds;
  }

  async request({
    method,
    params,
  }: {
    method: string;
    params?: unknown[] | Record<string, unknown>;
  }): Promise<unknown> {
    const args = (Array.isArray(params) ? params : []) as unknown[];
    switch (method) {
      case 'eth_chainId':
        return toQuantity(this.chainId);
      case 'net_version':
        return String(this.chainId);
      case 'eth_blockNumber':
        return toQuantity(this.head().number);
      case 'eth_gasPrice':
      case 'eth_maxPriorityFeePerGas':
        return toQuantity(GAS_PRICE);
      case 'eth_getBlockByNumber':
        return this.block(args[0] as string);
      case 'eth_getBlockByHash':
        return this.block(args[0] as string);
      case 'eth_call': {
        const result = await this.evm.simulate(this.chain, this.evmTx(args[0] as RpcTransaction));
        if (!result.success) throw reverted(result);
        return result.returnData;
      }
      case 'eth_estimateGas': {
        const result = await this.evm.simulate(this.chain, this.evmTx(args[0] as RpcTransaction));
        if (!result.success) throw reverted(result);
        return toQuantity(result.gasUsed + 100_000n);
      }
      case 'eth_getTransactionCount':
        return toQuantity((await this.evm.account(this.chain, args[0] as string)).nonce);
      case 'eth_getBalance':
        return toQuantity((await this.evm.account(this.chain, args[0] as string)).balance);
      case 'eth_getCode':
        return (await this.evm.account(this.chain, args[0] as string)).code;
      case 'eth_sendRawTransaction':
        return this.send(args[0] as string);
      case 'eth_getTransactionReceipt':
        return this.receipt(args[0] as string);
      case 'eth_getTransactionByHash':
        return this.transaction(args[0] as string);
      default:
        throw new RpcError(-32601, `${method} is not served by the in-process EVM`);
    }
  }

  private evmTx(tx: RpcTransaction) {
    return {
      from: tx.from ?? ZeroAddress,
      to: tx.to ?? undefined,
      data: tx.data ?? tx.input ?? '0x',
      value: tx.value ? BigInt(tx.value) : 0n,
      timestamp: this.now(),
    };
  }

  /** Runs a signed transaction in a block of its own; a reverted one is mined too, with status 0, as on a chain. */
  private async send(raw: string): Promise<string> {
    const tx = Transaction.from(raw);
    if (!tx.from || !tx.hash) throw new RpcError(-32602, 'the transaction is not signed');
    if (tx.chainId !== BigInt(this.chainId))
      throw new RpcError(-32000, `chain id ${tx.chainId} is not ${this.chainId}`);
    const { nonce } = await this.evm.account(this.chain, tx.from);
    if (BigInt(tx.nonce) !== nonce)
      throw new RpcError(-32000, `nonce too ${BigInt(tx.nonce) < nonce ? 'low' : 'high'}`);
    const timestamp = this.now();
    const result = await this.evm.call(this.chain, {
      from: tx.from,
      to: tx.to ?? undefined,
      data: tx.data,
      value: tx.value,
      timestamp,
    });
    const number = this.head().number + 1;
    this.blocks.push({ number, hash: keccak256(toBeHex(number, 32)), timestamp, transactions: [tx.hash] });
    this.mined.set(tx.hash, { block: number, tx, result });
    return tx.hash;
  }

  private head(): MinedBlock {
    return this.blocks[this.blocks.length - 1];
  }

  private block(tag: string): Record<string, unknown> | null {
    const found =
      tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized'
        ? this.head()
        : tag === 'earliest'
          ? this.blocks[0]
          : this.blocks.find((b) => (tag.length === 66 ? b.hash === tag : b.number === Number(tag)));
    if (!found) return null;
    const parent = this.blocks[found.number - 1];
    return {
      number: toQuantity(found.number),
      hash: found.hash,
      parentHash: parent?.hash ?? ZeroHash,
      timestamp: toQuantity(found.timestamp),
      nonce: '0x0000000000000000',
      difficulty: '0x0',
      gasLimit: toQuantity(BLOCK_GAS_LIMIT),
      gasUsed: toQuantity(found.transactions.reduce((sum, h) => sum + this.mined.get(h)!.result.gasUsed, 0n)),
      miner: ZeroAddress,
      extraData: '0x',
      baseFeePerGas: '0x7',
      transactions: found.transactions,
    };
  }

  private receipt(hash: string): Record<string, unknown> | null {
    const m = this.mined.get(hash);
    if (!m) return null;
    const block = this.blocks[m.block];
    const created = m.result.success && !m.tx.to ? m.result.createdAddress : undefined;
    return {
      transactionHash: hash,
      transactionIndex: '0x0',
      blockHash: block.hash,
      blockNumber: toQuantity(m.block),
      from: m.tx.from,
      to: m.tx.to,
      contractAddress: created ? getAddress(created) : null,
      gasUsed: toQuantity(m.result.gasUsed + 21_000n),
      cumulativeGasUsed: toQuantity(m.result.gasUsed + 21_000n),
      effectiveGasPrice: toQuantity(GAS_PRICE),
      logsBloom: `0x${'00'.repeat(256)}`,
      type: toQuantity(m.tx.type ?? 0),
      status: m.result.success ? '0x1' : '0x0',
      logs: (m.result.success ? m.result.logs : []).map((log, index) => ({
        ...log,
        address: getAddress(log.address),
        blockHash: block.hash,
        blockNumber: toQuantity(m.block),
        transactionHash: hash,
        transactionIndex: '0x0',
        logIndex: toQuantity(index),
        removed: false,
      })),
    };
  }

  private transaction(hash: string): Record<string, unknown> | null {
    const m = this.mined.get(hash);
    if (!m) return null;
    const { tx } = m;
    return {
      hash,
      blockHash: this.blocks[m.block].hash,
      blockNumber: toQuantity(m.block),
      transactionIndex: '0x0',
      type: toQuantity(tx.type ?? 0),
      from: tx.from,
      to: tx.to,
      nonce: toQuantity(tx.nonce),
      gas: toQuantity(tx.gasLimit),
      gasPrice: toQuantity(tx.gasPrice ?? tx.maxFeePerGas ?? GAS_PRICE),
      maxFeePerGas: tx.maxFeePerGas === null ? undefined : toQuantity(tx.maxFeePerGas),
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas === null ? undefined : toQuantity(tx.maxPriorityFeePerGas),
      input: tx.data,
      value: toQuantity(tx.value),
      chainId: toQuantity(tx.chainId),
      r: tx.signature!.r,
      s: tx.signature!.s,
      v: toQuantity(tx.signature!.v),
      yParity: toQuantity(tx.signature!.yParity),
      accessList: tx.accessList ?? [],
    };
  }
}
