// The claim page: a parent's policy in words, then a claim and record edits, each signed by the visitor's wallet.

import { callService } from './api.js';
import { $, busy, el, showError } from './dom.js';
import { policySentences } from './policy-words.js';
import { requestAddress, signTypedData, walletErrorText, watchWallets } from './wallet.js';

const state = { parent: null, policy: null, wallets: [], provider: null, address: null, held: [], issuedAt: 0 };
const PARENT = /^[^.\s/?#]+(\.[^.\s/?#]+)+$/;
const HELD_PAGE = 100;

/** Each action must be signed later than the signer's last one: two actions in one second take the next second. */
function nextIssuedAt() {
  state.issuedAt = Math.max(Math.floor(Date.now() / 1000), state.issuedAt + 1);
  return state.issuedAt;
}

function sentence(text) {
  const t = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** A refusal in the service's words (the reasons of its field errors when it names fields), or the wallet's. */
function failText(error) {
  if (error?.status === undefined) return walletErrorText(error);
  // A field's reason reads "must be …" or "is not …": said of the value the visitor typed.
  const reasons = (error.errors ?? []).map((e) => e.message.replace(/^(must|is) /, 'this $1 '));
  return sentence(reasons.length > 0 ? reasons.join('; ') : error.message || 'Something went wrong');
}

/** The page cannot go on (no parent, or no policy): say why where the rules would be. */
function stop(message) {
  $('policy').replaceChildren(el('li', { class: 'status-bad', text: message }));
  $('connect').hidden = true;
}

async function loadPolicy() {
  const raw = new URLSearchParams(location.search).get('parent') ?? '';
  const parent = raw.trim().toLowerCase();
  if (!parent) return stop('This page needs a parent name: open it as /portal/claim?parent=oak.eth.');
  if (!PARENT.test(parent)) return stop(`"${raw}" is not a parent name: use one such as oak.eth.`);
  state.parent = parent;
  document.title = `Claim a name under ${parent} · ENS subnames`;
  $('title').textContent = `Claim a name under ${parent}`;
  $('suffix').textContent = `.${parent}`;
  try {
    state.policy = await callService('GET', `/policies/${encodeURIComponent(parent)}`);
  } catch (error) {
    if (error.code === 'POLICY_NOT_FOUND')
      return stop(`${parent} has no claim rules, so no one can claim a name under it here yet.`);
    return stop(error.status === 400 ? `"${raw}" is not a valid ENS name: ${failText(error)}` : failText(error));
  }
  renderPolicy(state.policy);
}

function renderPolicy(policy) {
  $('policy-title').textContent = `The rules of ${policy.parentName}`;
  $('policy').replaceChildren(...policySentences(policy).map((text) => el('li', { text })));
  const { minLength, maxLength } = policy.labels;
  $('label-hint').textContent = `${minLength} to ${maxLength} characters: letters, digits, hyphens or emoji.`;
  $('claim-card').hidden = policy.claims === 'closed';
  const { texts, addresses } = policy.holderRecords;
  $('description').closest('.field').hidden = !texts.includes('*') && !texts.includes('description');
  $('eth-address').closest('.field').hidden = !addresses.includes('*') && !addresses.includes(60);
}

async function connect(wallet = state.wallets[0]) {
  showError('connect-error', '');
  if (!wallet) {
    showError('connect-error', 'No Ethereum wallet was found in this browser. Install or enable one, then reload.');
    return false;
  }
  try {
    state.address = await requestAddress(wallet.provider);
    state.provider = wallet.provider;
  } catch (error) {
    showError('connect-error', walletErrorText(error));
    return false;
  }
  $('address').textContent = `Connected: ${state.address}`;
  $('address').hidden = false;
  $('connect').hidden = true;
  $('wallets').hidden = true;
  await loadHeld();
  return true;
}

/** The names the wallet holds under this parent, and the records form for them (`chosen` selected). */
async function loadHeld(chosen) {
  try {
    const page = await callService('GET', `/holder/${state.address}/names?size=${HELD_PAGE}`);
    state.held = page.items.filter((s) => s.parentName === state.parent);
  } catch (error) {
    showError('connect-error', failText(error));
    return;
  }
  $('held-title').textContent = `Your names under ${state.parent}`;
  $('held').replaceChildren(...state.held.map((s) => el('li', {}, el('span', { class: 'name', text: s.fullName }))));
  $('held-card').hidden = state.held.length === 0;
  $('records-card').hidden = state.held.length === 0;
  const select = $('record-name');
  const keep = chosen ?? select.value;
  select.replaceChildren(...state.held.map((s) => el('option', { value: s.fullName, text: s.fullName })));
  if (state.held.some((s) => s.fullName === keep)) select.value = keep;
  $('record-name-field').hidden = state.held.length < 2;
  fillRecords();
}

function fillRecords() {
  const subname = state.held.find((s) => s.fullName === $('record-name').value);
  if (!subname) return;
  $('records-title').textContent = `Records of ${subname.fullName}`;
  $('description').value = subname.texts?.description ?? '';
  $('eth-address').value = subname.addresses?.eth ?? '';
}

/** The service's typed data for the action, signed by the wallet, then the action itself. */
async function signed(action, fields) {
  const typedData = await callService('POST', `/holder/${action}/typed-data`, fields);
  const signature = await signTypedData(state.provider, state.address, typedData);
  return callService('POST', `/holder/${action}`, { ...fields, signature });
}

async function claim(event) {
  event.preventDefault();
  const input = $('label');
  showError('label-error', '', input);
  $('claim-status').textContent = '';
  const label = input.value.trim().normalize('NFC').toLowerCase();
  if (!label) return showError('label-error', 'Enter the label you want, for example alice.', input);
  if (label.includes('.')) return showError('label-error', `Enter only the part before .${state.parent}.`, input);
  await busy($('claim-button'), async () => {
    if (!state.address && !(await connect())) return showError('label-error', 'Connect your wallet first.', input);
    const fields = { name: `${label}.${state.parent}`, owner: state.address, texts: [], addresses: [] };
    try {
      const subname = await signed('claim', { ...fields, issuedAt: nextIssuedAt() });
      input.value = '';
      $('claim-status').textContent = `${subname.fullName} is yours. Add its records below.`;
      await loadHeld(subname.fullName);
    } catch (error) {
      showError('label-error', failText(error), input);
    }
  });
}

/** Which input a records refusal concerns: by the field it names, else by the record its words name. */
function recordsInput(error) {
  const field = error?.errors?.[0]?.field ?? '';
  if (field.startsWith('texts') || /text key/.test(error?.message ?? '')) return 'description';
  if (field.startsWith('addresses') || /coin/.test(error?.message ?? '')) return 'eth-address';
  return null;
}

async function save(event) {
  event.preventDefault();
  const inputs = ['description', 'eth-address'];
  for (const id of inputs) showError(`${id}-error`, '', $(id));
  showError('save-error', '');
  $('save-status').textContent = '';
  const shown = inputs.filter((id) => !$(id).closest('.field').hidden);
  const value = (id) => $(id).value.trim();
  const fields = {
    name: $('record-name').value,
    // An empty box removes the record.
    texts: shown.includes('description') ? [{ key: 'description', value: value('description') }] : [],
    addresses: shown.includes('eth-address') ? [{ coin: 60, value: value('eth-address') }] : [],
    contenthash: '',
  };
  await busy($('save'), async () => {
    try {
      const subname = await signed('records', { ...fields, issuedAt: nextIssuedAt() });
      state.held = state.held.map((s) => (s.fullName === subname.fullName ? subname : s));
      fillRecords();
      $('save-status').textContent = `Saved the records of ${subname.fullName}.`;
    } catch (error) {
      const id = recordsInput(error);
      if (id) showError(`${id}-error`, failText(error), $(id));
      else showError('save-error', failText(error));
    }
  });
}

function renderWallets(list) {
  state.wallets = list;
  const box = $('wallets');
  box.hidden = list.length < 2 || Boolean(state.address);
  box.replaceChildren(
    ...(list.length < 2 ? [] : list.map((w) => el('button', { type: 'button', onclick: () => connect(w) }, w.name))),
  );
}

async function start() {
  $('connect').addEventListener('click', () => busy($('connect'), () => connect()));
  $('claim').addEventListener('submit', claim);
  $('records').addEventListener('submit', save);
  $('record-name').addEventListener('change', fillRecords);
  watchWallets(renderWallets);
  await loadPolicy();
}

void start();
