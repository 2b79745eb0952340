// The wallet's subnames: listed per parent, searched by label, exported as NDJSON in one click.

import { call, exportBlob } from './api.js';
import { $, busy, el, errorText, showError } from './dom.js';

const SIZE = 25;
let page = 1;

export function setParents(parents) {
  const select = $('subnames-parent');
  const current = select.value;
  select.replaceChildren(...parents.map((p) => el('option', { value: p, text: p, selected: p === current })));
  $('export').disabled = parents.length === 0;
  page = 1;
  void loadSubnames();
}

export async function loadSubnames() {
  const parentName = $('subnames-parent').value;
  const input = $('label-search');
  showError('subnames-error', '', input);
  if (!parentName) {
    $('subnames').replaceChildren();
    $('subnames-summary').textContent = '';
    return;
  }
  const query = new URLSearchParams({ parentName, page: String(page), size: String(SIZE) });
  if (input.value.trim()) query.set('labelSearch', input.value.trim());
  try {
    const result = await call('GET', `/subnames?${query}`);
    $('subnames').replaceChildren(
      ...result.items.map((s) =>
        el(
          'tr',
          {},
          el('td', { text: s.fullName }),
          el('td', {}, el('code', { text: s.addresses?.eth ?? '—' })),
          el('td', { text: s.updatedAt ? new Date(s.updatedAt).toLocaleString() : '' }),
        ),
      ),
    );
    const pages = Math.max(1, Math.ceil(result.totalItems / SIZE));
    $('subnames-summary').textContent =
      `${result.totalItems} subname${result.totalItems === 1 ? '' : 's'} · page ${page} of ${pages}`;
    $('prev-page').disabled = page <= 1;
    $('next-page').disabled = page >= pages;
  } catch (error) {
    showError('subnames-error', errorText(error), input);
  }
}

async function download() {
  const parentName = $('subnames-parent').value;
  await busy($('export'), async () => {
    try {
      const url = URL.createObjectURL(await exportBlob(parentName));
      const link = el('a', { href: url, download: `${parentName}.ndjson` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      showError('subnames-error', errorText(error));
    }
  });
}

export function initSubnames() {
  $('search-subnames').addEventListener('submit', (event) => {
    event.preventDefault();
    page = 1;
    void loadSubnames();
  });
  $('subnames-parent').addEventListener('change', () => {
    page = 1;
    void loadSubnames();
  });
  $('prev-page').addEventListener('click', () => {
    page = Math.max(1, page - 1);
    void loadSubnames();
  });
  $('next-page').addEventListener('click', () => {
    page += 1;
    void loadSubnames();
  });
  $('export').addEventListener('click', () => void download());
}
