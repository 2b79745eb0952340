import { getAddress, getBytes, Wallet } from 'ethers';
import { type Browser, type Page } from 'playwright-core';
import { findChromium, launchChromium } from './support/chromium';
import { PortalChain } from './support/portal-chain';
import { freePort } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

/** The suite fails here, in one line, on a machine without Chromium. */
const CHROMIUM = findChromium();

/** An EIP-1193 wallet announced through EIP-6963, calling back into the test (as portal-browser.e2e-spec does). */
const WALLET_SCRIPT = `(() => {
  const provider = { request: ({ method, params }) => window.__testWallet(method, params || []), on: () => provider, removeListener: () => provider };
  const info = { uuid: '0b6f1c8e-3a52-4d0e-9c1a-5e7f2d4b6a80', name: 'Test Wallet', icon: 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E', rdns: 'org.example.testwallet' };
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;

interface Served {
  t: TestApp;
  origin: string;
}

async function serve(env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ ...env, PUBLIC_URL: origin });
  await t.app.listen(port, '127.0.0.1');
  return { t, origin };
}

/**
 * The portal page's own defects (issue 33.6) and its first screen (CONTRACT section 17), in Chromium: a failed
 * fetch is words in the page, the no-chain message is said once, resolution steps show commands with the
 * service's own URL template and signer (no Markdown), and an error goes away after a later success.
 */
describe('developer portal page: first screen and failures in words', () => {
  let browser: Browser;
  const wallet = Wallet.createRandom();
  const pageErrors: string[] = [];

  const open = async (origin: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.exposeFunction('__testWallet', async (method: string, params: unknown[]) => {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [wallet.address];
      if (method === 'eth_chainId') return '0x7a69';
      if (method === 'personal_sign') return wallet.signMessage(getBytes(params[0] as string));
      throw Object.assign(new Error(`${method} is not supported`), { code: 4200 });
    });
    await page.addInitScript({ content: WALLET_SCRIPT });
    await page.goto(`${origin}/portal`);
    return page;
  };
  const signIn = async (page: Page) => {
    await page.getByRole('button', { name: 'Sign in with Ethereum' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  };

  beforeAll(async () => {
    browser = await launchChromium(CHROMIUM);
  });
  afterAll(() => browser?.close());
  afterEach(() => expect(pageErrors.splice(0)).toEqual([]));

  describe('without a chain', () => {
    let s: Served;
    beforeAll(async () => (s = await serve({})));
    afterAll(() => s.t.close());

    it('says what the service is, links /docs and the guides, and helps a visitor without a wallet or a name', async () => {
      const page = await open(s.origin);
      const welcome = page.locator('#welcome');
      await welcome.waitFor();
      expect(await welcome.innerText()).toMatch(/subnames of an ENS name/);
      expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs');
      expect(await page.getByRole('link', { name: /front page/ }).getAttribute('href')).toBe('/');
      expect(await page.getByRole('heading', { name: 'No wallet?' }).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'No parent name yet?' }).isVisible()).toBe(true);
      await page.screenshot({ path: '/tmp/portal-first-screen.png', fullPage: true });
    });

    it('gives the no-chain message once, as one sentence', async () => {
      const page = await open(s.origin);
      await signIn(page);
      await page.getByRole('textbox', { name: 'Parent name' }).fill('oak.eth');
      await page.getByRole('button', { name: 'Add name' }).click();
      const error = page.locator('#add-name-error');
      await error.filter({ hasText: 'ENS_RPC_URL' }).waitFor();
      const text = await error.innerText();
      expect(text.match(/ENS_RPC_URL/g)).toHaveLength(1);
      expect(text).toBe(
        'The chain cannot be read: The operator of this service has not configured a chain (ENS_RPC_URL is unset), ' +
          'so it cannot be read; ask them to set it.',
      );
    });
  });

  describe('with a chain', () => {
    let chain: PortalChain;
    let s: Served;
    beforeAll(async () => {
      chain = await PortalChain.start();
      await chain.register('oak', wallet.address);
      s = await serve(await chain.env());
    });
    afterAll(async () => {
      await s.t.close();
      await chain.close();
    });

    it('shows failed fetches in words, clears them after a later success, and shows steps with real values', async () => {
      const page = await open(s.origin);
      await signIn(page);
      await page.getByRole('textbox', { name: 'Parent name' }).fill('oak.eth');

      await page.route('**/portal/api/names', (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: 'Add name' }).click();
      const error = page.locator('#add-name-error');
      await error.filter({ hasText: 'could not be reached' }).waitFor();
      expect(await error.innerText()).toBe(
        'The service could not be reached (it may be restarting, or the network is down). Try again in a moment.',
      );
      await page.screenshot({ path: '/tmp/portal-unreachable.png', fullPage: true });
      await page.unroute('**/portal/api/names');

      await page.getByRole('button', { name: 'Add name' }).click();
      await page.locator('#names li', { hasText: 'oak.eth' }).waitFor();
      expect(await error.innerText()).toBe('');
      expect(await page.getByRole('textbox', { name: 'Parent name' }).getAttribute('aria-invalid')).toBeNull();

      const region = page.getByRole('region', { name: 'Resolution of oak.eth' });
      await region.getByText('do not resolve yet').waitFor();
      const steps = await region.innerText();
      const { address } = (await (await fetch(`${s.origin}/api/v1/ccip-read/signer`)).json()) as { address: string };
      expect(steps).not.toContain('`');
      expect(steps).toContain(`--signer ${getAddress(address)}`);
      expect(steps).toContain(`--url-template ${s.origin}/api/v1/ccip-read/`);
      expect(steps).not.toMatch(/--url-template URL|--signer ADDRESS/);
      expect(await region.locator('code').count()).toBeGreaterThan(0);
      await page.screenshot({ path: '/tmp/portal-resolution.png', fullPage: true });

      await page.route('**/portal/api/session', (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.locator('#page-error').filter({ hasText: 'Signing out failed' }).waitFor();
      await page.unroute('**/portal/api/session');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in with Ethereum' }).waitFor();
      expect(await page.locator('#page-error').innerText()).toBe('');
    });
  });
});
