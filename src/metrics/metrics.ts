import { Counter, Registry } from 'prom-client';

/** The service's Prometheus registry; /metrics serves it. Domain counters live here so any module can count. */
export const registry = new Registry();

export const quotaRefusals = new Counter({
  name: 'subname_quota_refusals_total',
  help: 'Subname creations refused because the key had no quota left',
  registers: [registry],
});

export const signaturesMade = new Counter({
  name: 'mint_signatures_total',
  help: 'EIP-712 mint signatures made',
  labelNames: ['network'] as const,
  registers: [registry],
});
