import { SkipThrottle } from '@nestjs/throttler';
import { KEY_LIMIT, IP_LIMIT } from './rate-limit.constants';

/** Health, metrics: never rate limited (probes and scrapers must always get through). */
export const NoRateLimit = (): MethodDecorator & ClassDecorator =>
  SkipThrottle({ [KEY_LIMIT]: true, [IP_LIMIT]: true });
