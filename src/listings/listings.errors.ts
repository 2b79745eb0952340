import { DomainError } from '../common/errors';
import type { Network } from '../signing/mint-context';

export class ListingNotFoundError extends DomainError {
  constructor(network: Network, parentName: string) {
    super('LISTING_NOT_FOUND', `${parentName} has no active listing on ${network}`);
  }
}
