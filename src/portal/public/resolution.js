// Whether each name resolves through this service: the five steps of the status, in words.

import { call } from './api.js';
import { $, el, errorText, withCode } from './dom.js';

function stepItem(step) {
  return el(
    'li',
    {},
    el('span', { 'aria-hidden': 'true', class: step.ok ? 'status-ok' : 'status-bad', text: step.ok ? '✓' : '✗' }),
    el('span', { class: 'step', text: step.step }),
    el(
      'span',
      {},
      el('span', { class: 'visually-hidden', text: step.ok ? 'holds: ' : 'fails: ' }),
      withCode(step.detail),
    ),
  );
}

async function fill(region, name) {
  const body = region.querySelector('.body');
  try {
    const status = await call('GET', `/names/${encodeURIComponent(name)}/resolution`);
    body.replaceChildren(
      el('p', {
        class: status.ok ? 'status-ok' : 'status-bad',
        text: status.ok
          ? `Subnames of ${name} resolve through this service.`
          : `Subnames of ${name} do not resolve yet.`,
      }),
      el('ol', { class: 'steps' }, ...status.steps.map(stepItem)),
    );
  } catch (error) {
    body.replaceChildren(el('p', { class: 'status-bad', text: errorText(error) }));
  }
}

export function renderResolutions(names) {
  const regions = names.map((name) =>
    el(
      'section',
      { class: 'resolution', role: 'region', 'aria-label': `Resolution of ${name}` },
      el('h3', { text: name }),
      el('div', { class: 'body' }, el('p', { class: 'muted', text: 'Checking on chain…' })),
    ),
  );
  $('resolutions').replaceChildren(...regions);
  if (names.length === 0) $('resolutions').append(el('p', { class: 'muted', text: 'Add a name to see its status.' }));
  regions.forEach((region, i) => void fill(region, names[i]));
}
