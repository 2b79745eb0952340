// Small DOM helpers: elements are built, never parsed from strings, so no value can become markup.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** Shows `message` in the error element tied to `input` by aria-describedby, and marks the input. */
export function showError(errorId, message, input) {
  $(errorId).textContent = message || '';
  if (input) {
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
}

/** Words for an API error; a chain that is not configured or not answering says so once (the detail may advise). */
export function errorText(error) {
  if (error?.code === 'CHAIN_UNAVAILABLE') {
    const stop = /[.!?]$/.test(error.message) ? '' : '.';
    const advice = /ENS_RPC_URL|operator/.test(error.message)
      ? ''
      : " Ask the service's operator to check ENS_RPC_URL.";
    return `The chain cannot be read: ${error.message}${stop}${advice}`;
  }
  const fields = (error?.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');
  return fields ? `${error.message} (${fields})` : error?.message || 'Something went wrong.';
}

export async function busy(button, work) {
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
  }
}

/** Text with `backticked` spans as code elements (the service's details quote commands so). */
export function withCode(text) {
  return String(text)
    .split('`')
    .map((part, i) => (i % 2 === 1 ? el('code', { text: part }) : part))
    .filter((part) => part !== '');
}

/** A failure that belongs to no one control (the service unreachable at start or at sign-out), in words. */
export function showPageError(message) {
  $('page-error').textContent = message;
}
