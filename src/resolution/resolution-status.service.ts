import { Injectable } from '@nestjs/common';
import { EnsChainService } from '../chain/chain.module';
import { withinChainDeadline } from '../chain/deadline';
import { SearchSubnamesDto } from '../subnames/dto/search-subnames.dto';
import { SubnamesService } from '../subnames/subnames.service';
import { ResolutionStatusResponse } from './dto/resolution-status.dto';
import { ResolutionService } from './resolution.service';
import { checkResolver, GatewayView, unstoredProbe } from './resolver-check';

/** The whole check's budget: the route answers within it or says CHAIN_UNAVAILABLE. */
export const STATUS_DEADLINE_MS = 5000;

/** GET /resolution/status: the resolver check of a parent name, with this process as the gateway. */
@Injectable()
export class ResolutionStatusService {
  constructor(
    private readonly chains: EnsChainService,
    private readonly resolution: ResolutionService,
    private readonly subnames: SubnamesService,
  ) {}

  check(parentName: string): Promise<ResolutionStatusResponse> {
    const chain = this.chains.get();
    const gateway: GatewayView = {
      signer: () => Promise.resolve(this.resolution.signer()),
      answer: async (sender, data) => (await this.resolution.resolve(sender, data)).data,
      probeName: (parent) => this.probeName(parent),
    };
    return withinChainDeadline(checkResolver(chain, gateway, parentName), STATUS_DEADLINE_MS);
  }

  private async probeName(parentName: string): Promise<string> {
    const query = Object.assign(new SearchSubnamesDto(), { parentName, page: 1, size: 1 });
    const stored = (await this.subnames.search(query)).items[0]?.fullName;
    return stored ?? unstoredProbe(parentName);
  }
}
