import { isIP } from 'node:net';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
};
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/** Express's `trust proxy`: false, true (every hop), a hop count, or proxy addresses, subnets and names. */
export type TrustProxy = boolean | number | string[];
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function proxyEntryProblem(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return false;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return true;
  if (prefix === undefined) return false;
  return !/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128);
}

export function trustProxyProblem(value: unknown): string | null {
  const message =
    'must be false, true, a hop count (1 behind one gateway) or a comma-separated list of proxy addresses, ' +
    'subnets and the names loopback, linklocal, uniquelocal';
  if (typeof value !== 'string') return message;
  if (value === 'true' || value === 'false' || /^\d{1,3}$/.test(value)) return null;
  const entries = value.split(',').map((e) => e.trim());
  return entries.some((e) => e === '' || proxyEntryProblem(e)) ? message : null;
}

/** RESOLUTION_TRUSTED_SOURCES: addresses or CIDR subnets (IPv4, IPv6), comma-separated; the first bad one named. */
export function trustedSourcesProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a comma-separated list of addresses or CIDR subnets';
  const bad = value.split(',').find((e) => e.trim() === '' || PROXY_NAMES.has(e.trim()) || proxyEntryProblem(e.trim()));
  return bad === undefined
    ? null
    : `"${bad.trim()}" is not an IPv4 or IPv6 address or CIDR subnet (such as 10.0.0.0/8)`;
}

const IsTrustedSources = () =>
  ValidateBy({
    name: 'isTrustedSources',
    validator: {
      validate: (value: unknown) => trustedSourcesProblem(value) === null,
      defaultMessage: (args) => trustedSourcesProblem(args?.value) ?? '',
    },
  });

export function parseTrustProxy(value: string): TrustProxy {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((e) => e.trim());
}

const IsTrustProxy = () =>
  ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) => trustProxyProblem(value) === null,
      defaultMessage: (args) => trustProxyProblem(args?.value) ?? '',
    },
  });
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const IsContract = () => Matches(ADDRESS, { message: 'must be a 0x-prefixed 20-byte address' });
const HTTP_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

/** The environment as the service reads it, validated by class-validator; see docs/operators.md#configuration. */
export class EnvironmentVariables {
  @IsOptional() @IsIn(['development', 'production', 'test']) NODE_ENV = 'development';
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection string' })
  DATABASE_URL?: string;
  @IsString() @MinLength(1) DATA_DIR = './.data';
  @IsOptional() @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// connection string' }) REDIS_URL?: string;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_WINDOW_SECONDS = 60;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_PER_KEY = 600;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_PER_IP = 300;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_RESOLUTION_PER_IP = 6000;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_PER_HOLDER = 60;
  @IsOptional() @IsTrustedSources() RESOLUTION_TRUSTED_SOURCES?: string;
  @IsTrustProxy() TRUST_PROXY = 'false';
  @Transform(toBool) @IsBoolean() ALLOW_EMBEDDED_DATABASE = false;
  @IsOptional() @IsString() @MinLength(16, { message: 'must be at least 16 characters' }) ADMIN_TOKEN?: string;
  @Transform(toInt) @IsInt() @Min(0) @Max(2147483647) SUBNAME_QUOTA_DEFAULT = 2000;
  @Transform(toInt) @IsInt() @Min(1) @Max(1000) BATCHES_IN_FLIGHT_PER_KEY = 1;
  @Transform(toInt) @IsInt() @Min(1) @Max(86400) MINT_SIGNATURE_TTL_SECONDS = 600;
  @Transform(toInt) @IsInt() @Min(1) MINT_MAINNET_CHAIN_ID = 1;
  @IsContract()
  MINT_MAINNET_CONTRACT = '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad';
  @IsOptional()
  @Matches(PRIVATE_KEY, { message: 'must be a 0x-prefixed 32-byte hex private key' })
  MINT_MAINNET_SIGNER_KEY?: string;
  @Transform(toInt) @IsInt() @Min(1) MINT_TESTNET_CHAIN_ID = 11155111;
  @IsContract()
  MINT_TESTNET_CONTRACT = '0x313442ba3A0b12193787BD162f99Ed3C415F2886';
  @IsOptional()
  @Matches(PRIVATE_KEY, { message: 'must be a 0x-prefixed 32-byte hex private key' })
  MINT_TESTNET_SIGNER_KEY?: string;
  @IsOptional()
  @Matches(PRIVATE_KEY, { message: 'must be a 0x-prefixed 32-byte hex private key' })
  CCIP_SIGNER_KEY?: string;
  @Transform(toInt) @IsInt() @Min(1) @Max(86400) CCIP_SIGNATURE_TTL_SECONDS = 300;
  @Transform(toInt) @IsInt() @Min(0) @Max(86400) RESOLUTION_CACHE_SECONDS = 0;
  @IsOptional()
  @Matches(HTTP_URL, { message: 'must be an http(s) URL (the cache that takes PURGE)' })
  CACHE_PURGE_URL?: string;
  @IsOptional() @IsString() @MaxLength(2000) CORS_ORIGIN?: string;
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+\/?$/, { message: 'must be an http(s) origin, such as https://subnames.example.com' })
  PUBLIC_URL?: string;
  @IsOptional() @Matches(HTTP_URL, { message: 'must be an http(s) JSON-RPC URL' }) ENS_RPC_URL?: string;
  @Transform(toInt) @IsInt() @Min(1) ENS_CHAIN_ID = 1;
  @IsContract() ENS_REGISTRY_ADDRESS = '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e';
  @IsContract() ENS_NAME_WRAPPER_ADDRESS = '0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401';
  @IsContract() ENS_BASE_REGISTRAR_ADDRESS = '0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85';
  @IsContract() ENS_REVERSE_REGISTRAR_ADDRESS = '0xa58E81fe9b61B5c3fE2AFD33CF304c454AbFc7Cb';
  @IsOptional()
  @Matches(/^\s*0x[0-9a-fA-F]{40}(\s*,\s*0x[0-9a-fA-F]{40})*\s*$/, {
    message: 'must be a comma-separated list of 0x-prefixed 20-byte addresses',
  })
  PORTAL_ADMIN_ADDRESSES?: string;
  @Transform(toInt) @IsInt() @Min(1) @Max(604800) PORTAL_RECHECK_SECONDS = 3600;
  @Transform(toInt) @IsInt() @Min(1) @Max(10000) PORTAL_KEYS_PER_PARENT = 10;
  @Transform(toInt) @IsInt() @Min(1) @Max(1000) PORTAL_CHALLENGES_PER_ADDRESS = 5;
  @Transform(toInt) @IsInt() @Min(1) @Max(100000) PORTAL_CHALLENGES_PER_CLIENT = 20;
  @Transform(toInt) @IsInt() @Min(1) @Max(100000) PORTAL_KEYS_PER_WALLET = 50;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL = 'info';
  @Transform(toInt) @IsInt() @Min(1) @Max(1000) DATABASE_POOL_SIZE = 10;
  @Transform(toInt) @IsInt() @Min(100) DATABASE_STATEMENT_TIMEOUT_MS = 5000;
  @Transform(toInt) @IsInt() @Min(100) DATABASE_CONNECT_TIMEOUT_MS = 3000;
  @Transform(toInt) @IsInt() @Min(10) @Max(60000) SEARCH_STATEMENT_TIMEOUT_MS = 200;
  @IsOptional()
  @Matches(/^\s*postgres(ql)?:\/\/[^\s,]+(\s*,\s*postgres(ql)?:\/\/[^\s,]+)*\s*$/, {
    message: 'must be one or more comma-separated postgres:// connection strings (PostgreSQL standbys)',
  })
  DATABASE_READ_URL?: string;
  @Transform(toInt) @IsInt() @Min(0) @Max(3600) DATABASE_READ_MAX_LAG_SECONDS = 5;
  @IsString() @MaxLength(100) REDIS_KEY_PREFIX = 'sns:';
  @Transform(toInt) @IsInt() @Min(0) @Max(300) SHUTDOWN_GRACE_SECONDS = 10;
  @Transform(toInt) @IsInt() @Min(0) @Max(60) SHUTDOWN_DELAY_SECONDS = 0;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(64) WORKERS?: number;
  @IsOptional() @Transform(toBool) @IsBoolean() SIGNING_THREAD?: boolean;
}
