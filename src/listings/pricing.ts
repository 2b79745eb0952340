import { labelLength } from '../common/ens/names';
import { NO_EXPIRY } from '../signing/mint-context';

/** 2^256: prices, fees and their sum must stay below it to fit the contract's uint256. */
export const UINT256_LIMIT = 1n << 256n;
export const SECONDS_PER_YEAR = 365 * 24 * 60 * 60;
export const MAX_YEARS = 100;

/** The parts of a listing that decide what a mint costs. */
export interface PriceList {
  price: string;
  lengthPrices: Record<string, string>;
  fee: string;
  expirable: boolean;
}

export interface Quote {
  price: bigint;
  fee: bigint;
}

/**
 * Price and fee in wei: the price for the label's length (an exact `lengthPrices` entry, else the base price)
 * and the fee, each times the years when the listing is expirable (a non-expirable name is bought once).
 */
export function quote(listing: PriceList, label: string, years: number): Quote {
  const length = String(labelLength(label));
  const base = Object.hasOwn(listing.lengthPrices, length) ? listing.lengthPrices[length] : listing.price;
  const factor = listing.expirable ? BigInt(years) : 1n;
  return { price: BigInt(base) * factor, fee: BigInt(listing.fee) * factor };
}

/** The contract adds price and fee in uint256; a quote whose sum would overflow cannot be minted. */
export function fitsUint256(q: Quote): boolean {
  return q.price + q.fee < UINT256_LIMIT;
}

/** Unix seconds when the name expires: `years` of 365 days from now, or never (the uint32 maximum). */
export function nameExpiry(expirable: boolean, years: number, nowSeconds: number): number {
  return expirable ? nowSeconds + years * SECONDS_PER_YEAR : NO_EXPIRY;
}
