import { Logger } from '@nestjs/common';
import { ensNormalize, formatEther, getAddress, isAddress } from 'ethers';
import { CliFailure, type CliResult, UsageError } from '../common/command-line';
import { type AppConfig, loadConfig } from '../config/app-config';
import type { DevChain } from '../dev-chain/dev-chain';
import { gatewayUrlTemplate } from '../resolution/resolution.service';
import { ccipSignerSource } from '../signing/signing.service';
import { loadSignerKey, SignerConfigError } from '../signing/signer-key';
import type { DevChainArgs } from './dev-chain-options';

/** A `.eth` second-level name, the kind the registrar registers, normalised (ENSIP-15). */
function parentName(value: string): string {
  let name: string;
  try {
    name = ensNormalize(value);
  } catch {
    name = '';
  }
  if (!/^[^.]+\.eth$/.test(name)) throw new UsageError('--parent must be a .eth second-level name such as oak.eth');
  return name;
}

/** The address the service signs gateway answers with: the same key source as the service, in the same DATA_DIR. */
function serviceSigner(config: AppConfig): string {
  try {
    return loadSignerKey(ccipSignerSource(config), config, new Logger('dev-chain')).address;
  } catch (e) {
    if (e instanceof SignerConfigError) throw new CliFailure(`${e.message}, or give --signer ADDRESS`);
    throw e;
  }
}

/** The chain code needs the devDependencies (@ethereumjs/vm, @ensdomains/ens); a production install has none. */
async function loadDevChain(): Promise<typeof import('../dev-chain/dev-chain.js')> {
  try {
    return await import('../dev-chain/dev-chain.js');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    const missing = /'([^']+)'/.exec((e as Error).message)?.[1] ?? 'a module';
    throw new CliFailure(`dev-chain needs the devDependencies (${missing} is missing): run npm install in a clone`);
  }
}

function describe(chain: DevChain, parent: string, signer: string, publicUrl: string): string {
  const env = { ...chain.settings, PUBLIC_URL: publicUrl };
  return [
    `A local chain runs at ${chain.url} (chain id ${chain.settings.ENS_CHAIN_ID}), in memory: it is gone when this stops.`,
    '',
    'Start the service with these settings (paste them into the shell before npm start):',
    ...Object.entries(env).map(([k, v]) => `export ${k}=${v}`),
    '',
    `TEST KEY, never use it on a real chain (everyone knows it): it holds ${parent} and ${formatEther(chain.balance)} ETH.`,
    `  address     ${chain.holder.address}`,
    `  private key ${chain.holder.privateKey}`,
    '',
    `${parent} uses the resolver ${chain.resolver}, which trusts the gateway signer ${signer}.`,
    `Then: npm run cli -- resolver check ${parent}; the portal at ${publicUrl}/portal (a wallet on`,
    `${chain.url}, chain id ${chain.settings.ENS_CHAIN_ID}, with the test key imported); the claim page at`,
    `${publicUrl}/portal/claim?parent=${parent}. Ctrl-C stops the chain.`,
  ].join('\n');
}

/** `npm run cli -- dev-chain` (parsed by parseDevChain): prints the settings, then serves the chain until SIGINT or SIGTERM. */
export async function runDevChain({ port, chainId, ...given }: DevChainArgs): Promise<CliResult> {
  const parent = parentName(given.parent ?? 'oak.eth');
  if (given.signer !== undefined && !isAddress(given.signer)) {
    throw new UsageError('--signer must be a 0x-prefixed 20-byte address');
  }
  const { startDevChain } = await loadDevChain();
  const config = loadConfig();
  if (!config.publicUrl) throw new UsageError('set PUBLIC_URL, the origin the service will answer lookups on');
  const signer = given.signer ? getAddress(given.signer) : serviceSigner(config);
  const urlTemplate = gatewayUrlTemplate(config.publicUrl);
  const chain = await startDevChain({ port, chainId, parent, signer, urlTemplate }).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new CliFailure(`port ${port} on 127.0.0.1 is in use: give another with --port PORT`);
    }
    throw e;
  });
  console.log(describe(chain, parent, signer, config.publicUrl));
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await chain.close();
  return { output: `dev-chain stopped (${signal}).`, exitCode: 0 };
}
