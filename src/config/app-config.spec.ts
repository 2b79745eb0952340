import { getL1NamespaceContracts } from '@thenamespace/addresses';
import { ConfigError, loadConfig } from './app-config';

describe(loadConfig.name, () => {
  it('applies the defaults of docs/operators.md#configuration', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: './.data',
      rateLimit: {
        windowSeconds: 60,
        perKey: 600,
        perIp: 300,
        resolutionPerIp: 6000,
        perHolder: 60,
        trustedSources: [],
      },
      trustProxy: false,
      adminToken: undefined,
      quotaDefault: 2000,
    });
    expect(c.mint).toEqual({
      signatureTtlSeconds: 600,
      mainnet: { chainId: 1, contract: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad', signerKey: undefined },
      testnet: { chainId: 11155111, contract: '0x313442ba3A0b12193787BD162f99Ed3C415F2886', signerKey: undefined },
    });
    expect(c.ccip).toEqual({ signatureTtlSeconds: 300, signerKey: undefined });
  });

  it('defaults to the MintControllers that the public SDK (@thenamespace/addresses) sends mints to', () => {
    const c = loadConfig({});
    expect(c.mint.mainnet.contract).toBe(getL1NamespaceContracts(false).mintController);
    expect(c.mint.testnet.contract).toBe(getL1NamespaceContracts(true).mintController);
  });

  it('reads and converts values', () => {
    const c = loadConfig({
      PORT: '8080',
      TRUST_PROXY: 'true',
      ALLOW_EMBEDDED_DATABASE: 'true',
      SUBNAME_QUOTA_DEFAULT: '5',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(c).toMatchObject({ port: 8080, trustProxy: true, quotaDefault: 5, databaseUrl: 'postgres://u@h/db' });
    expect(c.allowEmbeddedDatabase).toBe(true);
  });

  it.each([
    ['false', false],
    ['true', true],
    ['1', 1],
    ['0', 0],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7,fd00::/8', ['10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
    ['loopback,uniquelocal,::1', ['loopback', 'uniquelocal', '::1']],
  ])("TRUST_PROXY=%s takes Express's meaning: %j", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['yes', '-1', '1.5', '10.0.0.0/33', 'fd00::/129', '10.0.0.1,', 'example.com', '10.0.0.0/8/1', '1000'])(
    'refuses TRUST_PROXY=%s',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be false, true, a hop count/);
    },
  );

  it('RESOLUTION_TRUSTED_SOURCES: addresses and subnets of both families; RATE_LIMIT_RESOLUTION_PER_IP read', () => {
    const c = loadConfig({
      RESOLUTION_TRUSTED_SOURCES: '34.1.2.3, 10.0.0.0/8,2600:1f18::/36',
      RATE_LIMIT_RESOLUTION_PER_IP: '20',
    });
    expect(c.rateLimit).toMatchObject({
      resolutionPerIp: 20,
      trustedSources: ['34.1.2.3', '10.0.0.0/8', '2600:1f18::/36'],
    });
  });

  it.each([
    ['10.0.0.0/8,10.0.0.0/33', '10.0.0.0/33'],
    ['1.2.3.4,gateway.ens.domains', 'gateway.ens.domains'],
    ['loopback', 'loopback'],
    ['::1,', ''],
  ])('refuses RESOLUTION_TRUSTED_SOURCES=%s, naming %s', (value, bad) => {
    expect(() => loadConfig({ RESOLUTION_TRUSTED_SOURCES: value })).toThrow(
      `RESOLUTION_TRUSTED_SOURCES: "${bad}" is not an IPv4 or IPv6 address or CIDR subnet`,
    );
  });

  it('refuses NODE_ENV=production without DATABASE_URL, naming ALLOW_EMBEDDED_DATABASE, unless it is true', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /DATABASE_URL: is required.*ALLOW_EMBEDDED_DATABASE=true/,
    );
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' }).env).toBe('production');
    expect(loadConfig({ NODE_ENV: 'development' }).allowEmbeddedDatabase).toBe(false);
  });

  it('runs one worker process unless WORKERS says otherwise, even in production; several need PostgreSQL', () => {
    const pg = 'postgres://u@h/db';
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ DATABASE_URL: pg }).workers).toBe(1);
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: pg }).workers).toBe(1);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true' }).workers).toBe(1);
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: pg, WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS: more than 1 needs DATABASE_URL/);
    expect(() => loadConfig({ WORKERS: '0', DATABASE_URL: pg })).toThrow(/WORKERS: .*must not be less than 1/);
    expect(() => loadConfig({ WORKERS: 'many', DATABASE_URL: pg })).toThrow(/WORKERS/);
  });

  it('divides DATABASE_POOL_SIZE, the connections of the host, among its workers', () => {
    const pg = 'postgres://u@h/db';
    expect(loadConfig({ DATABASE_URL: pg }).database.poolSize).toBe(10);
    expect(loadConfig({ DATABASE_URL: pg, WORKERS: '2' }).database.poolSize).toBe(5);
    expect(loadConfig({ DATABASE_URL: pg, WORKERS: '3' }).database.poolSize).toBe(3);
    expect(loadConfig({ DATABASE_URL: pg, WORKERS: '4', DATABASE_POOL_SIZE: '4' }).database.poolSize).toBe(1);
    expect(loadConfig({ DATABASE_URL: pg, WORKERS: '8', DATABASE_POOL_SIZE: '40' }).database.poolSize).toBe(5);
    expect(() => loadConfig({ DATABASE_URL: pg, WORKERS: '5', DATABASE_POOL_SIZE: '4' })).toThrow(
      /WORKERS: 5 workers cannot share DATABASE_POOL_SIZE=4 .*each needs at least one/,
    );
  });

  it('DATABASE_READ_URL: a list of standby URLs with a lag bound (5 s by default); refused without DATABASE_URL', () => {
    const pg = 'postgres://u@h/db';
    expect(loadConfig({ DATABASE_URL: pg }).databaseRead).toEqual({ urls: [], maxLagSeconds: 5 });
    const read = 'postgres://u@s1:5433/db, postgresql://u@s2/db';
    expect(
      loadConfig({ DATABASE_URL: pg, DATABASE_READ_URL: read, DATABASE_READ_MAX_LAG_SECONDS: '2' }).databaseRead,
    ).toEqual({ urls: ['postgres://u@s1:5433/db', 'postgresql://u@s2/db'], maxLagSeconds: 2 });
    expect(() => loadConfig({ DATABASE_URL: pg, DATABASE_READ_URL: 'mysql://s1/db' })).toThrow(
      /DATABASE_READ_URL: must be one or more comma-separated postgres:\/\/ connection strings/,
    );
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://u@s1/db' })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL .*the embedded PGlite database has no standbys/,
    );
  });

  it('signs on a thread of its own outside NODE_ENV=test, unless SIGNING_THREAD says otherwise', () => {
    expect(loadConfig({}).signingThread).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).signingThread).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', SIGNING_THREAD: 'true' }).signingThread).toBe(true);
    expect(loadConfig({ SIGNING_THREAD: '0' }).signingThread).toBe(false);
    expect(() => loadConfig({ SIGNING_THREAD: 'sometimes' })).toThrow(/SIGNING_THREAD/);
  });

  it('PUBLIC_URL: the origin without its trailing slash; http://localhost:PORT outside production, else unset', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://subnames.example.com/' }).publicUrl).toBe('https://subnames.example.com');
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    const prod = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' };
    expect(loadConfig(prod).publicUrl).toBeUndefined();
    expect(loadConfig({ ...prod, PUBLIC_URL: 'https://a.example' }).publicUrl).toBe('https://a.example');
    for (const bad of ['subnames.example.com', 'https://a.example/path', 'ftp://a.example', 'https://a.example?x=1'])
      expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow(/PUBLIC_URL: must be an http\(s\) origin/);
  });

  it('ENS_*: the mainnet registry, Name Wrapper and registrars by default; no RPC endpoint', () => {
    expect(loadConfig({}).ens).toEqual({
      rpcUrl: undefined,
      chainId: 1,
      registry: '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e',
      nameWrapper: '0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401',
      baseRegistrar: '0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85',
      reverseRegistrar: '0xa58E81fe9b61B5c3fE2AFD33CF304c454AbFc7Cb',
    });
    const sepolia = loadConfig({
      ENS_RPC_URL: 'https://rpc.example.com/v1/key',
      ENS_CHAIN_ID: '11155111',
      ENS_NAME_WRAPPER_ADDRESS: '0x0635513f179D50A207757E05759CbD106d7dFcE8',
    }).ens;
    expect(sepolia).toMatchObject({
      rpcUrl: 'https://rpc.example.com/v1/key',
      chainId: 11155111,
      nameWrapper: '0x0635513f179D50A207757E05759CbD106d7dFcE8',
    });
    expect(() => loadConfig({ ENS_RPC_URL: 'localhost:8545' })).toThrow(/ENS_RPC_URL: must be an http\(s\)/);
    expect(() => loadConfig({ ENS_REGISTRY_ADDRESS: '0x1234' })).toThrow(/ENS_REGISTRY_ADDRESS: must be a 0x/);
    expect(() => loadConfig({ ENS_CHAIN_ID: '0' })).toThrow(/ENS_CHAIN_ID/);
  });

  it('PORTAL_*: operator wallets (lower case), the re-check interval and the key bounds, validated', () => {
    expect(loadConfig({}).portal).toEqual({
      adminAddresses: [],
      recheckSeconds: 3600,
      keysPerParent: 10,
      keysPerWallet: 50,
      challengesPerAddress: 5,
      challengesPerClient: 20,
    });
    const a = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const b = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
    const env = { PORTAL_ADMIN_ADDRESSES: `${a}, ${b}`, PORTAL_RECHECK_SECONDS: '60', PORTAL_KEYS_PER_PARENT: '2' };
    expect(loadConfig({ ...env, PORTAL_KEYS_PER_WALLET: '4', PORTAL_CHALLENGES_PER_CLIENT: '3' }).portal).toEqual({
      adminAddresses: [a.toLowerCase(), b.toLowerCase()],
      recheckSeconds: 60,
      keysPerParent: 2,
      keysPerWallet: 4,
      challengesPerAddress: 5,
      challengesPerClient: 3,
    });
    expect(() => loadConfig({ PORTAL_ADMIN_ADDRESSES: `${a},oak.eth` })).toThrow(/PORTAL_ADMIN_ADDRESSES: must be/);
    expect(() => loadConfig({ PORTAL_RECHECK_SECONDS: '0' })).toThrow(/PORTAL_RECHECK_SECONDS/);
    expect(() => loadConfig({ PORTAL_KEYS_PER_PARENT: '0' })).toThrow(/PORTAL_KEYS_PER_PARENT/);
    expect(() => loadConfig({ PORTAL_KEYS_PER_WALLET: 'many' })).toThrow(/PORTAL_KEYS_PER_WALLET/);
    expect(() => loadConfig({ PORTAL_CHALLENGES_PER_CLIENT: '0' })).toThrow(/PORTAL_CHALLENGES_PER_CLIENT/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 3000 });
  });

  it('names every bad variable in one error', () => {
    const bad = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        MINT_MAINNET_SIGNER_KEY: '0x1234',
        TRUST_PROXY: 'perhaps',
        CCIP_SIGNER_KEY: '0x5678',
        CCIP_SIGNATURE_TTL_SECONDS: '0',
      });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (e) {
      const message = (e as Error).message;
      for (const name of [
        'PORT',
        'DATABASE_URL',
        'MINT_MAINNET_SIGNER_KEY',
        'TRUST_PROXY',
        'CCIP_SIGNER_KEY',
        'CCIP_SIGNATURE_TTL_SECONDS',
      ])
        expect(message).toContain(name);
      expect(message).not.toContain('0x1234');
      expect(message).not.toContain('0x5678');
    }
  });
});
