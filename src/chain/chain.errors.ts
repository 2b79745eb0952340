import { DomainError } from '../common/errors';

/** The chain cannot be read: no ENS_RPC_URL, or the endpoint failed or did not answer in time. */
export class ChainUnavailableError extends DomainError {
  constructor(detail: string) {
    super('CHAIN_UNAVAILABLE', detail, undefined, { 'Retry-After': '5' });
  }
}
