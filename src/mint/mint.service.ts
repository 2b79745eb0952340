import { Injectable } from '@nestjs/common';
import { formatEther } from 'ethers';
import { parentNameHash } from '../common/ens/names';
import { ValidationFailedError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { SubnamesService } from '../subnames/subnames.service';
import { EstimateQueryDto, EstimateResponse, MintValidationError } from './dto/estimate.dto';
import { MintParametersResponse, MintRequestDto } from './dto/mint.dto';
import { SignerResponse } from './dto/signer.dto';
import type { ListingEntity } from '../listings/listing.entity';
import { ListingsService } from '../listings/listings.service';
import { MintContent, Network, networkOf } from '../signing/mint-context';
import { ListingNotFoundError } from '../listings/listings.errors';
import { SubnameReservedError, SubnameTakenError } from './mint.errors';
import { fitsUint256, nameExpiry, quote, Quote } from '../listings/pricing';
import { SigningService } from '../signing/signing.service';

/** A request as the checks and the content use it. */
interface MintTarget {
  network: Network;
  label: string;
  parentName: string;
  fullName: string;
  years: number;
}

/** What the checks found, in the contract's order; `listing` is null when there is no active one. */
interface Evaluation {
  listing: ListingEntity | null;
  quote: Quote;
  errors: MintValidationError[];
}

export interface ContentInput {
  listing: Pick<ListingEntity, 'expirable' | 'paymentReceiver' | 'fuses'>;
  /** The price and fee the checks computed for this label and these years. */
  quote: Quote;
  label: string;
  parentName: string;
  minterAddress: string;
  owner?: string;
  years: number;
  nowSeconds: number;
  signatureTtlSeconds: number;
}

/** The signed content of docs/reference.md#mint, from a listing and a request the pipe made canonical (EIP-55). */
export function buildContent(i: ContentInput): MintContent {
  return {
    label: i.label,
    parentNode: parentNameHash(i.parentName),
    owner: i.owner ?? i.minterAddress,
    price: i.quote.price.toString(),
    fee: i.quote.fee.toString(),
    paymentReceiver: i.listing.paymentReceiver,
    expiry: nameExpiry(i.listing.expirable, i.years, i.nowSeconds),
    signatureExpiry: i.nowSeconds + i.signatureTtlSeconds,
    verifiedMinter: i.minterAddress,
    fuses: i.listing.fuses,
  };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

@Injectable()
export class MintService {
  constructor(
    private readonly listings: ListingsService,
    private readonly subnames: SubnamesService,
    private readonly signer: SigningService,
    private readonly config: AppConfig,
  ) {}

  /** Checks in the contract's order (listing 404, reserved 409, taken 409), then signs the content. */
  async mintParameters(dto: MintRequestDto): Promise<MintParametersResponse> {
    const target = this.target(dto);
    const { listing, quote: q, errors } = await this.evaluate(target);
    if (!listing) throw new ListingNotFoundError(target.network, target.parentName);
    if (errors.includes('SUBNAME_RESERVED')) throw new SubnameReservedError(target.label, target.parentName);
    if (errors.includes('SUBNAME_TAKEN')) throw new SubnameTakenError(target.fullName);
    const content = buildContent({
      listing,
      quote: q,
      label: target.label,
      parentName: target.parentName,
      minterAddress: dto.minterAddress,
      owner: dto.owner,
      years: target.years,
      nowSeconds: nowSeconds(),
      signatureTtlSeconds: this.config.mint.signatureTtlSeconds,
    });
    return { content, signature: await this.signer.sign(target.network, content) };
  }

  /** The same checks as a mint, reported instead of refused; nothing is signed. */
  async estimate(query: EstimateQueryDto): Promise<EstimateResponse> {
    const { listing, quote: q, errors } = await this.evaluate(this.target(query));
    return {
      canMint: errors.length === 0,
      price: q.price.toString(),
      fee: q.fee.toString(),
      estimatedPriceEth: Number(formatEther(q.price)),
      estimatedFeeEth: Number(formatEther(q.fee)),
      isStandardFee: listing !== null,
      validationErrors: errors,
    };
  }

  signerInfo(isTestnet: boolean | undefined): SignerResponse {
    return this.signer.info(networkOf(isTestnet));
  }

  /** The DTO's label and parent come normalised from the pipe. */
  private target(req: { label: string; parentName: string; expiryInYears?: number; isTestnet?: boolean }): MintTarget {
    return {
      network: networkOf(req.isTestnet),
      label: req.label,
      parentName: req.parentName,
      fullName: `${req.label}.${req.parentName}`,
      years: req.expiryInYears ?? 1,
    };
  }

  private async evaluate(t: MintTarget): Promise<Evaluation> {
    const listing = await this.listings.findActive(t.network, t.parentName);
    if (!listing) return { listing: null, quote: { price: 0n, fee: 0n }, errors: ['LISTING_NOT_FOUND'] };
    const q = quote(listing, t.label, t.years);
    if (!fitsUint256(q)) {
      throw new ValidationFailedError([
        { field: 'expiryInYears', message: 'makes price plus fee exceed 2^256 - 1 wei for this listing' },
      ]);
    }
    const errors: MintValidationError[] = [];
    if (listing.reservedLabels.includes(t.label)) errors.push('SUBNAME_RESERVED');
    if (await this.subnames.exists(t.fullName)) errors.push('SUBNAME_TAKEN');
    return { listing, quote: q, errors };
  }
}
