import { createHash, createHmac, pbkdf2Sync, timingSafeEqual } from 'node:crypto';

export const SCRAM_SHA_256 = 'SCRAM-SHA-256';

/** The keys SCRAM-SHA-256 derives from a password and a salt (RFC 5802 section 3, RFC 7677). */
export interface ScramKeys {
  salt: Buffer;
  iterations: number;
  clientKey: Buffer;
  storedKey: Buffer;
  serverKey: Buffer;
}

/** What the server sent in its first message, kept until the client's final one. */
export interface ScramChallenge {
  nonce: string;
  clientFirstBare: string;
  serverFirst: string;
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

/** NFKC stands in for SASLprep, as PostgreSQL's own clients do for passwords of printable characters. */
export function scramKeys(password: string, salt: Buffer, iterations: number): ScramKeys {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  return { salt, iterations, clientKey, storedKey: sha256(clientKey), serverKey: hmac(salted, 'Server Key') };
}

/**
 * The server-first message for a client-first one (gs2 header `n,,` or `y,,`, then `n=<user>,r=<nonce>`), the
 * server's nonce appended to the client's; null when the message is not one.
 */
export function scramChallenge(keys: ScramKeys, clientFirst: string, serverNonce: string): ScramChallenge | null {
  const match = /^[ny],,(n=[^,]*,r=([^,]+).*)$/.exec(clientFirst);
  if (!match) return null;
  const nonce = match[2] + serverNonce;
  const serverFirst = `r=${nonce},s=${keys.salt.toString('base64')},i=${keys.iterations}`;
  return { nonce, clientFirstBare: match[1], serverFirst };
}

/** ClientKey XOR HMAC(StoredKey, AuthMessage): what only a client that knows the password can send. */
export function clientProof(keys: ScramKeys, authMessage: string): Buffer {
  const signature = hmac(keys.storedKey, authMessage);
  return Buffer.from(keys.clientKey.map((b, i) => b ^ signature[i]));
}

/** The server-final message (`v=<ServerSignature>`) when the client-final message proves the password, else null. */
export function scramFinal(keys: ScramKeys, challenge: ScramChallenge, clientFinal: string): string | null {
  const proofAt = clientFinal.lastIndexOf(',p=');
  if (proofAt < 0) return null;
  const withoutProof = clientFinal.slice(0, proofAt);
  const attrs = new Map(withoutProof.split(',').map((part) => [part.slice(0, part.indexOf('=')), part]));
  if (attrs.get('r') !== `r=${challenge.nonce}` || !attrs.has('c')) return null;
  const authMessage = `${challenge.clientFirstBare},${challenge.serverFirst},${withoutProof}`;
  const sent = Buffer.from(clientFinal.slice(proofAt + 3), 'base64');
  const expected = clientProof(keys, authMessage);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return null;
  return `v=${hmac(keys.serverKey, authMessage).toString('base64')}`;
}
