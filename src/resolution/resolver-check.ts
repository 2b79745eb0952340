import { randomBytes } from 'node:crypto';
import { AbiCoder, concat, dnsEncode, getAddress, namehash, ZeroAddress } from 'ethers';
import { EnsChain } from '../chain/ens-chain';
import { ENSIP10_INTERFACE_ID, EXTENDED_RESOLVER, RECORDS } from '../chain/ens-abis';
import { MAX_LABEL_BYTES } from '../common/ens/names';

export const CHECK_STEPS = ['registry', 'wildcard', 'gateway', 'signer', 'answer'] as const;
export type CheckStepName = (typeof CHECK_STEPS)[number];

export interface CheckStep {
  step: CheckStepName;
  ok: boolean;
  detail: string;
}

export interface ResolverCheck {
  parentName: string;
  ok: boolean;
  steps: CheckStep[];
}

/** What the check asks of the gateway: in process for the status route, over HTTP for the CLI. */
export interface GatewayView {
  /** The gateway's signer and GET URL template (null while the service has no public origin). */
  signer(): Promise<{ address: string; urlTemplate: string | null }>;
  /** The gateway's response `data` to an OffchainLookup of `sender` with this callData. */
  answer(sender: string, callData: string): Promise<string>;
  /** A subname of the parent to resolve: a stored one if there is one, else an unstored label. */
  probeName(parentName: string): Promise<string>;
}

const CLI = 'npm run cli -- resolver';
const coder = AbiCoder.defaultAbiCoder();

interface Lookup {
  sender: string;
  urls: string[];
  callData: string;
  callback: string;
  extraData: string;
}

class StepFailure extends Error {}
const fail = (detail: string): never => {
  throw new StepFailure(detail);
};

/** The POST form of a GET template: the same path without /{sender}/{data}.json (EIP-3668). */
const postForm = (template: string) => template.replace(/\/\{sender\}\/\{data\}(\.json)?$/, '');

/** A decoded return value, or null when the contract answered something else. */
function decoded<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null;
  }
}

/** A subname nobody stores: its signed empty answer proves the same path as a stored one's. */
export const unstoredProbe = (parentName: string) => `check-${randomBytes(6).toString('hex')}.${parentName}`;

/** DNS wire form with labels up to 255 bytes, as the gateway reads them (ethers defaults to 63); null beyond. */
function dnsWire(name: string): string | null {
  return decoded(() => dnsEncode(name, MAX_LABEL_BYTES));
}

function errorName(revert: string): string {
  const parsed = decoded(() => EXTENDED_RESOLVER.parseError(revert));
  return parsed ? `${parsed.name}(${parsed.args.join(', ')})` : `revert data ${revert.slice(0, 74)}`;
}

/**
 * The five checks that a parent name resolves through this service, in order; each failure says what to do next.
 * A contract's refusal fails a step; a chain that cannot be read throws ChainUnavailableError out of the whole check.
 */
export async function checkResolver(chain: EnsChain, gateway: GatewayView, parentName: string): Promise<ResolverCheck> {
  let resolver = ZeroAddress;
  let lookup: Lookup | undefined;
  let probe = '';
  let signer = '';
  let signerInfo: ReturnType<GatewayView['signer']> | undefined;
  const gatewaySigner = async () => {
    try {
      return await (signerInfo ??= gateway.signer());
    } catch (e) {
      return fail(`The gateway did not say its signer and URL (GET /api/v1/ccip-read/signer): ${(e as Error).message}`);
    }
  };
  /** The deploy command with this service's own URL template and signer, when the gateway says them. */
  const deployCommand = async () => {
    const info = await (signerInfo ??= gateway.signer()).catch(() => null);
    return info?.urlTemplate
      ? `${CLI} deploy --url-template ${info.urlTemplate} --signer ${info.address}`
      : `${CLI} deploy --url-template URL --signer ADDRESS`;
  };
  const run: Record<CheckStepName, () => Promise<string>> = {
    registry: async () => {
      const found = await chain.resolverOf(parentName);
      if (found) {
        resolver = getAddress(found);
        return `${parentName} has the resolver ${resolver} in the ENS registry ${chain.registry}`;
      }
      const holder = await chain.holder(parentName);
      if (holder.registryOwner === ZeroAddress) {
        return fail(`${parentName} is not registered in the ENS registry ${chain.registry} (chain ${chain.chainId})`);
      }
      return fail(
        `${parentName} has no resolver: deploy one with \`${await deployCommand()}\` and ` +
          `set it with \`${CLI} use ${parentName} --resolver <the address it prints>\` (sent by ${holder.owner})`,
      );
    },
    wildcard: async () => {
      if (await chain.supportsInterface(resolver, ENSIP10_INTERFACE_ID)) {
        return `${resolver} supports ENSIP-10 wildcard resolution (resolve(bytes,bytes))`;
      }
      return fail(
        `${resolver} does not support ENSIP-10 (supportsInterface(${ENSIP10_INTERFACE_ID}) is false), so subnames ` +
          `of ${parentName} cannot resolve through it: deploy this project's resolver with \`${await deployCommand()}\` ` +
          `and set it with \`${CLI} use ${parentName} --resolver <the address it prints>\``,
      );
    },
    gateway: async () => {
      const { urlTemplate } = await gatewaySigner();
      if (!urlTemplate) return fail('The service has no public URL: set PUBLIC_URL to its public origin');
      probe = await gateway.probeName(parentName);
      let encoded = dnsWire(probe);
      if (!encoded) {
        // A stored name no resolver can be asked about (a label over 255 bytes): an unstored label proves the same.
        probe = unstoredProbe(parentName);
        encoded =
          dnsWire(probe) ??
          fail(`${parentName} has a label over ${MAX_LABEL_BYTES} bytes: no resolver can be asked about it`);
      }
      const out = await chain.call(
        resolver,
        EXTENDED_RESOLVER.encodeFunctionData('resolve', [
          encoded,
          RECORDS.encodeFunctionData('addr', [namehash(probe)]),
        ]),
      );
      const parsed = out.ok ? null : decoded(() => EXTENDED_RESOLVER.parseError(out.revert));
      if (parsed?.name !== 'OffchainLookup') {
        return fail(
          `${resolver} answered resolve(${probe}) without an OffchainLookup (${out.ok ? 'a value on chain' : errorName(out.revert)}): ` +
            `it is not an offchain resolver; deploy this project's with \`${CLI} deploy\``,
        );
      }
      const [sender, urls, callData, callback, extraData] = parsed.args as unknown as [
        string,
        string[],
        string,
        string,
        string,
      ];
      lookup = { sender, urls: [...urls], callData, callback, extraData };
      const expected = [urlTemplate, postForm(urlTemplate)];
      if (lookup.urls.some((u) => expected.includes(u))) {
        return `${resolver} sends lookups to this service (${lookup.urls.join(', ')})`;
      }
      return fail(
        `${resolver} sends lookups to ${lookup.urls.join(', ') || 'no URL'}, not to this service's ${urlTemplate}: ` +
          `run \`${CLI} url --resolver ${resolver} --url-template ${urlTemplate}\` (sent by the resolver's owner)`,
      );
    },
    signer: async () => {
      signer = getAddress((await gatewaySigner()).address);
      const out = await chain.call(resolver, EXTENDED_RESOLVER.encodeFunctionData('signers', [signer]));
      const trusted = out.ok ? decoded(() => EXTENDED_RESOLVER.decodeFunctionResult('signers', out.data)[0]) : null;
      if (trusted === null) {
        return fail(
          `${resolver} does not answer signers(address), so its trusted signers cannot be checked: deploy this project's resolver with \`${CLI} deploy\``,
        );
      }
      if (trusted === true) {
        return `${resolver} trusts this service's signer ${signer}`;
      }
      return fail(
        `${resolver} does not trust this service's signer ${signer}: run \`${CLI} signers --resolver ${resolver} ` +
          `--add ${signer}\` (sent by the resolver's owner), or set CCIP_SIGNER_KEY to a key it trusts`,
      );
    },
    answer: async () => {
      const l = lookup!;
      let response: string;
      try {
        response = await gateway.answer(l.sender, l.callData);
        if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(response)) throw new Error('its answer is not hex bytes');
      } catch (e) {
        return fail(`The gateway did not answer the lookup for ${probe}: ${(e as Error).message}`);
      }
      const out = await chain.call(
        resolver,
        concat([l.callback, coder.encode(['bytes', 'bytes'], [response, l.extraData])]),
      );
      if (!out.ok) {
        const why = errorName(out.revert);
        const hint = why.startsWith('SignatureExpired')
          ? "the chain's clock is past the answer's expiry: check the service's clock and CCIP_SIGNATURE_TTL_SECONDS"
          : `check that CCIP_SIGNER_KEY is the key of ${signer} and that the resolver trusts it`;
        return fail(`${resolver} refused the gateway's answer for ${probe} (${why}): ${hint}`);
      }
      const address = decoded(() => {
        const [result] = coder.decode(['bytes'], out.data) as unknown as [string];
        return RECORDS.decodeFunctionResult('addr', result)[0] as string;
      });
      if (address === null) {
        return fail(
          `${resolver} accepted the gateway's answer for ${probe} but returned something other than an address`,
        );
      }
      const value = address === ZeroAddress ? 'no address (a signed empty answer)' : `the address ${address}`;
      return `${probe} resolves through ${resolver} to ${value}, the signature verified by the contract itself`;
    },
  };
  const steps: CheckStep[] = [];
  let failed: CheckStepName | undefined;
  for (const step of CHECK_STEPS) {
    if (failed) {
      steps.push({ step, ok: false, detail: `Not run: the ${failed} step failed` });
      continue;
    }
    try {
      steps.push({ step, ok: true, detail: await run[step]() });
    } catch (e) {
      if (!(e instanceof StepFailure)) throw e;
      steps.push({ step, ok: false, detail: e.message });
      failed = step;
    }
  }
  return { parentName, ok: failed === undefined, steps };
}
