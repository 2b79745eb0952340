import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES } from '../../src/common/errors';
import { AppConfig } from '../../src/config/app-config';
import { PRIMARY_NAME_TYPES, primaryNameDomain, serviceOf } from '../../src/primary-names/primary-name-message';
import { Wallet } from 'ethers';
import { PortalChain } from '../support/portal-chain';
import { ADMIN_TOKEN, createTestApp, SigningCounts, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { exampleRequest, FuzzContext, RequestModel, toWire, WireRequest } from './generators';
import { OpenApi, Operation } from './openapi';

export interface WireResponse {
  status: number;
  contentType: string;
  text: string;
  setCookie?: string;
}

/** Everything the fuzzer needs to hand back when a case fails: the request as sent, the answer as received. */
export class FuzzFailure extends Error {}

const PROBLEM_SCHEMA = { $ref: '#/components/schemas/ProblemDto' };
const RESPONSE_TIMEOUT_MS = 15_000;

function excerpt(text: string | Buffer | undefined, max = 600): string {
  if (text === undefined) return '(none)';
  const s = typeof text === 'string' ? text : text.toString('utf8');
  return s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s;
}

/**
 * One application in process, listening on a loopback port, driven by a keep-alive HTTP client (and a bare
 * socket for request targets no client would send). It checks each answer and that refused requests wrote
 * nothing, by comparing a digest of every table before and after.
 */
export class FuzzHarness {
  readonly api = new OpenApi();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private port = 0;
  private context: FuzzContext = {};
  private snapshot?: string;
  /** The transaction counter when the snapshot was taken: while it has not moved, nothing can have written. */
  private snapshotXid?: string;
  private snapshotSql?: string;
  private casesSinceReset = 0;
  /** Answers seen, by operation and status: the summary printed at the end, and a check on the generators. */
  readonly statuses = new Map<string, Map<number, number>>();

  private constructor(
    private readonly t: TestApp,
    private readonly chain: PortalChain,
    private readonly wallet: Wallet,
    private readonly origin: string,
  ) {}

  /**
   * The service on an ENS chain (the portal and the resolution status read it) where the fuzzing wallet owns
   * oak.eth and is an operator, so that the portal's routes are reached past their session and chain checks.
   */
  static async start(): Promise<FuzzHarness> {
    const chain = await PortalChain.start();
    const wallet = new Wallet(Wallet.createRandom().privateKey);
    await chain.register('oak', wallet.address);
    const origin = 'http://127.0.0.1:1';
    const env = { ...(await chain.env()), PUBLIC_URL: origin, PORTAL_ADMIN_ADDRESSES: wallet.address };
    const t = await createTestApp({ LOG_LEVEL: 'silent', ...env }, { reset: true });
    await t.app.listen(0, '127.0.0.1');
    const h = new FuzzHarness(t, chain, wallet, origin);
    h.port = (t.app.getHttpServer().address() as AddressInfo).port;
    return h;
  }

  async close(): Promise<void> {
    this.agent.destroy();
    await this.t.close();
    await this.chain.close();
  }

  /** A portal session of the fuzzing wallet, and a key it issued: the portal's part of the context. */
  private async signIn(): Promise<Record<string, string>> {
    const json = { 'content-type': 'application/json', origin: this.origin };
    const post = async (target: string, body: object, headers: Record<string, string> = {}) =>
      this.send({
        method: 'POST',
        target,
        headers: { ...json, ...headers },
        body: Buffer.from(JSON.stringify(body)),
        rawSocket: false,
      });
    const address = this.wallet.address;
    const challenge = await post('/portal/api/session/challenge', { address });
    const { message } = JSON.parse(challenge.text) as { message: string };
    const signature = await this.wallet.signMessage(message);
    const signedIn = await post('/portal/api/session', { address, message, signature });
    if (signedIn.status !== 204)
      throw new Error(`fuzz setup: portal sign-in answered ${signedIn.status}: ${signedIn.text}`);
    const portalCookie = signedIn.setCookie!.split(';')[0];
    const me = await this.send({
      method: 'GET',
      target: '/portal/api/me',
      headers: { cookie: portalCookie },
      rawSocket: false,
    });
    const { csrfToken } = JSON.parse(me.text) as { csrfToken: string };
    const session = { cookie: portalCookie, 'x-portal-csrf': csrfToken };
    const key = await post('/portal/api/keys', { name: 'fuzz', parentNames: ['oak.eth'] }, session);
    if (key.status !== 201) throw new Error(`fuzz setup: portal key issue answered ${key.status}: ${key.text}`);
    return { portalCookie, portalCsrf: csrfToken, portalKeyId: (JSON.parse(key.text) as { id: string }).id };
  }

  /** The portal's page sends its origin and, on a state change, its CSRF token: so do the cases, unless mutated. */
  private withPortalHeaders(wire: WireRequest): WireRequest {
    if (!wire.target.toLowerCase().startsWith('/portal/api')) return wire;
    const headers: Record<string, string> = { origin: this.origin, ...wire.headers };
    if (wire.method !== 'GET' && this.context.portalCsrf) headers['x-portal-csrf'] ??= String(this.context.portalCsrf);
    return { ...wire, headers };
  }

  /**
   * Empty tables, every write operation's example request sent once (with a key of their own, which an
   * example may rotate or revoke), then a fresh API key for the cases.
   */
  async reset(): Promise<void> {
    await resetDatabase(this.t.dataSource);
    const portal = await this.signIn();
    this.context = { ...(await this.issueKey()), ...portal };
    for (const op of this.api.operations()) {
      if (op.method !== 'POST' && op.method !== 'PUT') continue;
      await this.send(this.withPortalHeaders(toWire(op, exampleRequest(this.api, op), this.context)));
    }
    this.context = { ...(await this.issueKey()), ...portal };
    Object.assign(this.context, await this.choosePrimaryName(String(this.context.apiKey)));
    this.snapshot = undefined;
    this.casesSinceReset = 0;
  }

  /**
   * A wallet whose stored name resolves to it chooses that name as its primary name (so GET finds one), and signs
   * a later choice for the generated requests to send (so POST succeeds once per reset, then is a replay).
   */
  private async choosePrimaryName(apiKey: string): Promise<FuzzContext> {
    const wallet = Wallet.createRandom();
    const name = 'fuzzprimary.oak.eth';
    const json = (target: string, body: object, headers: Record<string, string> = {}) =>
      this.send({
        method: 'POST',
        target,
        headers: { ...headers, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
        rawSocket: false,
      });
    const stored = await json(
      '/api/v1/subnames',
      { parentName: 'oak.eth', label: 'fuzzprimary', addresses: [{ coin: 60, value: wallet.address }] },
      { 'x-auth-token': apiKey },
    );
    if (stored.status !== 201) throw new Error(`fuzz setup: subname answered ${stored.status}: ${stored.text}`);
    const config = this.t.app.get(AppConfig);
    const sign = (issuedAt: number) =>
      wallet.signTypedData(primaryNameDomain(config.ens.chainId), PRIMARY_NAME_TYPES, {
        addr: wallet.address,
        name,
        issuedAt,
        service: serviceOf(config.publicUrl!),
      });
    const now = Math.floor(Date.now() / 1000);
    const chosen = await json('/api/v1/primary-names', {
      address: wallet.address,
      name,
      issuedAt: now - 1,
      signature: await sign(now - 1),
    });
    if (chosen.status !== 200) throw new Error(`fuzz setup: primary name answered ${chosen.status}: ${chosen.text}`);
    return {
      primaryAddress: wallet.address,
      primaryName: name,
      primaryIssuedAt: now,
      primarySignature: await sign(now),
    };
  }

  private async issueKey(): Promise<Record<string, string>> {
    const issued = await this.send({
      method: 'POST',
      target: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ name: 'fuzz', parentNames: ['oak.eth'] })),
      rawSocket: false,
    });
    if (issued.status !== 201) throw new Error(`fuzz setup: key issue answered ${issued.status}: ${issued.text}`);
    const key = JSON.parse(issued.text) as { id: string; key: string };
    return { apiKey: key.key, keyId: key.id, adminToken: ADMIN_TOKEN };
  }

  /** Where and how much the service has signed, from its /metrics. */
  signing(): Promise<SigningCounts> {
    return this.t.signing();
  }

  /** How many answers of an operation had a status in [from, to). */
  count(opId: string, from: number, to: number): number {
    let n = 0;
    for (const [status, k] of this.statuses.get(opId) ?? []) if (status >= from && status < to) n += k;
    return n;
  }

  summary(only?: string): string {
    return [...this.statuses]
      .filter(([id]) => !only || id === only)
      .map(([id, seen]) => {
        const parts = [...seen].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
        return `  ${id.padEnd(56)} ${parts.join(' ')}`;
      })
      .join('\n');
  }

  /** Sends one generated request and checks the answer; throws a FuzzFailure describing both. */
  async run(op: Operation, model: RequestModel, resetEvery: number): Promise<void> {
    if (++this.casesSinceReset > resetEvery) await this.reset();
    if (this.snapshot === undefined) {
      // The counter first: a write landing between the two is then in the content and only costs a comparison.
      this.snapshotXid = await this.nextXid();
      this.snapshot = await this.tables();
    }
    const wire = this.withPortalHeaders(toWire(op, model, this.context));
    let res: WireResponse;
    try {
      res = await this.send(wire);
    } catch (e) {
      throw this.failure(op, model, wire, undefined, `no answer: ${(e as Error).message}`);
    }
    const seen = this.statuses.get(op.id) ?? new Map<number, number>();
    seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
    this.statuses.set(op.id, seen);
    const problem = await this.check(op, model, res);
    if (problem) throw this.failure(op, model, wire, res, problem);
  }

  private async check(op: Operation, model: RequestModel, res: WireResponse): Promise<string | null> {
    if (res.status >= 500) return `a ${res.status} answer`;
    if (res.status < 200 || (res.status >= 300 && res.status < 400)) return `an unexpected ${res.status} answer`;
    // An empty path parameter names another path: `/subnames/` (405 with Allow, section 17) or one that does
    // not exist, `/holder//names` (404).
    const otherPath = Object.values(model.pathParams).some((v) => v === '');
    if (model.valid && !op.responses.has(res.status) && !(otherPath && (res.status === 405 || res.status === 404)))
      return `status ${res.status} is not documented for a valid request`;
    if (res.status >= 400) {
      const problem = this.problemBodyProblem(res);
      if (problem) return problem;
      const xid = await this.nextXid();
      if (xid === this.snapshotXid) return null;
      // Something took a transaction id (maybe a rolled-back attempt, maybe a background task): compare content.
      this.snapshotXid = xid;
      const after = await this.tables();
      if (after !== this.snapshot)
        return `a refused request (${res.status}) changed the tables:\n${diff(this.snapshot!, after)}`;
      return null;
    }
    // A success may write: take the next baseline before the next case.
    this.snapshot = undefined;
    // A raw target with `?` or `#` in it may have reached another route: only the checks above hold for it.
    if (model.rawTarget !== undefined) return null;
    const documented = op.responses.get(res.status);
    if (!documented) return `success status ${res.status} is not documented`;
    const json = documented.get('application/json');
    if (documented.has('application/json')) {
      if (!res.contentType.startsWith('application/json')) return `content-type ${res.contentType}, documented JSON`;
      let body: unknown;
      try {
        body = JSON.parse(res.text);
      } catch {
        return 'a JSON answer that does not parse';
      }
      if (json) {
        const errors = this.api.validate(json, body);
        if (errors) return `the answer does not match the documented schema: ${errors}`;
      }
    } else if (documented.size === 0 && res.text !== '') {
      return `status ${res.status} documents no body, got one`;
    }
    return null;
  }

  /** What is wrong with a 4xx answer as RFC 9457 problem JSON of the service's shape, if anything. */
  private problemBodyProblem(res: WireResponse): string | null {
    if (!res.contentType.startsWith('application/problem+json')) return `a ${res.status} without problem JSON`;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(res.text) as Record<string, unknown>;
    } catch {
      return `a ${res.status} whose problem body does not parse`;
    }
    const errors = this.api.validate(PROBLEM_SCHEMA, body);
    if (errors) return `a problem body off its schema: ${errors}`;
    if (body.status !== res.status) return `problem status ${String(body.status)} on a ${res.status}`;
    const code = ERROR_CODES[body.code as keyof typeof ERROR_CODES];
    if (!code || code.status !== res.status) return `problem code ${String(body.code)} on a ${res.status}`;
    return null;
  }

  /** The next transaction id to be assigned: every write, committed or rolled back, moves it. */
  private async nextXid(): Promise<string> {
    const [row] = (await this.t.dataSource.query(`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x`)) as {
      x: string;
    }[];
    return row.x;
  }

  /** One row per table: its row count and a digest of its content. */
  private async tables(): Promise<string> {
    if (!this.snapshotSql) {
      const tables = (await this.t.dataSource.query(
        // A portal session's idle clock moves with every request, and a sign-in attempt consumes its challenge
        // whatever its outcome: bookkeeping the contract asks for, not data a refusal may not change.
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public'
            AND tablename NOT IN ('migrations', 'portal_sessions', 'portal_challenges') ORDER BY 1`,
      )) as { tablename: string }[];
      this.snapshotSql = tables
        .map(
          ({ tablename: t }) =>
            `SELECT '${t}' AS t, count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${t}" x`,
        )
        .join(' UNION ALL ');
    }
    const rows = (await this.t.dataSource.query(this.snapshotSql)) as { t: string; n: number; h: string }[];
    return rows.map((r) => `${r.t}: ${r.n} rows, ${r.h}`).join('\n');
  }

  send(req: WireRequest): Promise<WireResponse> {
    return req.rawSocket ? this.sendRaw(req) : this.sendHttp(req);
  }

  private sendHttp(req: WireRequest): Promise<WireResponse> {
    return new Promise((resolve, reject) => {
      const r = httpRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          method: req.method,
          path: req.target,
          agent: this.agent,
          headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              text: Buffer.concat(chunks).toString('utf8'),
              setCookie: res.headers['set-cookie']?.[0],
            }),
          );
          res.on('error', reject);
        },
      );
      r.setTimeout(RESPONSE_TIMEOUT_MS, () => r.destroy(new Error('timed out')));
      r.on('error', reject);
      r.end(req.body);
    });
  }

  /** HTTP/1.1 over a bare socket, the request target written byte for byte (latin1). */
  private sendRaw(req: WireRequest): Promise<WireResponse> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.setTimeout(RESPONSE_TIMEOUT_MS, () => socket.destroy(new Error('timed out')));
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const all = Buffer.concat(chunks).toString('latin1');
        const end = all.indexOf('\r\n\r\n');
        const head = end >= 0 ? all.slice(0, end) : all;
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
        if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(all.slice(0, 200))}`));
        const contentType = /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '';
        let body: Buffer = end >= 0 ? Buffer.from(all.slice(end + 4), 'latin1') : Buffer.alloc(0);
        if (/\r\ntransfer-encoding: *chunked/i.test(head)) body = dechunk(body);
        resolve({ status, contentType, text: body.toString('utf8') });
      });
      const headers = Object.entries({ ...req.headers, host: 'localhost', connection: 'close' })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      const length = req.body ? `content-length: ${req.body.length}\r\n` : '';
      socket.write(Buffer.from(`${req.method} ${req.target} HTTP/1.1\r\n${headers}${length}\r\n`, 'latin1'));
      if (req.body) socket.write(req.body);
    });
  }

  private failure(
    op: Operation,
    model: RequestModel,
    wire: WireRequest,
    res: WireResponse | undefined,
    problem: string,
  ): FuzzFailure {
    const headers = Object.entries(wire.headers)
      .map(([k, v]) => `  ${k}: ${k.endsWith('token') && v === this.context.apiKey ? '<the setup API key>' : v}`)
      .join('\n');
    return new FuzzFailure(
      [
        `${op.id}: ${problem}`,
        `request (${model.valid ? 'schema-valid' : `mutated: ${model.mutations.join('; ')}`}):`,
        `  ${wire.method} ${JSON.stringify(wire.target).slice(0, 800)}${wire.rawSocket ? ' (bare socket)' : ''}`,
        headers,
        `  body: ${excerpt(wire.body)}`,
        res ? `answer: ${res.status} ${res.contentType}\n  ${excerpt(res.text)}` : 'answer: none',
      ].join('\n'),
    );
  }
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

function diff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  return b
    .map((line, i) => (line === a[i] ? null : `  before ${a[i] ?? '(none)'}\n  after  ${line}`))
    .filter(Boolean)
    .join('\n');
}
