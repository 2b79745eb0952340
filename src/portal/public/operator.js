// Operators (PORTAL_ADMIN_ADDRESSES): every key with its quota, and the audit trail.

import { call } from './api.js';
import { $, busy, el, errorText, showError } from './dom.js';

function keyRow(key) {
  const id = `quota-${key.id}`;
  const input = el('input', {
    type: 'number',
    id,
    min: '0',
    step: '1',
    value: String(key.quota),
    'aria-label': `Quota of ${key.name}`,
    'aria-describedby': 'all-keys-error',
  });
  const save = el('button', { type: 'button', text: 'Save quota', 'aria-label': `Save quota of ${key.name}` });
  save.addEventListener('click', () =>
    busy(save, async () => {
      showError('all-keys-error', '', input);
      try {
        await call('PATCH', `/admin/keys/${key.id}`, { quota: Number(input.value) });
        await loadOperator();
      } catch (error) {
        showError('all-keys-error', errorText(error), input);
      }
    }),
  );
  return el(
    'tr',
    {},
    el('td', { text: key.name }),
    el('td', {}, el('code', { text: key.keyPrefix })),
    el('td', { text: key.parentNames.join(', ') }),
    el('td', { text: `${key.used} / ${key.quota}` }),
    el('td', { class: 'actions' }, input, ' ', save),
  );
}

export async function loadOperator() {
  try {
    const keys = await call('GET', '/admin/keys?page=1&size=100');
    $('all-keys').replaceChildren(...keys.items.map(keyRow));
    const audit = await call('GET', '/admin/audit?page=1&size=50');
    $('audit').replaceChildren(
      ...audit.items.map((e) =>
        el(
          'li',
          {},
          el('time', { datetime: e.at, text: new Date(e.at).toLocaleString() }),
          ` ${e.actor} · ${e.action} · ${e.subject}`,
        ),
      ),
    );
  } catch (error) {
    showError('all-keys-error', errorText(error));
  }
}
