// Each controlled name's holder policy: in words, a link to its claim page, and an editor that sets it.

import { call } from './api.js';
import { $, busy, el, errorText, showError } from './dom.js';
import { policySentences } from './policy-words.js';

const DEFAULTS = {
  claims: 'closed',
  allowlist: [],
  claimsPerAddress: 1,
  labels: { minLength: 3, maxLength: 63, reserved: [] },
  holderRecords: { texts: ['*'], addresses: ['*'], contenthash: true },
  transfers: true,
  deletes: true,
};
const CLAIMS = [
  ['closed', 'Closed'],
  ['open', 'Open to anyone'],
  ['allowlist', 'Allowlist only'],
];
/** The editor's inputs by the body field an error names. */
const INPUT_OF = {
  allowlist: 'allowlist',
  claimsPerAddress: 'per-address',
  'labels.minLength': 'min',
  'labels.maxLength': 'max',
  'labels.reserved': 'reserved',
};

const words = (text) =>
  text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean);

/** A labelled control with its own error line, tied by aria-describedby. */
function field(id, label, control) {
  control.id = id;
  control.setAttribute('aria-describedby', `${id}-error`);
  return el(
    'div',
    { class: 'field' },
    el('label', { for: id, text: label }),
    control,
    el('p', { id: `${id}-error`, class: 'error', role: 'alert' }),
  );
}

function editor(name, p, prefix) {
  const id = (part) => `${prefix}-${part}`;
  const radios = CLAIMS.map(([value, label]) =>
    el('label', {}, el('input', { type: 'radio', name: id('claims'), value, checked: p.claims === value }), label),
  );
  const number = (value) => el('input', { type: 'number', min: 1, max: 255, value, inputmode: 'numeric' });
  const form = el(
    'form',
    { class: 'policy-editor', novalidate: true },
    el('fieldset', {}, el('legend', { text: 'Claims' }), el('div', { class: 'options' }, ...radios)),
    field(id('allowlist'), 'Allowlist (one address a line)', el('textarea', { rows: 3, spellcheck: 'false' })),
    field(id('per-address'), 'Claims per address', el('input', { type: 'number', min: 1, max: 100 })),
    el(
      'div',
      { class: 'pair' },
      field(id('min'), 'Shortest label', number(p.labels.minLength)),
      field(id('max'), 'Longest label', number(p.labels.maxLength)),
    ),
    field(id('reserved'), 'Reserved labels', el('textarea', { rows: 2, spellcheck: 'false' })),
    el(
      'div',
      { class: 'options' },
      el('label', {}, el('input', { type: 'checkbox', id: id('transfers'), checked: p.transfers }), 'Transfers'),
      el('label', {}, el('input', { type: 'checkbox', id: id('deletes'), checked: p.deletes }), 'Deletes'),
    ),
    el('p', {
      class: 'muted',
      text: 'Which records holders may set is kept as it is; the API (holderRecords) changes it.',
    }),
    el('button', { type: 'submit', class: 'primary', 'aria-describedby': id('error'), text: 'Save policy' }),
    el('p', { id: id('error'), class: 'error', role: 'alert' }),
    el('p', { id: id('status'), class: 'status-ok', role: 'status' }),
  );
  form.querySelector(`#${id('allowlist')}`).value = (p.allowlist ?? []).join('\n');
  form.querySelector(`#${id('per-address')}`).value = p.claimsPerAddress;
  form.querySelector(`#${id('reserved')}`).value = p.labels.reserved.join(', ');
  form.addEventListener('submit', (event) => save(event, name, p, prefix));
  return form;
}

function body(form, p, id) {
  const value = (part) => form.querySelector(`#${id(part)}`).value;
  const claims = form.querySelector(`input[name="${id('claims')}"]:checked`)?.value ?? 'closed';
  const allowlist = words(value('allowlist'));
  return {
    claims,
    ...(claims === 'allowlist' || allowlist.length > 0 ? { allowlist } : {}),
    claimsPerAddress: Number(value('per-address')),
    labels: { minLength: Number(value('min')), maxLength: Number(value('max')), reserved: words(value('reserved')) },
    holderRecords: p.holderRecords,
    transfers: form.querySelector(`#${id('transfers')}`).checked,
    deletes: form.querySelector(`#${id('deletes')}`).checked,
  };
}

async function save(event, name, p, prefix) {
  event.preventDefault();
  const form = event.target;
  const id = (part) => `${prefix}-${part}`;
  for (const part of Object.values(INPUT_OF)) showError(id(`${part}-error`), '', $(id(part)));
  showError(id('error'), '');
  $(id('status')).textContent = '';
  await busy(form.querySelector('button[type=submit]'), async () => {
    try {
      const policy = await call('PUT', `/names/${encodeURIComponent(name)}/policy`, body(form, p, id));
      renderPolicy($(id('region')), name, policy, prefix);
      $(id('status')).textContent = `Saved the policy of ${name}.`;
    } catch (error) {
      const placed = (error.errors ?? []).filter((e) => INPUT_OF[e.field.replace(/\[\d+\]$/, '')]);
      for (const e of placed) {
        const part = INPUT_OF[e.field.replace(/\[\d+\]$/, '')];
        showError(id(`${part}-error`), e.message, $(id(part)));
      }
      if (placed.length < (error.errors ?? []).length || placed.length === 0) showError(id('error'), errorText(error));
    }
  });
}

function renderPolicy(region, name, policy, prefix) {
  const p = policy ?? { ...DEFAULTS, parentName: name };
  const summary = policy
    ? el('ul', { class: 'policy' }, ...policySentences(p).map((text) => el('li', { text })))
    : el('p', { class: 'muted', text: `No policy yet: holders can do nothing under ${name}.` });
  const link = el('a', { href: `/portal/claim?parent=${encodeURIComponent(name)}`, text: `Claim page of ${name}` });
  region.querySelector('.body').replaceChildren(summary, el('p', {}, link), editor(name, p, prefix));
}

async function fill(region, name, prefix) {
  try {
    renderPolicy(region, name, await call('GET', `/names/${encodeURIComponent(name)}/policy`), prefix);
  } catch (error) {
    if (error.code === 'POLICY_NOT_FOUND') renderPolicy(region, name, null, prefix);
    else region.querySelector('.body').replaceChildren(el('p', { class: 'status-bad', text: errorText(error) }));
  }
}

export function renderPolicies(names) {
  const regions = names.map((name, i) => {
    const prefix = `policy-${i}`;
    const region = el(
      'section',
      { id: `${prefix}-region`, class: 'resolution', role: 'region', 'aria-label': `Policy of ${name}` },
      el('h3', { text: name }),
      el('div', { class: 'body' }, el('p', { class: 'muted', text: 'Reading the policy…' })),
    );
    void fill(region, name, prefix);
    return region;
  });
  $('policies').replaceChildren(...regions);
  $('no-policies').hidden = names.length > 0;
}
