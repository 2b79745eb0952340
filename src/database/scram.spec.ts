import { randomBytes } from 'node:crypto';
import { clientProof, scramChallenge, scramFinal, scramKeys } from './scram';

// RFC 7677 section 3: the SCRAM-SHA-256 exchange of user "user" with password "pencil".
const RFC = {
  clientFirst: 'n,,n=user,r=rOprNGfwEbeRWgbNEkqO',
  serverNonce: '%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0',
  salt: Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'),
  serverFirst: 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
  clientFinalWithoutProof: 'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0',
  proof: 'dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
  serverFinal: 'v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=',
};
const clientFinal = `${RFC.clientFinalWithoutProof},p=${RFC.proof}`;

// pg's own SCRAM client, the one the service's pool uses against the embedded database's server.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pgSasl = require('pg/lib/crypto/sasl') as {
  startSession(mechanisms: string[]): { response: string };
  continueSession(session: object, password: string, serverData: string): Promise<void>;
  finalizeSession(session: object, serverData: string): void;
};

describe('SCRAM-SHA-256', () => {
  const keys = scramKeys('pencil', RFC.salt, 4096);

  it('answers the RFC 7677 client-first message with its server-first message', () => {
    const challenge = scramChallenge(keys, RFC.clientFirst, RFC.serverNonce);
    expect(challenge).toEqual({
      nonce: 'rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0',
      clientFirstBare: 'n=user,r=rOprNGfwEbeRWgbNEkqO',
      serverFirst: RFC.serverFirst,
    });
  });

  it('computes the RFC 7677 client proof and server signature exactly', () => {
    const authMessage = `n=user,r=rOprNGfwEbeRWgbNEkqO,${RFC.serverFirst},${RFC.clientFinalWithoutProof}`;
    expect(clientProof(keys, authMessage).toString('base64')).toBe(RFC.proof);
    const challenge = scramChallenge(keys, RFC.clientFirst, RFC.serverNonce)!;
    expect(scramFinal(keys, challenge, clientFinal)).toBe(RFC.serverFinal);
  });

  it('refuses a wrong password, a changed proof, another nonce and malformed messages', () => {
    const challenge = scramChallenge(keys, RFC.clientFirst, RFC.serverNonce)!;
    expect(scramFinal(scramKeys('pencils', RFC.salt, 4096), challenge, clientFinal)).toBeNull();
    const proof = Buffer.from(RFC.proof, 'base64');
    proof[31] ^= 1;
    expect(scramFinal(keys, challenge, `${RFC.clientFinalWithoutProof},p=${proof.toString('base64')}`)).toBeNull();
    expect(
      scramFinal(keys, challenge, `${RFC.clientFinalWithoutProof},p=${proof.subarray(0, 16).toString('base64')}`),
    ).toBeNull();
    expect(scramFinal(keys, { ...challenge, nonce: `${challenge.nonce}x` }, clientFinal)).toBeNull();
    expect(scramFinal(keys, challenge, RFC.clientFinalWithoutProof)).toBeNull();
    expect(scramFinal(keys, challenge, clientFinal.replace('c=biws,', ''))).toBeNull();
    expect(scramChallenge(keys, 'n=user,r=abc', RFC.serverNonce)).toBeNull();
    expect(scramChallenge(keys, 'p=tls-server-end-point,,n=user,r=abc', RFC.serverNonce)).toBeNull();
  });

  it("completes an exchange with pg's client, which accepts the server's signature", async () => {
    const ours = scramKeys('a password with ümlauts', randomBytes(16), 4096);
    const session = pgSasl.startSession(['SCRAM-SHA-256']);
    const challenge = scramChallenge(ours, session.response, randomBytes(18).toString('base64'))!;
    await pgSasl.continueSession(session, 'a password with ümlauts', challenge.serverFirst);
    const serverFinal = scramFinal(ours, challenge, (session as { response: string }).response);
    expect(serverFinal).toMatch(/^v=[A-Za-z0-9+/]{43}=$/);
    expect(() => pgSasl.finalizeSession(session, serverFinal!)).not.toThrow();
    const wrong = pgSasl.startSession(['SCRAM-SHA-256']);
    const wrongChallenge = scramChallenge(ours, wrong.response, randomBytes(18).toString('base64'))!;
    await pgSasl.continueSession(wrong, 'another password', wrongChallenge.serverFirst);
    expect(scramFinal(ours, wrongChallenge, wrong.response)).toBeNull();
  });
});
