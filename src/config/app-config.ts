import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvironmentVariables, parseTrustProxy, TrustProxy } from './environment';

export type { TrustProxy } from './environment';

/** The chain that holds the ENS registry, and its contracts (docs/operators.md#configuration). */
export interface EnsChainConfig {
  rpcUrl?: string;
  chainId: number;
  registry: string;
  nameWrapper: string;
  baseRegistrar: string;
  reverseRegistrar: string;
}

export interface NetworkConfig {
  chainId: number;
  contract: string;
  signerKey?: string;
}

/** The typed configuration every module receives; built once from the environment. */
export class AppConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly redisUrl?: string;
  /** resolutionPerIp and trustedSources: the gateway's own budget per address, and the sources it never limits. */
  readonly rateLimit: {
    windowSeconds: number;
    perKey: number;
    perIp: number;
    resolutionPerIp: number;
    /** The holder routes' budget per client address and per signer (RATE_LIMIT_PER_HOLDER). */
    perHolder: number;
    trustedSources: string[];
  };
  readonly trustProxy: TrustProxy;
  /** With NODE_ENV=production and no DATABASE_URL, run on the embedded database anyway. */
  readonly allowEmbeddedDatabase: boolean;
  readonly adminToken?: string;
  readonly quotaDefault: number;
  /** POST /subnames/batch requests one key may have in flight in one process (issue 35.2). */
  readonly batchesInFlightPerKey: number;
  readonly mint: { signatureTtlSeconds: number; mainnet: NetworkConfig; testnet: NetworkConfig };
  /** The CCIP-Read gateway's signer (docs/reference.md#resolution-gateway). */
  readonly ccip: { signatureTtlSeconds: number; signerKey?: string };
  /** What shared caches in front of the gateway may keep (s-maxage), and where changed names are purged. */
  readonly resolutionCache: { sharedSeconds: number; purgeUrl?: string };
  readonly corsOrigin?: string;
  /** The public origin (no trailing slash) the gateway's URL template is built on; unset in production without it. */
  readonly publicUrl?: string;
  readonly ens: EnsChainConfig;
  /** The developer portal: operator wallets (lower case) and how often portal keys' parents are checked on chain. */
  readonly portal: {
    adminAddresses: string[];
    recheckSeconds: number;
    keysPerParent: number;
    keysPerWallet: number;
    challengesPerAddress: number;
    challengesPerClient: number;
  };
  readonly logLevel: string;
  /** poolSize is this process's share of DATABASE_POOL_SIZE, the host's budget divided among its workers. */
  readonly database: { poolSize: number; statementTimeoutMs: number; connectTimeoutMs: number };
  /** PostgreSQL standbys for the public reads (DATABASE_READ_URL) and how far behind one may be to serve them. */
  readonly databaseRead: { urls: string[]; maxLagSeconds: number };
  /** Database time one public search may take before it is cancelled (SEARCH_TIMEOUT). */
  readonly searchStatementTimeoutMs: number;
  readonly redisKeyPrefix: string;
  /** Seconds to wait for requests in flight after SIGTERM, and seconds to keep accepting while not ready. */
  readonly shutdown: { graceSeconds: number; delaySeconds: number };
  /** Processes serving HTTP (Node's cluster): WORKERS, else one (one process per container, scaled outside). */
  readonly workers: number;
  /** Signatures made on a thread of their own (SIGNING_THREAD), by default outside NODE_ENV=test. */
  readonly signingThread: boolean;

  constructor(e: EnvironmentVariables) {
    this.env = e.NODE_ENV as AppConfig['env'];
    this.port = e.PORT;
    this.databaseUrl = e.DATABASE_URL;
    this.dataDir = e.DATA_DIR;
    this.redisUrl = e.REDIS_URL;
    this.rateLimit = {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      perKey: e.RATE_LIMIT_PER_KEY,
      perIp: e.RATE_LIMIT_PER_IP,
      resolutionPerIp: e.RATE_LIMIT_RESOLUTION_PER_IP,
      perHolder: e.RATE_LIMIT_PER_HOLDER,
      trustedSources: (e.RESOLUTION_TRUSTED_SOURCES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    };
    this.trustProxy = parseTrustProxy(e.TRUST_PROXY);
    this.allowEmbeddedDatabase = e.ALLOW_EMBEDDED_DATABASE;
    this.adminToken = e.ADMIN_TOKEN;
    this.quotaDefault = e.SUBNAME_QUOTA_DEFAULT;
    this.batchesInFlightPerKey = e.BATCHES_IN_FLIGHT_PER_KEY;
    this.mint = {
      signatureTtlSeconds: e.MINT_SIGNATURE_TTL_SECONDS,
      mainnet: {
        chainId: e.MINT_MAINNET_CHAIN_ID,
        contract: e.MINT_MAINNET_CONTRACT,
        signerKey: e.MINT_MAINNET_SIGNER_KEY,
      },
      testnet: {
        chainId: e.MINT_TESTNET_CHAIN_ID,
        contract: e.MINT_TESTNET_CONTRACT,
        signerKey: e.MINT_TESTNET_SIGNER_KEY,
      },
    };
    this.ccip = { signatureTtlSeconds: e.CCIP_SIGNATURE_TTL_SECONDS, signerKey: e.CCIP_SIGNER_KEY };
    this.resolutionCache = { sharedSeconds: e.RESOLUTION_CACHE_SECONDS, purgeUrl: e.CACHE_PURGE_URL };
    this.corsOrigin = e.CORS_ORIGIN;
    this.publicUrl =
      e.PUBLIC_URL?.replace(/\/$/, '') ?? (this.env === 'production' ? undefined : `http://localhost:${e.PORT}`);
    this.ens = {
      rpcUrl: e.ENS_RPC_URL,
      chainId: e.ENS_CHAIN_ID,
      registry: e.ENS_REGISTRY_ADDRESS,
      nameWrapper: e.ENS_NAME_WRAPPER_ADDRESS,
      baseRegistrar: e.ENS_BASE_REGISTRAR_ADDRESS,
      reverseRegistrar: e.ENS_REVERSE_REGISTRAR_ADDRESS,
    };
    this.portal = {
      adminAddresses: (e.PORTAL_ADMIN_ADDRESSES ?? '')
        .split(',')
        .map((a) => a.trim().toLowerCase())
        .filter((a) => a !== ''),
      recheckSeconds: e.PORTAL_RECHECK_SECONDS,
      keysPerParent: e.PORTAL_KEYS_PER_PARENT,
      keysPerWallet: e.PORTAL_KEYS_PER_WALLET,
      challengesPerAddress: e.PORTAL_CHALLENGES_PER_ADDRESS,
      challengesPerClient: e.PORTAL_CHALLENGES_PER_CLIENT,
    };
    this.logLevel = e.LOG_LEVEL;
    this.workers = e.WORKERS ?? 1;
    this.database = {
      poolSize: Math.floor(e.DATABASE_POOL_SIZE / this.workers),
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    };
    this.databaseRead = {
      urls: (e.DATABASE_READ_URL ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== ''),
      maxLagSeconds: e.DATABASE_READ_MAX_LAG_SECONDS,
    };
    this.searchStatementTimeoutMs = e.SEARCH_STATEMENT_TIMEOUT_MS;
    this.redisKeyPrefix = e.REDIS_KEY_PREFIX;
    this.shutdown = { graceSeconds: e.SHUTDOWN_GRACE_SECONDS, delaySeconds: e.SHUTDOWN_DELAY_SECONDS };
    this.signingThread = e.SIGNING_THREAD ?? this.env !== 'test';
  }
}

export class ConfigError extends Error {}

/** Validates the environment; throws one ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const vars = plainToInstance(EnvironmentVariables, raw, { exposeDefaultValues: true });
  const errors = validateSync(vars, { whitelist: false, skipMissingProperties: false });
  const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (vars.NODE_ENV === 'production' && !vars.DATABASE_URL && vars.ALLOW_EMBEDDED_DATABASE !== true) {
    lines.push(
      '  DATABASE_URL: is required with NODE_ENV=production: the embedded PGlite database is a single process ' +
        'without fsync, for development and trials (set ALLOW_EMBEDDED_DATABASE=true to run on it anyway)',
    );
  }
  if (vars.WORKERS !== undefined && vars.WORKERS > 1 && !vars.DATABASE_URL) {
    lines.push('  WORKERS: more than 1 needs DATABASE_URL: the embedded database belongs to one process');
  }
  if (vars.DATABASE_READ_URL && !vars.DATABASE_URL) {
    lines.push(
      "  DATABASE_READ_URL: needs DATABASE_URL (the standbys' primary): the embedded PGlite database has no standbys",
    );
  }
  if (
    vars.WORKERS !== undefined &&
    Number.isInteger(vars.DATABASE_POOL_SIZE) &&
    vars.WORKERS > vars.DATABASE_POOL_SIZE
  ) {
    lines.push(
      `  WORKERS: ${vars.WORKERS} workers cannot share DATABASE_POOL_SIZE=${vars.DATABASE_POOL_SIZE} ` +
        '(the connections of the whole host, divided among its workers): each needs at least one',
    );
  }
  if (lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return new AppConfig(vars);
}
