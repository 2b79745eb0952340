import { Injectable } from '@nestjs/common';
import { checksumAddress } from '../common/ens/evm-address';
import { nameHash } from '../common/ens/names';
import { ValidationFailedError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { PrimaryNamesService } from '../primary-names/primary-names.service';
import { SigningService } from '../signing/signing.service';
import { SubnamesService } from '../subnames/subnames.service';
import { alignedExpires, answerEtag, etagMatches, sharedMaxAge } from './answer-caching';
import { encodeGatewayResponse } from './answer-encoding';
import { CcipSignerResponse } from './dto/ccip-read.dto';
import { answerBytes } from './record-answers';
import { calldataBytes, decodeResolveBytes } from './request-decoding';
import { CalldataError, UnsupportedResolverCallError } from './resolution.errors';

/** Cache lifetime of an answer for a name without a ttl of its own. */
export const DEFAULT_MAX_AGE_SECONDS = 60;
export const CCIP_READ_PATH = 'ccip-read';

/** The GET URL template of the gateway at this public origin (EIP-3668 fills in {sender} and {data}). */
export function gatewayUrlTemplate(publicUrl: string): string;
export function gatewayUrlTemplate(publicUrl: string | undefined): string | null;
export function gatewayUrlTemplate(publicUrl: string | undefined): string | null {
  return publicUrl === undefined ? null : `${publicUrl}/api/v1/${CCIP_READ_PATH}/{sender}/{data}.json`;
}

/** A signed gateway answer (none when the client's copy is current), how long caches may keep it, what it read. */
export interface GatewayAnswer {
  /** Empty when `notModified`. */
  data: string;
  notModified: boolean;
  etag: string;
  maxAgeSeconds: number;
  sharedMaxAgeSeconds: number;
  /** The namehash of every name the answer read: the asked name, and for name() the chosen primary name. */
  nodes: string[];
}

/** fn's value, or the 400 problem that names what is wrong with the request. */
function orRefuse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof CalldataError)) throw e;
    if (e.unsupported) throw new UnsupportedResolverCallError(e.field, e.message);
    throw new ValidationFailedError([{ field: e.field, message: e.message }]);
  }
}

/**
 * The CCIP-Read gateway (ENSIP-10, EIP-3668): decodes what an offchain resolver asks, answers it from the stored
 * records (empty values for a name that is not stored) and signs the answer for that resolver.
 */
@Injectable()
export class ResolutionService {
  constructor(
    private readonly subnames: SubnamesService,
    private readonly signing: SigningService,
    private readonly primaryNames: PrimaryNamesService,
    private readonly config: AppConfig,
  ) {}

  /** With `ifNoneMatch` naming the answer's ETag, no signature is made: the caller answers 304. */
  async resolve(sender: string, data: string, ifNoneMatch?: string): Promise<GatewayAnswer> {
    const bytes = orRefuse(() => calldataBytes(data));
    const request = orRefuse(() => decodeResolveBytes(bytes));
    const records = await this.subnames.records(request.name);
    const asksName = request.queries.some((q) => q.kind === 'name');
    const reverse = asksName ? await this.primaryNames.reverseLookup(request.name) : undefined;
    const result = orRefuse(() => answerBytes(request, records, reverse?.answer ?? '', bytes.length));
    const lifetime = this.config.ccip.signatureTtlSeconds;
    const now = Math.floor(Date.now() / 1000);
    const expires = alignedExpires(now, lifetime);
    const signer = this.signing.ccipAddress;
    const etag = answerEtag(signer, sender, expires, bytes, result);
    const notModified = etagMatches(ifNoneMatch, etag);
    const signature = notModified
      ? ''
      : await this.signing.signCcipAnswer(checksumAddress(sender), BigInt(expires), bytes, result);
    return {
      data: notModified ? '' : encodeGatewayResponse(result, BigInt(expires), signature),
      notModified,
      etag,
      // A cached answer keeps at least half its signature's lifetime.
      maxAgeSeconds: Math.min(records?.ttl ?? DEFAULT_MAX_AGE_SECONDS, Math.floor(lifetime / 2)),
      sharedMaxAgeSeconds: sharedMaxAge(this.config.resolutionCache.sharedSeconds, expires, now),
      nodes: reverse?.chosen ? [request.node, nameHash(reverse.chosen)] : [request.node],
    };
  }

  /** The signer a resolver must trust, and the URL template to give it: on PUBLIC_URL, never on a request's Host. */
  signer(): CcipSignerResponse {
    return {
      address: this.signing.ccipAddress,
      signatureTtlSeconds: this.config.ccip.signatureTtlSeconds,
      urlTemplate: gatewayUrlTemplate(this.config.publicUrl),
    };
  }
}
