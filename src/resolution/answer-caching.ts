/**
 * What makes the gateway's answers cacheable (CONTRACT section 16): `expires` aligned to windows, so the same
 * request in one window is the same bytes; an ETag known before signing; the lifetimes a shared cache may keep.
 */
import { createHash } from 'node:crypto';

/** A shared cache must drop an answer at least this long before its signature expires. */
export const SHARED_CACHE_MARGIN_SECONDS = 60;

/** The window `expires` is aligned to: a fifth of the signature lifetime, at least a second. */
export function expiryWindowSeconds(signatureTtlSeconds: number): number {
  return Math.max(1, Math.floor(signatureTtlSeconds / 5));
}

/** The start of now's window plus the lifetime: never later than now + lifetime, never sooner than 4/5 of it. */
export function alignedExpires(nowSeconds: number, signatureTtlSeconds: number): number {
  const window = expiryWindowSeconds(signatureTtlSeconds);
  return nowSeconds - (nowSeconds % window) + signatureTtlSeconds;
}

/**
 * A strong ETag of an answer from what its bytes are made of (signer, resolver, expires, request, result): equal
 * inputs sign to equal bytes (RFC 6979), so it is known before signing and a 304 costs no signature.
 */
export function answerEtag(
  signer: string,
  sender: string,
  expires: number,
  request: Uint8Array,
  result: Uint8Array,
): string {
  const h = createHash('sha256').update(`${signer}:${sender.toLowerCase()}:${expires}:`);
  h.update(request).update(':').update(result);
  return `"${h.digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names `etag` (weak comparison, as RFC 9110 asks of If-None-Match) or is `*`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** s-maxage: the configured seconds, never beyond the answer's remaining validity less the margin. */
export function sharedMaxAge(cacheSeconds: number, expires: number, nowSeconds: number): number {
  return Math.max(0, Math.min(cacheSeconds, expires - nowSeconds - SHARED_CACHE_MARGIN_SECONDS));
}
