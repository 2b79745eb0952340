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

/** Words for an API error; a chain that is not configured or not answering says so plainly. */
export function errorText(error) {
  if (error?.code === 'CHAIN_UNAVAILABLE') {
    return `The chain cannot be read: ${error.message} If no chain is configured, ask the service's operator to set ENS_RPC_URL.`;
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
