import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { MetricsModule } from '../metrics/metrics.module';
import { AdminListingsController } from './admin-listings.controller';
import { ListingCache } from './listing-cache';
import { ListingsRepository } from './listings.repository';
import { ListingsService } from './listings.service';
import { SdkListingsController } from './sdk-listings.controller';
import { jsonBody } from '../common/http/body-readers';

/** The routes that read a JSON body (jsonBody). */
const BODY_ROUTES = [RequestMethod.PUT, RequestMethod.DELETE].map((method) => ({
  path: 'admin/listings/:network/:parentName',
  method,
}));

/** Listings: which parent names may be minted, at what price, with which fuses; the admin and SDK routes. */
@Module({
  imports: [AuthModule, AuditModule, ChangeFeedModule, MetricsModule],
  controllers: [AdminListingsController, SdkListingsController],
  providers: [ListingsRepository, ListingsService, ListingCache],
  exports: [ListingsService],
})
export class ListingsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody()).forRoutes(...BODY_ROUTES);
  }
}
