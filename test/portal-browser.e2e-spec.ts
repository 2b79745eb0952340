import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { getAddress, getBytes, Wallet } from 'ethers';
import { type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { findChromium, launchChromium } from './support/chromium';
import { PortalChain } from './support/portal-chain';
import { freePort } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

/** The suite fails here, in one line, on a machine without Chromium. */
const CHROMIUM = findChromium();

const ARTIFACTS = join(__dirname, 'artifacts');
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' fill='%23627eea'/%3E%3C/svg%3E";

/** Everything the page could have kept: web storage, IndexedDB, the cookies it can read, and the URL. */
const READ_STORAGE = `(async () => {
  const dump = (s) => Object.keys(s).map((k) => k + '=' + s.getItem(k));
  const databases = await indexedDB.databases();
  return JSON.stringify({
    local: dump(localStorage),
    session: dump(sessionStorage),
    indexedDB: databases.map((d) => d.name),
    cookie: document.cookie,
    url: location.href,
  });
})()`;

async function pageStorage(page: Page): Promise<string> {
  return (await page.evaluate(READ_STORAGE)) as string;
}

/** The wallet as a page sees it: an EIP-1193 provider announced through EIP-6963, calling back into the test. */
const WALLET_SCRIPT = `(() => {
  const provider = {
    request: ({ method, params }) => window.__testWallet(method, params || []),
    on: () => provider,
    removeListener: () => provider,
  };
  const info = { uuid: '6b3c0e2a-8d1f-4c55-9a5e-0f6d7c3b2a19', name: 'Test Wallet', icon: ${JSON.stringify(ICON)}, rdns: 'org.example.testwallet' };
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;

/**
 * The portal in a real browser: Debian's Chromium driven by playwright-core, an EIP-1193 wallet injected into
 * the page (announced through EIP-6963, backed by an ethers Wallet the test holds), the service listening on
 * 127.0.0.1 with PUBLIC_URL at that origin, and an ENS chain where the wallet owns oak.eth.
 */
describe('developer portal in Chromium', () => {
  let chain: PortalChain;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const wallet = Wallet.createRandom();
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `portal-${name}.png`), fullPage: true });
  const write = (key: string, label: string) =>
    request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send({ parentName: 'oak.eth', label });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    chain = await PortalChain.start();
    await chain.register('oak', wallet.address);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ ...(await chain.env()), PUBLIC_URL: origin });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium(CHROMIUM);
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    await page.exposeFunction('__testWallet', async (method: string, params: unknown[]) => {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [wallet.address];
        case 'eth_chainId':
          return '0x7a69';
        case 'personal_sign':
          return wallet.signMessage(getBytes(params[0] as string));
        default:
          throw Object.assign(new Error(`${method} is not supported by the test wallet`), { code: 4200 });
      }
    });
    await page.addInitScript({ content: WALLET_SCRIPT });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await chain?.close();
  });

  it('signs in, adds a name, creates a key that writes, forgets the secret on reload, rotates and revokes', async () => {
    await page.goto(`${origin}/portal`);
    await page.getByRole('button', { name: 'Sign in with Ethereum' }).waitFor();
    await shot('signed-out');

    await page.getByRole('button', { name: 'Sign in with Ethereum' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect(page.getByText(getAddress(wallet.address)).isVisible()).resolves.toBe(true);

    await page.getByRole('textbox', { name: 'Parent name' }).fill('oak.eth');
    await page.getByRole('button', { name: 'Add name' }).click();
    await page.locator('#names li', { hasText: 'oak.eth' }).waitFor();
    expect(await page.locator('#names').innerText()).toContain('registry owner');

    await page.getByRole('textbox', { name: 'Key name' }).fill('production');
    const parent = page.getByRole('checkbox', { name: 'oak.eth' });
    if (!(await parent.isChecked())) await parent.check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const region = page.getByRole('region', { name: 'New key' });
    await region.waitFor();
    const secret = (await region.locator('code').innerText()).trim();
    expect(secret).toMatch(/^sns_/);
    await expect(region.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await page.getByRole('row', { name: /production/ }).waitFor();
    await page.getByRole('region', { name: 'Resolution of oak.eth' }).getByText('registry').first().waitFor();
    await shot('new-key');

    await write(secret, 'web').expect(201);

    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const row = page.getByRole('row', { name: /production/ });
    await row.waitFor();
    expect(await row.innerText()).toContain('1 / 2000');
    expect(await page.getByRole('region', { name: 'New key' }).isHidden()).toBe(true);
    expect(await page.content()).not.toContain(secret);
    const stored = await pageStorage(page);
    expect(stored).not.toContain(secret);
    expect(JSON.parse(stored).indexedDB).toEqual([]);
    await shot('signed-in');

    await row.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('region', { name: 'New key' }).waitFor();
    const rotated = (await page.getByRole('region', { name: 'New key' }).locator('code').innerText()).trim();
    expect(rotated).toMatch(/^sns_/);
    expect(rotated).not.toBe(secret);
    expect((await write(secret, 'old')).status).toBe(401);
    await write(rotated, 'rotated').expect(201);

    await page
      .getByRole('row', { name: /production/ })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.getByRole('row', { name: /production.*revoked/ }).waitFor();
    expect((await write(rotated, 'revoked')).status).toBe(401);
    // The revoked key's secret is no longer shown as if it worked.
    expect(await page.getByRole('region', { name: 'New key' }).isHidden()).toBe(true);

    const resolution = page.getByRole('region', { name: 'Resolution of oak.eth' });
    expect(await resolution.innerText()).toMatch(/do not resolve yet/);
    expect(await resolution.innerText()).toMatch(/registry/);
    await shot('revoked');
    expect(await pageStorage(page)).not.toContain(rotated);
  });
});
