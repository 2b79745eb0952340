import { Module } from '@nestjs/common';
import { SigningModule } from '../signing/signing.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { ResolutionController } from './resolution.controller';
import { ResolutionService } from './resolution.service';

/** The gateway's CORS (any origin) is applied by app.setup.ts, with the middleware every request passes. */
@Module({
  imports: [SigningModule, SubnamesModule],
  controllers: [ResolutionController],
  providers: [ResolutionService],
})
export class ResolutionModule {}
