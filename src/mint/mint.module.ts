import { Module } from '@nestjs/common';
import { ListingsModule } from '../listings/listings.module';
import { SigningModule } from '../signing/signing.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { MintController } from './mint.controller';
import { MintService } from './mint.service';

/** Signed mint parameters for the Namespace MintController, priced by the parent's listing. */
@Module({
  imports: [SigningModule, SubnamesModule, ListingsModule],
  controllers: [MintController],
  providers: [MintService],
})
export class MintModule {}
