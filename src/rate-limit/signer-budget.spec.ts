import { loadConfig } from '../config/app-config';
import { RateLimitStorage } from './rate-limit.storage';
import { RateLimitedError } from './rate-limit.errors';
import { SignerBudget } from './signer-budget';

describe(SignerBudget.name, () => {
  it('counts a signer in any case against RATE_LIMIT_PER_HOLDER, then refuses with the budget headers', async () => {
    const config = loadConfig({ RATE_LIMIT_PER_HOLDER: '2' });
    const storage = new RateLimitStorage(config);
    const sut = new SignerBudget(storage, config);
    const signer = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    await sut.charge(signer);
    await sut.charge(signer.toLowerCase());
    const refused = await sut.charge(signer).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', detail: expect.stringContaining('from this signer') });
    await expect(sut.charge('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359')).resolves.toBeUndefined();
    await storage.onApplicationShutdown();
  });
});
