/**
 * A holder's side of CONTRACT section 15 over HTTP, as a team's web page runs it: ask a service (an in-process app
 * listening on loopback, or a service process) for an action's typed data, have a key sign it, post it.
 */
import type { TypedDataField } from 'ethers';

export type HolderFields = Record<string, unknown>;

/** Anything that signs EIP-712 typed data as ethers does (a Wallet; the owner key of a contract account). */
export interface TypedDataSigner {
  address: string;
  signTypedData(
    domain: Record<string, unknown>,
    types: Record<string, TypedDataField[]>,
    message: Record<string, unknown>,
  ): Promise<string>;
}

export interface HolderAnswer {
  status: number;
  body: { code?: string; owner?: string; fullName?: string; addresses?: Record<string, string> } & Record<
    string,
    unknown
  >;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

async function postJson(url: string, body: unknown): Promise<HolderAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as HolderAnswer['body']) : {} };
}

export class HolderClient {
  constructor(readonly baseUrl: string) {}

  /** The action's body: `fields` plus the signature `signer` makes of the typed data the route returns. */
  async signed(action: string, signer: TypedDataSigner, fields: HolderFields): Promise<HolderFields> {
    const td = await postJson(`${this.baseUrl}/api/v1/holder/${action}/typed-data`, fields);
    if (td.status !== 200) throw new Error(`typed data of ${action}: ${td.status} ${JSON.stringify(td.body)}`);
    const { domain, types, message } = td.body as {
      domain: Record<string, unknown>;
      types: Record<string, TypedDataField[]>;
      message: Record<string, unknown>;
    };
    const { EIP712Domain: _domain, ...withoutDomain } = types;
    return { ...fields, signature: await signer.signTypedData(domain, withoutDomain, message) };
  }

  post(action: string, body: HolderFields): Promise<HolderAnswer> {
    return postJson(`${this.baseUrl}/api/v1/holder/${action}`, body);
  }

  async act(action: string, signer: TypedDataSigner, fields: HolderFields): Promise<HolderAnswer> {
    return this.post(action, await this.signed(action, signer, fields));
  }

  /** A claim of `name` for `owner` (the signer's own address unless given), with no records unless given. */
  claim(signer: TypedDataSigner, name: string, extra: HolderFields = {}, owner = signer.address) {
    return this.act('claim', signer, { name, owner, texts: [], addresses: [], issuedAt: nowSeconds(), ...extra });
  }
}
