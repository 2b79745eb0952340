/**
 * NameStone's `get-names` answer: an array of
 * `{name, domain, address, text_records: {key: value}, coin_types: {coinType: address}, contenthash, created_at}`,
 * where `name` is the label under `domain`, `address` is the Ethereum (coin 60) address and `contenthash` is
 * the URI as it was set (ipfs://…). NameStone replaced a name's records whole on every write, so an entry
 * becomes a POST /subnames body that gives every field: what NameStone held is what this service holds.
 */
export interface NameStoneEntry {
  name?: unknown;
  domain?: unknown;
  address?: unknown;
  text_records?: unknown;
  coin_types?: unknown;
  contenthash?: unknown;
}

/** Our own export lines carry parentName; NameStone's entries carry domain. */
export function isNameStoneEntry(value: unknown): value is NameStoneEntry {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    'domain' in value &&
    !('parentName' in value)
  );
}

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

function objectEntries(value: unknown): [string, unknown][] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.entries(value as Record<string, unknown>);
}

/**
 * The POST /subnames body for a NameStone entry. Values are passed on as they are, so the body's validation
 * names whatever this service does not accept (a text key such as `twitter`, an unknown coin type). Empty
 * values, which NameStone kept for cleared records, are left out. `address` wins over a coin type 60 entry.
 */
export function fromNameStone(entry: NameStoneEntry): Record<string, unknown> {
  let label = entry.name;
  // Some NameStone exports carry the full name in `name`.
  if (typeof label === 'string' && typeof entry.domain === 'string') {
    const suffix = `.${entry.domain}`;
    if (label.toLowerCase().endsWith(suffix.toLowerCase())) label = label.slice(0, -suffix.length);
  }
  const body: Record<string, unknown> = { parentName: entry.domain, label };
  const texts = objectEntries(entry.text_records);
  if (texts) body.texts = texts.filter(([, value]) => given(value)).map(([key, value]) => ({ key, value }));
  const coins = objectEntries(entry.coin_types);
  const addresses = new Map<string, unknown>();
  for (const [coin, value] of coins ?? []) if (given(value)) addresses.set(coin, value);
  if (given(entry.address)) addresses.set('60', entry.address);
  if (coins || given(entry.address)) {
    body.addresses = [...addresses].map(([coin, value]) => ({ coin: /^\d+$/.test(coin) ? Number(coin) : coin, value }));
  }
  body.contenthash = given(entry.contenthash) ? entry.contenthash : null;
  return body;
}
