import { FetchRequest, JsonRpcProvider, type Networkish } from 'ethers';

/** How long one JSON-RPC request may take unless the caller says otherwise. */
export const DEFAULT_RPC_TIMEOUT_MS = 4000;

/**
 * The one JSON-RPC client configuration of the project (ethers v6): every request bounded by `timeoutMs`, the
 * network fixed (asked of the endpoint once when not given), no response cache (a read after a write sees it).
 * A Wallet connected to it can send transactions. Only src/chain/ makes clients (an ESLint rule says so).
 */
export function jsonRpcProvider(
  url: string,
  network?: Networkish,
  timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.timeout = timeoutMs;
  return new JsonRpcProvider(request, network, { staticNetwork: true, cacheTimeout: -1 });
}
