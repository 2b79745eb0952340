import { Logger } from '@nestjs/common';
import { computeAddress, getBytes, SigningKey } from 'ethers';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/app-config';
import type { Signable } from './signing-jobs';
import type { SigningThread } from './signing-thread';

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

export class SignerConfigError extends Error {}

/** Where a signer's key comes from, and how its messages name it. */
export interface SignerSource {
  /** The environment variable of the key, e.g. CCIP_SIGNER_KEY. */
  variable: string;
  /** The configured key, when there is one. */
  configured?: string;
  /** Development key file name in DATA_DIR, e.g. dev-signer-ccip.key. */
  devFile: string;
  /** What the key signs, for messages: "mainnet mint", "CCIP-Read gateway". */
  purpose: string;
  /** How the development-key log line names the signer ("mainnet", "ccip"). */
  logName: string;
}

/**
 * One secp256k1 key and its address. The key lives in a private field; nothing returns or prints it (it is handed
 * once to the SigningThread that signs with it). Every signature is 65 bytes r ‖ s ‖ v with low s, as
 * OpenZeppelin's ECDSA.recover requires.
 */
export class DigestSigner {
  readonly address: string;
  readonly #key: Uint8Array;
  #thread: SigningThread | null = null;
  #slot = 0;

  constructor(privateKey: string, variable: string) {
    try {
      // ethers checks the key and derives the address once; signing then goes through libsecp256k1.
      this.address = computeAddress(new SigningKey(privateKey).publicKey);
      this.#key = getBytes(privateKey, 'privateKey').slice();
    } catch {
      // Zero and values at or above the curve order are 32 bytes of hex but no key.
      throw new SignerConfigError(`${variable} is not a valid secp256k1 private key`);
    }
  }

  /** Hands the key to `thread` (before its first signature), which makes every signature of this signer. */
  attach(thread: SigningThread): void {
    this.#slot = thread.addKey(this.#key);
    this.#thread = thread;
  }

  /**
   * Signs a digest as it is (no EIP-191 prefix), byte for byte as ethers' SigningKey.sign would, or the digest of
   * an EIP-712 struct or of a gateway answer.
   */
  sign(what: Signable): Promise<string> {
    if (!this.#thread) throw new Error('a signer signs once attached to its signing thread');
    return this.#thread.sign({ ...what, key: this.#slot });
  }
}

/**
 * The key of a signer: the configured one; without one, outside production, a development key made once and kept
 * in DATA_DIR (its address logged, never the key); in production, a refusal to start naming the variable.
 */
export function loadSignerKey(source: SignerSource, config: AppConfig, logger: Logger): DigestSigner {
  const key = source.configured ?? developmentKey(source, config, logger);
  return new DigestSigner(key, source.variable);
}

function developmentKey(source: SignerSource, config: AppConfig, logger: Logger): string {
  const { variable } = source;
  if (config.env === 'production') {
    throw new SignerConfigError(
      `${variable} is not set: with NODE_ENV=production the ${source.purpose} signer key is required ` +
        '(a 0x-prefixed 32-byte hex private key)',
    );
  }
  const file = join(config.dataDir, source.devFile);
  mkdirSync(config.dataDir, { recursive: true });
  const fresh = `0x${randomBytes(32).toString('hex')}`;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let created = true;
  writeFileSync(temp, `${fresh}\n`, { mode: 0o600 });
  try {
    // link() fails when the file exists, so processes starting together keep one complete key.
    linkSync(temp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    created = false;
  } finally {
    unlinkSync(temp);
  }
  const key = created ? fresh : readFileSync(file, 'utf8').trim();
  if (!PRIVATE_KEY.test(key)) {
    throw new SignerConfigError(
      `${file} does not hold a 0x-prefixed 32-byte hex private key; delete it or set ${variable}`,
    );
  }
  const address = computeAddress(key);
  const verb = created ? 'generated' : 'using';
  const where = created ? `in ${file}` : `from ${file}`;
  logger.warn(
    `${verb} development signer ${address} for ${source.logName} ${where}; set ${variable} outside development`,
  );
  return key;
}
