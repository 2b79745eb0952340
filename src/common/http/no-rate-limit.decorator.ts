import { SetMetadata } from '@nestjs/common';
import { NO_RATE_LIMIT } from './rate-limit.constants';

/** Health, metrics: never rate limited (probes and scrapers must always get through). */
export const NoRateLimit = (): MethodDecorator & ClassDecorator => SetMetadata(NO_RATE_LIMIT, true);
