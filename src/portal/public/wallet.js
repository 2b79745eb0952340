// Wallets in the page: those that announce themselves (EIP-6963), else window.ethereum (EIP-1193).

const found = new Map();
const listeners = new Set();

function announced(event) {
  const { info, provider } = event.detail ?? {};
  if (!info?.uuid || !provider || found.has(info.uuid)) return;
  found.set(info.uuid, { name: info.name || 'Wallet', icon: info.icon, provider });
  for (const listener of listeners) listener(wallets());
}

export function wallets() {
  const list = [...found.values()];
  if (list.length === 0 && window.ethereum) list.push({ name: 'Browser wallet', provider: window.ethereum });
  return list;
}

/** Calls `listener` with the wallets now and whenever another announces itself. */
export function watchWallets(listener) {
  listeners.add(listener);
  window.addEventListener('eip6963:announceProvider', announced);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  listener(wallets());
}

/** The address the wallet signs with, after the person has allowed this page to see it. */
export async function requestAddress(provider) {
  const accounts = await provider.request({ method: 'eth_requestAccounts' });
  if (!Array.isArray(accounts) || accounts.length === 0) throw new Error('The wallet shared no account.');
  return accounts[0];
}

/** personal_sign of the exact text the service wrote (EIP-4361). */
export function signMessage(provider, address, message) {
  const hex = `0x${[...new TextEncoder().encode(message)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  return provider.request({ method: 'personal_sign', params: [hex, address] });
}

/** eth_signTypedData_v4 of the service's typed data ({domain, types, primaryType, message}) as it came. */
export function signTypedData(provider, address, typedData) {
  return provider.request({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typedData)] });
}

export function walletErrorText(error) {
  if (error?.code === 4001) return 'The wallet request was declined.';
  if (error?.code === -32002) return 'The wallet is already asking: look at its window.';
  return error?.message || 'The wallet could not complete the request.';
}
