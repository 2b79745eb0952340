import { DomainError } from '../common/errors';

export interface QuotaView {
  limit: number;
  used: number;
  remaining: number;
}

/** The quota headers of a write, the same on success and on refusal. */
export function quotaHeaders(view: Pick<QuotaView, 'limit' | 'remaining'>): Record<string, string> {
  return { 'X-Quota-Limit': String(view.limit), 'X-Quota-Remaining': String(view.remaining) };
}

export class QuotaExceededError extends DomainError {
  /** `remaining`: what is left when a batch asked for more than that. */
  constructor(
    limit: number,
    detail = `This API key has used all ${limit} subname creations it is allowed`,
    remaining = 0,
  ) {
    super('QUOTA_EXCEEDED', detail, undefined, quotaHeaders({ limit, remaining }));
  }
}
