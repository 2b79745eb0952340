import { loadConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
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

  it("counts its refusals in its own application's registry only", async () => {
    const config = loadConfig({ RATE_LIMIT_PER_HOLDER: '1' });
    const [mine, other] = [new Metrics(), new Metrics()];
    const storage = new RateLimitStorage(config, mine);
    const sut = new SignerBudget(storage, config, mine);
    const signer = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    await sut.charge(signer);
    await expect(sut.charge(signer)).rejects.toBeInstanceOf(RateLimitedError);
    const refusals = async (m: Metrics) => (await m.rateLimited.get()).values.map((v) => [v.labels.limit, v.value]);
    expect(await refusals(mine)).toEqual([['holder', 1]]);
    expect(await refusals(other)).toEqual([]);
    expect((await mine.registry.getSingleMetricAsString('rate_limit_redis_up')).trim().split('\n').pop()).toBe(
      'rate_limit_redis_up 0',
    );
    await storage.onApplicationShutdown();
  });
});
