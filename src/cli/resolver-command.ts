import { getAddress, Interface, isAddress } from 'ethers';
import { CliFailure, type CliResult, UsageError } from '../common/command-line';
import { ChainUnavailableError } from '../chain/chain.errors';
import { ENSIP10_INTERFACE_ID } from '../chain/ens-abis';
import { EnsChain } from '../chain/ens-chain';
import { resolverArtifact } from '../chain/resolver-artifact';
import { loadConfig } from '../config/app-config';
import { checkResolver } from '../resolution/resolver-check';
import { httpGateway } from './http-gateway';
import type { ResolverArgs } from './resolver-options';
import {
  deployTx,
  deploymentFailure,
  deploymentRefusal,
  RefusedError,
  send,
  setSignersTx,
  setUrlTx,
  type UnsignedTx,
  useTx,
  walletFrom,
} from './resolver-transactions';

function address(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`give ${flag} ADDRESS`);
  if (!isAddress(value)) throw new UsageError(`${flag} must be a 0x-prefixed 20-byte address`);
  return getAddress(value);
}

const HTTP_URL = /^https?:\/\/\S+$/;

function urlTemplate(value: string | undefined): string {
  if (!value || !HTTP_URL.test(value)) throw new UsageError('--url-template must be an http(s) URL');
  return value;
}

/** Why a resolver transaction would revert, in words. */
function explainResolverRevert(resolver: string) {
  const abi = new Interface(resolverArtifact().abi);
  return (revert: string) => {
    const parsed = abi.parseError(revert);
    if (parsed?.name === 'OwnableUnauthorizedAccount') {
      return `refused: ${parsed.args[0]} is not the owner of the resolver ${resolver}; send from its owner (or --print for it)`;
    }
    return `refused: the transaction would revert (${parsed?.name ?? (revert === '0x' ? 'no reason given' : revert)})`;
  };
}

/** A write sends from --private-key-file, or prints the transaction with --print. */
function mustSendOrPrint(v: ResolverArgs['values']): void {
  if (!v.print && !v['private-key-file']) throw new UsageError('give --private-key-file FILE to send, or --print');
}

async function write(
  chain: EnsChain,
  v: ResolverArgs['values'],
  tx: UnsignedTx,
  what: string,
  explain: (revert: string) => string,
): Promise<{ output: string; sent?: { hash: string; block: number; contractAddress: string | null } }> {
  if (v.print) return { output: JSON.stringify(tx, null, 2) };
  const wallet = walletFrom(v['private-key-file']!, chain);
  if (!v.json) console.error(`sending ${what} from ${wallet.address} on chain ${chain.chainId} …`);
  const sent = await send(wallet, tx, explain);
  return { output: '', sent };
}

/** What a command does on the chain, once its arguments hold. */
type Work = (chain: EnsChain) => Promise<CliResult>;

function deploy(v: ResolverArgs['values']): Work {
  const signers = (v.signer ?? []).map((s) => address(s, '--signer'));
  if (signers.length === 0) throw new UsageError('resolver deploy needs at least one --signer ADDRESS');
  const template = urlTemplate(v['url-template']);
  if (v.print && !v.owner) throw new UsageError('resolver deploy --print needs --owner ADDRESS');
  mustSendOrPrint(v);
  const givenOwner = v.owner ? address(v.owner, '--owner') : undefined;
  return async (chain) => {
    const owner = givenOwner ?? walletFrom(v['private-key-file']!, chain).address;
    const tx = deployTx(chain, template, signers, owner);
    const { output, sent } = await write(chain, v, tx, 'the resolver deployment', deploymentRefusal(chain)).catch(
      (e: unknown) => {
        throw deploymentFailure(chain, e);
      },
    );
    if (!sent) return { output, exitCode: 0 };
    const result = { resolver: sent.contractAddress, owner, transactionHash: sent.hash, block: sent.block };
    if (v.json) return { output: JSON.stringify(result, null, 2), exitCode: 0 };
    return {
      output:
        `Resolver deployed at ${sent.contractAddress} (owner ${owner}, transaction ${sent.hash}).\n` +
        `Next: npm run cli -- resolver use PARENT --resolver ${sent.contractAddress}`,
      exitCode: 0,
    };
  };
}

function use(parent: string, v: ResolverArgs['values']): Work {
  const resolver = address(v.resolver, '--resolver');
  mustSendOrPrint(v);
  return async (chain) => {
    await mustBeWildcardResolver(chain, resolver);
    const { tx, via, owner } = await useTx(chain, parent, resolver);
    const explain = (revert: string) =>
      `refused: the ${via === 'nameWrapper' ? 'Name Wrapper' : 'ENS registry'} would revert ` +
      `(${revert === '0x' ? 'no reason given' : revert}); ${parent} is held by ${owner}: send from that account`;
    const { output, sent } = await write(chain, v, tx, `setResolver(${parent}) through the ${via}`, explain);
    if (!sent) return { output, exitCode: 0 };
    const result = { parentName: parent, resolver, via, transactionHash: sent.hash };
    if (v.json) return { output: JSON.stringify(result, null, 2), exitCode: 0 };
    const where = via === 'nameWrapper' ? 'the Name Wrapper' : 'the ENS registry';
    return {
      output: `${parent} now uses the resolver ${resolver} (set through ${where}, transaction ${sent.hash}).\nNext: npm run cli -- resolver check ${parent}`,
      exitCode: 0,
    };
  };
}

/** `resolver url` and `resolver signers`: one setting of a deployed resolver. */
function change(name: 'url' | 'signers', v: ResolverArgs['values']): Work {
  const resolver = address(v.resolver, '--resolver');
  const add = (v.add ?? []).map((a) => address(a, '--add'));
  const remove = (v.remove ?? []).map((a) => address(a, '--remove'));
  if (name === 'signers' && add.length + remove.length === 0) throw new UsageError('give --add or --remove');
  const template = name === 'url' ? urlTemplate(v['url-template']) : '';
  mustSendOrPrint(v);
  return async (chain) => {
    const tx = name === 'url' ? setUrlTx(chain, resolver, template) : setSignersTx(chain, resolver, add, remove);
    const { output, sent } = await write(chain, v, tx, `${name} of ${resolver}`, explainResolverRevert(resolver));
    if (!sent) return { output, exitCode: 0 };
    const changed =
      name === 'url'
        ? `sends lookups to ${template}`
        : `trusts ${add.join(', ') || 'no new signer'}${remove.length ? `, no longer ${remove.join(', ')}` : ''}`;
    if (v.json) return { output: JSON.stringify({ resolver, transactionHash: sent.hash }, null, 2), exitCode: 0 };
    return { output: `The resolver ${resolver} now ${changed} (transaction ${sent.hash}).`, exitCode: 0 };
  };
}

function check(parent: string, v: ResolverArgs['values'], publicUrl: string | undefined): Work {
  const origin = v.gateway ?? publicUrl;
  if (!origin) throw new UsageError('give --gateway ORIGIN (or set PUBLIC_URL)');
  return async (chain) => {
    const check = await checkResolver(chain, httpGateway(origin), parent);
    const exitCode = check.ok ? 0 : 1;
    if (v.json) return { output: JSON.stringify(check, null, 2), exitCode };
    // One line per step on stdout (CONTRACT section 13), the verdict in words apart.
    const lines = check.steps.map((s) => `${s.ok ? 'ok  ' : 'FAIL'} ${s.step.padEnd(8)} ${s.detail}`);
    const verdict = check.ok ? `${parent} resolves through this service.` : `${parent} does not resolve yet.`;
    return { output: lines.join('\n'), exitCode, verdict };
  };
}

/** The command's work, its arguments checked first: a usage error is told before the chain is asked anything. */
function workOf({ command, parent, values }: ResolverArgs, publicUrl: string | undefined): Work {
  switch (command) {
    case 'deploy':
      return deploy(values);
    case 'use':
      return use(parent!, values);
    case 'url':
    case 'signers':
      return change(command, values);
    case 'check':
      return check(parent!, values, publicUrl);
    default:
      throw new UsageError(`unknown resolver command ${command}`);
  }
}

/** A parent pointed at an account without code, or at a resolver without ENSIP-10, stops resolving its subnames. */
async function mustBeWildcardResolver(chain: EnsChain, resolver: string): Promise<void> {
  if (!(await chain.hasCode(resolver))) {
    throw new RefusedError(
      `refused: no contract at ${resolver} on chain ${chain.chainId}; deploy one first (npm run cli -- resolver deploy)`,
    );
  }
  if (!(await chain.supportsInterface(resolver, ENSIP10_INTERFACE_ID))) {
    throw new RefusedError(
      `refused: ${resolver} does not support ENSIP-10 (supportsInterface(${ENSIP10_INTERFACE_ID}) is false); ` +
        'give the address of the resolver deployed with npm run cli -- resolver deploy',
    );
  }
}

/** The endpoint failed or did not answer: the CLI's advice replaces the service's "try again shortly". */
function unreadable(e: ChainUnavailableError): CliFailure {
  const retry = /; try again shortly$/;
  return new CliFailure(
    retry.test(e.message)
      ? e.message.replace(retry, ': check --rpc-url (default ENS_RPC_URL) and that the node is running')
      : e.message,
  );
}

/** `npm run cli -- resolver …` (parsed by parseResolver): the output and the exit code (see RESOLVER_USAGE). */
export async function runResolver(args: ResolverArgs): Promise<CliResult> {
  const config = loadConfig();
  const work = workOf(args, config.publicUrl);
  const rpcUrl = args.values['rpc-url'] ?? config.ens.rpcUrl;
  if (!rpcUrl) throw new UsageError('give --rpc-url URL (or set ENS_RPC_URL)');
  if (!HTTP_URL.test(rpcUrl)) throw new UsageError('--rpc-url must be an http(s) JSON-RPC URL');
  let chain: EnsChain | undefined;
  try {
    chain = await EnsChain.connect({ rpcUrl, registry: config.ens.registry, nameWrapper: config.ens.nameWrapper });
    return await work(chain);
  } catch (e) {
    throw e instanceof ChainUnavailableError ? unreadable(e) : e;
  } finally {
    chain?.destroy();
  }
}
