import { evmCoinTypeToNameMap } from '@ensdomains/address-encoder';
import fc from 'fast-check';
import type { Mutation } from './generators';

/** Coin types with EVM addresses (ENSIP-11), so one address is valid for each of 20 records. */
const HEAVY_COINS = [60, ...Object.keys(evmCoinTypeToNameMap).map(Number)].slice(0, 20);
const HEAVY_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/**
 * A batch inside every bound whose validation is the most work (issue 35.2): 300 or 1,000 items of 20 addresses
 * each, valid, or with one bad address, one repeated label or one unknown field at some item.
 */
export const validationHeavyBatch = fc
  .tuple(fc.constantFrom(300, 1000), fc.nat(), fc.constantFrom('none', 'address', 'repeat', 'field'))
  .map(([count, at, flaw]): Mutation => ({
    label: `validation-heavy batch of ${count} items × 20 addresses, flaw: ${flaw}`,
    apply: (m) => {
      const body = m.body && 'value' in m.body ? (m.body.value as Record<string, unknown>) : undefined;
      if (!body || !Array.isArray(body.items)) return;
      const first = body.items[0] as Record<string, unknown> | undefined;
      const parentName = typeof first?.parentName === 'string' ? first.parentName : 'oak.eth';
      const items: Record<string, unknown>[] = Array.from({ length: count }, (_, i) => ({
        parentName,
        label: `heavy${i}`,
        addresses: HEAVY_COINS.map((coin) => ({ coin, value: HEAVY_ADDRESS })),
      }));
      const bad = items[at % count];
      if (flaw === 'address') (bad.addresses as { value: string }[])[at % 20].value = '0x5aAeb';
      if (flaw === 'repeat') bad.label = 'heavy0';
      if (flaw === 'field') bad.extra = true;
      body.items = items;
    },
  }));
