// A parent's holder policy in sentences, for the claim page and for the portal's editor.

const COIN_NAMES = { 60: 'ETH', 0: 'BTC', 2: 'LTC', 3: 'DOGE', 501: 'SOL' };
const SHOWN_RESERVED = 20;

function names(count, one, many) {
  return count === 1 ? `one ${one}` : `up to ${count} ${many}`;
}

function list(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function claimsSentence(p) {
  const each = names(p.claimsPerAddress, 'name', 'names');
  if (p.claims === 'open') return `Anyone may claim ${each} under ${p.parentName}.`;
  if (p.claims === 'allowlist') {
    const size = p.allowlistSize === 1 ? '1 address' : `${p.allowlistSize} addresses`;
    return `Only addresses on the list (${size}) may claim ${each} each under ${p.parentName}.`;
  }
  return `Claims are closed: no one can claim a new name under ${p.parentName} for now.`;
}

function labelsSentences({ minLength, maxLength, reserved }) {
  const length =
    minLength === maxLength
      ? `A label is exactly ${minLength} characters long.`
      : `A label is ${minLength} to ${maxLength} characters long.`;
  if (reserved.length === 0) return [length];
  const shown = reserved.slice(0, SHOWN_RESERVED);
  const more = reserved.length > shown.length ? ` and ${reserved.length - shown.length} more` : '';
  return [length, `Reserved, no one may claim them: ${shown.join(', ')}${more}.`];
}

function recordsSentence({ texts, addresses, contenthash }) {
  const textWords = texts.includes('*')
    ? 'any text record'
    : texts.length === 0
      ? null
      : `the text records ${list(texts)}`;
  const coinWords = addresses.includes('*')
    ? 'any address'
    : addresses.length === 0
      ? null
      : `the ${list(addresses.map((c) => COIN_NAMES[c] ?? `coin ${c}`))} address${addresses.length > 1 ? 'es' : ''}`;
  const parts = [textWords, coinWords, contenthash ? 'the content hash' : null].filter(Boolean);
  return parts.length === 0 ? 'Holders may not set any record.' : `Holders may set ${list(parts)} of their name.`;
}

/** The policy (as GET /policies answers it) as a list of sentences. */
export function policySentences(p) {
  return [
    claimsSentence(p),
    ...labelsSentences(p.labels),
    recordsSentence(p.holderRecords),
    p.transfers ? 'Holders may give their name to another address.' : 'Names cannot be given to another address.',
    p.deletes ? 'Holders may delete their name.' : 'Holders cannot delete their name.',
  ];
}
