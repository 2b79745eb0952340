import { randomBytes } from 'node:crypto';
import type { GatewayView } from '../resolution/resolver-check';

const TIMEOUT_MS = 5000;

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return res.json();
}

/** The service's gateway reached over HTTP at its public origin, as the CLI's resolver check sees it. */
export function httpGateway(origin: string): GatewayView {
  const base = `${origin.replace(/\/$/, '')}/api/v1`;
  return {
    signer: async () => (await getJson(`${base}/ccip-read/signer`)) as { address: string; urlTemplate: string | null },
    answer: async (sender, callData) =>
      ((await getJson(`${base}/ccip-read/${sender.toLowerCase()}/${callData}.json`)) as { data: string }).data,
    probeName: async (parentName) => {
      try {
        const page = (await getJson(`${base}/subnames?parentName=${encodeURIComponent(parentName)}&size=1`)) as {
          items: { fullName: string }[];
        };
        if (page.items[0]) return page.items[0].fullName;
      } catch {
        // The listing is a convenience: an unstored label proves the same path.
      }
      return `check-${randomBytes(6).toString('hex')}.${parentName}`;
    },
  };
}
