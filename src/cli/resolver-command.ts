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
  if (!value || !isAddress(value)) throw new UsageError(`${flag} must be a 0x-prefixed 20-byte address`);
  return getAddress(value);
}

function urlTemplate(value: string | undefined): string {
  if (!value || !/^https?:\/\/\S+$/.test(value)) throw new UsageError('--url-template must be an http(s) URL');
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

async function write(
  chain: EnsChain,
  v: ResolverArgs['values'],
  tx: UnsignedTx,
  what: string,
  explain: (revert: string) => string,
): Promise<{ output: string; sent?: { hash: string; block: number; contractAddress: string | null } }> {
  if (v.print) return { output: JSON.stringify(tx, null, 2) };
  if (!v['private-key-file']) throw new UsageError('give --private-key-file FILE to send, or --print');
  const wallet = walletFrom(v['private-key-file'], chain);
  if (!v.json) console.error(`sending ${what} from ${wallet.address} on chain ${chain.chainId} …`);
  const sent = await send(wallet, tx, explain);
  return { output: '', sent };
}

/** The chain could not be read (the resolver commands' own exit code). */
const EXIT_CHAIN_UNAVAILABLE = 3;

async function command(v: ResolverArgs['values'], positionals: string[]): Promise<CliResult> {
  const [name, parent] = positionals;
  const config = loadConfig();
  const rpcUrl = v['rpc-url'] ?? config.ens.rpcUrl;
  if (!rpcUrl) throw new UsageError('give --rpc-url URL (or set ENS_RPC_URL)');
  const chain = await EnsChain.connect({ rpcUrl, registry: config.ens.registry, nameWrapper: config.ens.nameWrapper });
  try {
    switch (name) {
      case 'deploy': {
        const signers = (v.signer ?? []).map((s) => address(s, '--signer'));
        if (signers.length === 0) throw new UsageError('resolver deploy needs at least one --signer ADDRESS');
        const template = urlTemplate(v['url-template']);
        if (v.print && !v.owner) throw new UsageError('resolver deploy --print needs --owner ADDRESS');
        const owner = v.owner
          ? address(v.owner, '--owner')
          : walletFrom(v['private-key-file'] ?? fail(), chain).address;
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
      }
      case 'use': {
        if (!parent) throw new UsageError('resolver use needs the parent name');
        const resolver = address(v.resolver, '--resolver');
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
      }
      case 'url':
      case 'signers': {
        const resolver = address(v.resolver, '--resolver');
        const add = (v.add ?? []).map((a) => address(a, '--add'));
        const remove = (v.remove ?? []).map((a) => address(a, '--remove'));
        if (name === 'signers' && add.length + remove.length === 0) throw new UsageError('give --add or --remove');
        const tx =
          name === 'url'
            ? setUrlTx(chain, resolver, urlTemplate(v['url-template']))
            : setSignersTx(chain, resolver, add, remove);
        const { output, sent } = await write(chain, v, tx, `${name} of ${resolver}`, explainResolverRevert(resolver));
        if (!sent) return { output, exitCode: 0 };
        const change =
          name === 'url'
            ? `sends lookups to ${v['url-template']}`
            : `trusts ${add.join(', ') || 'no new signer'}${remove.length ? `, no longer ${remove.join(', ')}` : ''}`;
        if (v.json) return { output: JSON.stringify({ resolver, transactionHash: sent.hash }, null, 2), exitCode: 0 };
        return { output: `The resolver ${resolver} now ${change} (transaction ${sent.hash}).`, exitCode: 0 };
      }
      case 'check': {
        if (!parent) throw new UsageError('resolver check needs the parent name');
        const origin = v.gateway ?? config.publicUrl;
        if (!origin) throw new UsageError('give --gateway ORIGIN (or set PUBLIC_URL)');
        const check = await checkResolver(chain, httpGateway(origin), parent);
        const exitCode = check.ok ? 0 : 1;
        if (v.json) return { output: JSON.stringify(check, null, 2), exitCode };
        const lines = check.steps.map((s) => `${s.ok ? 'ok  ' : 'FAIL'} ${s.step.padEnd(8)} ${s.detail}`);
        lines.push(check.ok ? `${parent} resolves through this service.` : `${parent} does not resolve yet.`);
        return { output: lines.join('\n'), exitCode };
      }
      default:
        throw new UsageError(`unknown resolver command ${name ?? ''}`.trim());
    }
  } finally {
    chain.destroy();
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

function fail(): never {
  throw new UsageError('give --private-key-file FILE (the owner defaults to its address), or --owner ADDRESS');
}

/** `npm run cli -- resolver …` (parsed by parseResolver): the output and the exit code (see RESOLVER_USAGE). */
export async function runResolver({ values, positionals }: ResolverArgs): Promise<CliResult> {
  try {
    return await command(values, positionals);
  } catch (e) {
    if (e instanceof ChainUnavailableError) throw new CliFailure(e.message, EXIT_CHAIN_UNAVAILABLE);
    throw e;
  }
}
