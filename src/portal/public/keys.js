// Names and keys: the names the wallet controls, its keys, and the one place a new secret is shown.

import { $, el } from './dom.js';

const ROLE_WORDS = {
  manager: 'registry owner',
  'wrapped-owner': 'Name Wrapper owner',
  registrant: 'registrant',
  operator: 'approved operator',
};

export function renderNames(names) {
  $('names').replaceChildren(
    ...names.map((n) =>
      el(
        'li',
        {},
        el('span', { class: 'name', text: n.name }),
        el('span', { class: 'muted', text: `${ROLE_WORDS[n.role] ?? n.role}${n.wrapped ? ', wrapped' : ''}` }),
      ),
    ),
  );
  $('no-names').hidden = names.length > 0;
}

export function renderParentOptions(names) {
  const checked = new Set([...document.querySelectorAll('#key-parent-options input:checked')].map((c) => c.value));
  $('key-parent-options').replaceChildren(
    ...names.map((n) => {
      const id = `parent-option-${n.name}`;
      return el(
        'label',
        { for: id },
        el('input', { type: 'checkbox', id, value: n.name, checked: checked.has(n.name) || names.length === 1 }),
        n.name,
      );
    }),
  );
  $('no-parent-options').hidden = names.length > 0;
}

function statusOf(key) {
  if (key.revokedAt) return el('span', { class: 'status-bad', text: 'revoked' });
  if (key.suspendedReason) return el('span', { class: 'status-bad', text: `suspended: ${key.suspendedReason}` });
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now())
    return el('span', { class: 'status-bad', text: 'expired' });
  return el('span', { class: 'status-ok', text: 'active' });
}

export function renderKeys(keys, actions) {
  $('keys').replaceChildren(
    ...keys.map((key) => {
      const rotate = el('button', { type: 'button', text: 'Rotate', disabled: Boolean(key.revokedAt) });
      const revoke = el('button', {
        type: 'button',
        class: 'danger',
        text: 'Revoke',
        disabled: Boolean(key.revokedAt),
      });
      rotate.addEventListener('click', () => actions.rotate(key, rotate));
      revoke.addEventListener('click', () => actions.revoke(key, revoke));
      return el(
        'tr',
        {},
        el('td', { text: key.name }),
        el('td', {}, el('code', { text: key.keyPrefix })),
        el('td', { text: key.parentNames.join(', ') }),
        el('td', { text: `${key.used} / ${key.quota}` }),
        el('td', {}, statusOf(key)),
        el('td', { class: 'actions' }, rotate, revoke),
      );
    }),
  );
  $('no-keys').hidden = keys.length > 0;
}

/** The secret lives only in this element: never in storage, a cookie or the URL; a reload forgets it. */
export function renderNewKey(secret, note) {
  const region = $('new-key');
  $('new-key-value').textContent = secret ?? '';
  $('copy-status').textContent = note ?? '';
  region.hidden = !secret;
  if (secret) $('copy-key').focus();
}

$('copy-key').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText($('new-key-value').textContent);
    $('copy-status').textContent = 'Copied to the clipboard.';
  } catch {
    const range = document.createRange();
    range.selectNodeContents($('new-key-value'));
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
    $('copy-status').textContent = 'Selected: press Ctrl+C (or Cmd+C) to copy.';
  }
});
