import { SetMetadata } from '@nestjs/common';
import { HOLDER_BUDGET, NO_RATE_LIMIT, RESOLUTION_BUDGET } from './rate-limit.constants';

/** Health, metrics: never rate limited (probes and scrapers must always get through). */
export const NoRateLimit = (): MethodDecorator & ClassDecorator => SetMetadata(NO_RATE_LIMIT, true);

/** The CCIP-Read gateway: its own budget per address, trusted sources (batch gateways, CDNs) unlimited. */
export const ResolutionBudget = (): MethodDecorator & ClassDecorator => SetMetadata(RESOLUTION_BUDGET, true);

/** The holder routes (/holder/*): their own budget per address, and per signer once the signature is checked. */
export const HolderBudget = (): MethodDecorator & ClassDecorator => SetMetadata(HOLDER_BUDGET, true);
