import { Injectable } from '@nestjs/common';
import { SubnamePageResponse } from '../subnames/dto/subname-page.response';
import { SignedWrites } from '../subnames/signed-writes';

/** The names an address holds. */
@Injectable()
export class HolderNamesService {
  constructor(private readonly writes: SignedWrites) {}

  heldBy(address: string, page: number, size: number): Promise<SubnamePageResponse> {
    return this.writes.heldBy(address, page, size);
  }
}
