import { getAddress, getBytes, type TypedDataField, Wallet } from 'ethers';
import { type Browser, type Locator, type Page } from 'playwright-core';
import request from 'supertest';
import { findChromium, launchChromium } from './support/chromium';
import { PortalChain } from './support/portal-chain';
import { freePort } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

/** The suite fails here, in one line, on a machine without Chromium. */
const CHROMIUM = findChromium();

/** An EIP-1193 wallet announced through EIP-6963, calling back into the test, which signs with ethers. */
const WALLET_SCRIPT = `(() => {
  const provider = { request: ({ method, params }) => window.__testWallet(method, params || []), on: () => provider };
  const info = { uuid: '0f4c3a2e-1b7d-4e6f-8a9b-2c3d4e5f6a7b', name: 'Test Wallet', icon: '', rdns: 'org.example.w' };
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;

interface TypedData {
  domain: Record<string, unknown>;
  types: Record<string, TypedDataField[]>;
  message: Record<string, unknown>;
}

async function walletRequest(wallet: Wallet, method: string, params: unknown[]): Promise<unknown> {
  switch (method) {
    case 'eth_requestAccounts':
    case 'eth_accounts':
      return [wallet.address];
    case 'personal_sign':
      return wallet.signMessage(getBytes(params[0] as string));
    case 'eth_signTypedData_v4': {
      if (getAddress(params[0] as string) !== wallet.address) throw new Error('asked to sign for another account');
      const { domain, types, message } = JSON.parse(params[1] as string) as TypedData;
      // ethers derives the domain's type itself and refuses it among the types.
      const { EIP712Domain: _domain, ...rest } = types;
      return wallet.signTypedData(domain, rest, message);
    }
    default:
      throw Object.assign(new Error(`${method} is not supported by the test wallet`), { code: 4200 });
  }
}

/** The text of the element named by the control's aria-describedby that holds `pattern`, once it shows. */
async function describedError(page: Page, control: Locator, pattern: RegExp): Promise<string> {
  const alert = page.getByRole('alert').filter({ hasText: pattern });
  await alert.waitFor();
  const id = await alert.getAttribute('id');
  expect((await control.getAttribute('aria-describedby'))!.split(' ')).toContain(id);
  expect(await control.getAttribute('aria-invalid')).toBe('true');
  return alert.innerText();
}

/**
 * The claim page and the portal's policy editor in Chromium (CONTRACT section 15, "The page"): the controller of
 * oak.eth opens claims in the portal, a visitor on a phone-sized screen claims a label and saves its records,
 * each signed by an injected wallet, and each refusal sits next to its field.
 */
describe('claim page and policy editor in Chromium', () => {
  let chain: PortalChain;
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  const owner = new Wallet(Wallet.createRandom().privateKey);
  const visitor = new Wallet(Wallet.createRandom().privateKey);

  async function open(wallet: Wallet, width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await page.exposeFunction('__testWallet', (method: string, params: unknown[]) =>
      walletRequest(wallet, method, params),
    );
    await page.addInitScript({ content: WALLET_SCRIPT });
    return page;
  }

  beforeAll(async () => {
    chain = await PortalChain.start();
    await chain.register('oak', owner.address);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ ...(await chain.env()), PUBLIC_URL: origin });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium(CHROMIUM);
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await chain?.close();
  });

  it('says what is wrong when the page has no parent, a bad one, or one without a policy', async () => {
    const page = await open(visitor, 390, 844);
    await page.goto(`${origin}/portal/claim`);
    await page.getByText('This page needs a parent name').waitFor();
    await page.goto(`${origin}/portal/claim?parent=oak`);
    await page.getByText('"oak" is not a parent name').waitFor();
    await page.goto(`${origin}/portal/claim?parent=elm.eth`);
    await page.getByText('elm.eth has no claim rules').waitFor();
    expect(await page.getByRole('button', { name: 'Connect wallet' }).isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: 'Claim' }).isHidden()).toBe(true);
    await page.screenshot({ path: '/tmp/claim-no-policy.png', fullPage: true });
    await page.context().close();
  });

  let secret: string;

  it('edits the policy in the portal: refused without a key, a bad field shown beside it, then saved', async () => {
    const page = await open(owner, 1200, 900);
    await page.goto(`${origin}/portal`);
    await page.getByRole('button', { name: 'Sign in with Ethereum' }).click();
    await page.getByRole('textbox', { name: 'Parent name' }).fill('oak.eth');
    await page.getByRole('button', { name: 'Add name' }).click();
    const region = page.getByRole('region', { name: 'Policy of oak.eth' });
    await region.getByText('No policy yet: holders can do nothing under oak.eth.').waitFor();
    expect(await region.getByRole('link', { name: 'Claim page of oak.eth' }).getAttribute('href')).toBe(
      '/portal/claim?parent=oak.eth',
    );

    await region.getByRole('radio', { name: 'Open to anyone' }).check();
    await region.getByRole('button', { name: 'Save policy' }).click();
    await region.getByText('No live key of this wallet covers oak.eth').waitFor();
    expect((await request(t.http).get('/api/v1/policies/oak.eth')).body.code).toBe('POLICY_NOT_FOUND');

    await page.getByRole('textbox', { name: 'Key name' }).fill('claims');
    await page.getByRole('button', { name: 'Create key' }).click();
    secret = (await page.getByRole('region', { name: 'New key' }).locator('code').innerText()).trim();
    const keyId = (await t.dataSource.query(`SELECT id FROM api_keys WHERE name = 'claims'`))[0].id as string;

    await region.getByRole('spinbutton', { name: 'Shortest label' }).fill('4');
    await region.getByRole('spinbutton', { name: 'Longest label' }).fill('2');
    await region.getByRole('button', { name: 'Save policy' }).click();
    const longest = region.getByRole('spinbutton', { name: 'Longest label' });
    expect(await describedError(page, longest, /at least minLength \(4\)/)).toMatch(/minLength/);

    await longest.fill('20');
    await region.getByRole('spinbutton', { name: 'Claims per address' }).fill('2');
    await region.getByRole('textbox', { name: 'Reserved labels' }).fill('Admin, www');
    await region.getByRole('checkbox', { name: 'Deletes' }).uncheck();
    await region.getByRole('button', { name: 'Save policy' }).click();
    await region.getByText('Saved the policy of oak.eth.').waitFor();
    expect(await region.innerText()).toContain('Anyone may claim up to 2 names under oak.eth.');
    await page.screenshot({ path: '/tmp/claim-portal-editor.png', fullPage: true });

    const stored = await request(t.http).get('/api/v1/policies/oak.eth').expect(200);
    expect(stored.body).toMatchObject({
      claims: 'open',
      allowlistSize: 0,
      claimsPerAddress: 2,
      labels: { minLength: 4, maxLength: 20, reserved: ['admin', 'www'] },
      holderRecords: { texts: ['*'], addresses: ['*'], contenthash: true },
      transfers: true,
      deletes: false,
      chargedKeyId: keyId,
    });
    const audit = await t.dataSource.query(`SELECT actor FROM audit_events WHERE action = 'policy.put'`);
    expect(audit).toEqual([{ actor: `wallet:${owner.address}` }]);
    await page.context().close();
  });

  it('shows the policy in words, claims a label by signature, refuses beside the field, and saves records', async () => {
    const page = await open(visitor, 390, 844);
    await page.goto(`${origin}/portal/claim?parent=oak.eth`);
    await page.getByText('Anyone may claim up to 2 names under oak.eth.').waitFor();
    const rules = await page.getByRole('region', { name: 'The rules of oak.eth' }).innerText();
    expect(rules).toContain('A label is 4 to 20 characters long.');
    expect(rules).toContain('Reserved, no one may claim them: admin, www.');
    expect(rules).toContain('Holders cannot delete their name.');
    await page.screenshot({ path: '/tmp/claim-policy.png', fullPage: true });

    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByText(`Connected: ${visitor.address}`).waitFor();
    expect(await page.getByRole('region', { name: 'Your names under oak.eth' }).isHidden()).toBe(true);

    const label = page.getByRole('textbox', { name: 'Label' });
    await label.fill('ab');
    await page.getByRole('button', { name: 'Claim' }).click();
    expect(await describedError(page, label, /shorter than the 4 characters/)).toMatch(/^Label "ab" is shorter/);
    await label.fill('admin');
    await page.getByRole('button', { name: 'Claim' }).click();
    await describedError(page, label, /admin is reserved/);
    await page.screenshot({ path: '/tmp/claim-refused.png', fullPage: true });

    await label.fill('Alice');
    await page.getByRole('button', { name: 'Claim' }).click();
    await page.getByText('alice.oak.eth is yours.').waitFor();
    expect(await label.getAttribute('aria-invalid')).toBeNull();
    const held = page.getByRole('region', { name: 'Your names under oak.eth' });
    expect(await held.innerText()).toContain('alice.oak.eth');

    const eth = page.getByRole('textbox', { name: 'ETH address' });
    await page.getByRole('textbox', { name: 'Description' }).fill('Alice of the oak');
    await eth.fill('0x1234');
    await page.getByRole('button', { name: 'Save' }).click();
    await describedError(page, eth, /address/i);
    await eth.fill(visitor.address.toLowerCase());
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved the records of alice.oak.eth.').waitFor();
    expect(await eth.getAttribute('aria-invalid')).toBeNull();
    await page.screenshot({ path: '/tmp/claim-saved.png', fullPage: true });

    const read = await request(t.http).get('/api/v1/subnames/alice.oak.eth').set('x-auth-token', secret).expect(200);
    expect(read.body).toMatchObject({
      owner: visitor.address,
      texts: { description: 'Alice of the oak' },
      addresses: { eth: visitor.address },
    });

    await page.reload();
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('textbox', { name: 'Description' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Description' }).inputValue()).toBe('Alice of the oak');
    await page.context().close();
  });
});
