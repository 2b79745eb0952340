import { call, setCsrfToken } from './api.js';
import { $, busy, errorText, showError, showPageError } from './dom.js';
import { renderKeys, renderNames, renderNewKey, renderParentOptions } from './keys.js';
import { loadOperator } from './operator.js';
import { renderPolicies } from './policies.js';
import { renderResolutions } from './resolution.js';
import { initSubnames, setParents } from './subnames.js';
import { requestAddress, signMessage, walletErrorText, watchWallets } from './wallet.js';

const state = { me: null, keys: [], wallets: [], chosen: null };

async function refreshKeys() {
  state.keys = await call('GET', '/keys');
  renderKeys(state.keys, { rotate, revoke });
  showError('keys-error', '');
}

async function loadWorkspace() {
  state.me = await call('GET', '/me');
  setCsrfToken(state.me.csrfToken);
  $('address').textContent = state.me.address;
  $('operator-badge').hidden = !state.me.admin;
  $('signed-out').hidden = true;
  $('signed-in').hidden = false;
  $('welcome').hidden = true;
  $('workspace').hidden = false;
  renderNamesEverywhere();
  await refreshKeys();
  $('operator').hidden = !state.me.admin;
  if (state.me.admin) await loadOperator();
}

function renderNamesEverywhere() {
  const names = state.me.names;
  renderNames(names);
  renderParentOptions(names);
  setParents(names.map((n) => n.name));
  renderResolutions(names.map((n) => n.name));
  renderPolicies(names.map((n) => n.name));
}

function showSignedOut() {
  state.me = null;
  setCsrfToken(null);
  $('signed-out').hidden = false;
  $('signed-in').hidden = true;
  $('welcome').hidden = false;
  $('workspace').hidden = true;
  renderNewKey(null);
}

async function signIn(wallet) {
  const button = $('sign-in');
  showError('sign-in-error', '');
  if (!wallet) {
    showError('sign-in-error', 'No Ethereum wallet was found in this browser. Install or enable one, then reload.');
    return;
  }
  await busy(button, async () => {
    try {
      const address = await requestAddress(wallet.provider);
      const { message } = await call('POST', '/session/challenge', { address });
      const signature = await signMessage(wallet.provider, address, message);
      await call('POST', '/session', { address, message, signature });
      await loadWorkspace();
    } catch (error) {
      showError('sign-in-error', error?.status ? errorText(error) : walletErrorText(error));
    }
  });
}

function renderWallets(list) {
  state.wallets = list;
  const box = $('wallets');
  box.replaceChildren();
  box.hidden = list.length < 2;
  if (list.length < 2) return;
  for (const wallet of list) {
    const button = document.createElement('button');
    button.type = 'button';
    if (wallet.icon?.startsWith('data:image/')) {
      const icon = document.createElement('img');
      icon.src = wallet.icon;
      icon.alt = '';
      button.append(icon);
    }
    button.append(wallet.name);
    button.addEventListener('click', () => signIn(wallet));
    box.append(button);
  }
}

async function addName(event) {
  event.preventDefault();
  const input = $('parent-name');
  const name = input.value.trim();
  showError('add-name-error', '', input);
  if (!name) return showError('add-name-error', 'Enter a parent name, for example oak.eth.', input);
  const button = event.submitter ?? $('add-name').querySelector('button');
  await busy(button, async () => {
    try {
      await call('POST', '/names', { name });
      input.value = '';
      state.me = await call('GET', '/me');
      renderNamesEverywhere();
    } catch (error) {
      showError('add-name-error', errorText(error), input);
    }
  });
}

async function createKey(event) {
  event.preventDefault();
  const input = $('key-name');
  const parentNames = [...document.querySelectorAll('#key-parent-options input:checked')].map((c) => c.value);
  showError('create-key-error', '', input);
  if (!input.value.trim()) return showError('create-key-error', 'Give the key a name, for example production.', input);
  if (parentNames.length === 0) return showError('create-key-error', 'Choose at least one parent name.', input);
  const button = event.submitter ?? $('create-key').querySelector('button[type=submit]');
  await busy(button, async () => {
    try {
      const created = await call('POST', '/keys', { name: input.value.trim(), parentNames });
      input.value = '';
      renderNewKey(created.key, `Key "${created.name}" created.`);
      await refreshKeys();
    } catch (error) {
      showError('create-key-error', errorText(error), input);
    }
  });
}

async function rotate(key, button) {
  showError('keys-error', '');
  await busy(button, async () => {
    try {
      const rotated = await call('POST', `/keys/${key.id}/rotate`, {});
      renderNewKey(rotated.key, `Key "${key.name}" rotated: the old secret no longer works.`);
      await refreshKeys();
    } catch (error) {
      showError('keys-error', errorText(error));
    }
  });
}

async function revoke(key, button) {
  showError('keys-error', '');
  await busy(button, async () => {
    try {
      await call('DELETE', `/keys/${key.id}`);
      // A secret shown for this key works no more: it must not stay on screen as if it did.
      renderNewKey(null);
      await refreshKeys();
    } catch (error) {
      showError('keys-error', errorText(error));
    }
  });
}

async function signOut() {
  try {
    await call('DELETE', '/session');
    showSignedOut();
  } catch (error) {
    showPageError(`Signing out failed: ${errorText(error)}`);
  }
}

async function start() {
  $('sign-in').addEventListener('click', () => signIn(state.chosen ?? state.wallets[0]));
  $('sign-out').addEventListener('click', signOut);
  $('add-name').addEventListener('submit', addName);
  $('create-key').addEventListener('submit', createKey);
  initSubnames();
  watchWallets(renderWallets);
  try {
    await loadWorkspace();
  } catch (error) {
    showSignedOut();
    if (error?.status === 0) showPageError(errorText(error));
  }
}

void start();
