import { getL1NamespaceContracts } from '@thenamespace/addresses';
import { ConfigError, loadConfig } from './app-config';

describe(loadConfig.name, () => {
  it('applies the defaults of CONTRACT section 8', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: './.data',
      rateLimit: { windowSeconds: 60, perKey: 600, perIp: 300 },
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
      SUBNAME_QUOTA_DEFAULT: '5',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(c).toMatchObject({ port: 8080, trustProxy: true, quotaDefault: 5, databaseUrl: 'postgres://u@h/db' });
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
