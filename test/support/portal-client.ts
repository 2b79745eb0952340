/** A wallet using the portal's JSON API the way the page does: same origin, the session cookie, the CSRF header. */
import type { Wallet } from 'ethers';
import request from 'supertest';
type App = Parameters<typeof request>[0];

export interface PortalSession {
  address: string;
  cookie: string;
  csrf: string;
}

export class PortalClient {
  constructor(
    private readonly http: App,
    readonly origin: string,
  ) {}

  challenge(address: string) {
    return request(this.http).post('/portal/api/session/challenge').set('Origin', this.origin).send({ address });
  }

  submit(body: { address: string; message: string; signature: string }) {
    return request(this.http).post('/portal/api/session').set('Origin', this.origin).send(body);
  }

  /** Signs in with `sign` over the service's message (a wallet's personal_sign by default). */
  async signIn(
    wallet: Pick<Wallet, 'address' | 'signMessage'>,
    sign: (message: string) => Promise<string> = (m) => wallet.signMessage(m),
  ): Promise<PortalSession> {
    const message = (await this.challenge(wallet.address).expect(200)).body.message as string;
    const res = await this.submit({ address: wallet.address, message, signature: await sign(message) }).expect(204);
    const cookie = String(res.headers['set-cookie'][0]).split(';')[0];
    const me = await request(this.http).get('/portal/api/me').set('Cookie', cookie).expect(200);
    return { address: me.body.address as string, cookie, csrf: me.body.csrfToken as string };
  }

  get(s: PortalSession, path: string) {
    return request(this.http).get(`/portal/api${path}`).set('Cookie', s.cookie);
  }

  /** A state change as the page sends it. */
  send(s: PortalSession, method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: object) {
    const req = request(this.http)
      [method](`/portal/api${path}`)
      .set('Cookie', s.cookie)
      .set('Origin', this.origin)
      .set('x-portal-csrf', s.csrf);
    return body === undefined ? req : req.send(body);
  }
}
