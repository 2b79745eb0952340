import { randomBytes } from 'node:crypto';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';

const MAINNET_SIGNER_KEY = `0x${randomBytes(32).toString('hex')}`;
const TESTNET_SIGNER_KEY = `0x${randomBytes(32).toString('hex')}`;
const CCIP_SIGNER_KEY = `0x${randomBytes(32).toString('hex')}`;
const JSON_HEADERS = { 'content-type': 'application/json' };
/** How long the client holds back the second half of one request's body: that request lasts at least this long. */
const HOLD_MS = 400;

interface LogLine {
  level: string;
  time: string;
  msg: string;
  requestId?: string;
  method?: string;
  url?: string;
  route?: string;
  status?: number;
  durationMs?: number;
  context?: string;
}

describe('JSON logs of a service process (LOG_LEVEL=info)', () => {
  let svc: ServiceProcess;
  let apiKey: string;
  let lines: LogLine[];
  let plain: string[];
  /** elapsedMs: the client's wall time around the exchange, which holds the server's time for it. */
  const sent: { requestId: string; status: number; elapsedMs: number }[] = [];

  const call = async (path: string, init: RequestInit = {}, requestId?: string) => {
    const headers = new Headers(init.headers);
    if (requestId) headers.set('x-request-id', requestId);
    const started = performance.now();
    const res = await fetch(`${svc.url}${path}`, { ...init, headers });
    const body = await res.text();
    const elapsedMs = performance.now() - started;
    sent.push({ requestId: res.headers.get('x-request-id')!, status: res.status, elapsedMs });
    return { res, body };
  };

  /** A body sent in two halves, HOLD_MS apart: the server's answer waits for the second. */
  const heldBody = (text: string): ReadableStream<Uint8Array> => {
    const bytes = new TextEncoder().encode(text);
    const half = Math.floor(bytes.length / 2);
    let held = false;
    return new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(bytes.subarray(0, half)),
      // Called once the first half has been taken for sending (the request's headers go before it).
      pull: async (c) => {
        if (held) return;
        held = true;
        await new Promise((r) => setTimeout(r, HOLD_MS));
        c.enqueue(bytes.subarray(half));
        c.close();
      },
    });
  };

  beforeAll(async () => {
    await resetTestDatabase();
    svc = await startServiceProcess({
      LOG_LEVEL: 'info',
      MINT_MAINNET_SIGNER_KEY: MAINNET_SIGNER_KEY,
      MINT_TESTNET_SIGNER_KEY: TESTNET_SIGNER_KEY,
      CCIP_SIGNER_KEY,
    });
    const issued = await call('/api/v1/admin/api-keys', {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'logging', parentNames: ['oak.eth'] }),
    });
    apiKey = (JSON.parse(issued.body) as { key: string }).key;
    const keyed = { ...JSON_HEADERS, 'x-auth-token': apiKey };
    await call(
      '/api/v1/subnames',
      { method: 'POST', headers: keyed, body: '{"parentName":"oak.eth","label":"logged"}' },
      'trace-abc-123',
    );
    await call(
      '/api/v1/subnames',
      {
        method: 'POST',
        headers: keyed,
        body: heldBody('{"parentName":"oak.eth","label":"held"}'),
        duplex: 'half',
      } as RequestInit,
      'held-body',
    );
    await call('/api/v1/subnames', { method: 'POST', headers: keyed, body: '{"parentName":' });
    await call('/api/v1/subnames', { method: 'POST', headers: keyed, body: JSON.stringify({ x: 'y'.repeat(70_000) }) });
    await call('/api/v1/subnames', {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'x-auth-token': `${apiKey}x` },
      body: '{}',
    });
    await call('/api/v1/quota', { headers: { 'x-auth-token': apiKey } });
    await call('/api/v1/admin/api-keys', { headers: { 'x-admin-token': `${ADMIN_TOKEN}-wrong` } });
    await call('/api/v1/admin/api-keys', {
      headers: { 'x-admin-token': ADMIN_TOKEN, authorization: `Bearer ${apiKey}` },
    });
    await call('/api/v1/subnames/logged.oak.eth', {}, 'bad id with spaces');
    await call('/api/v1/mint/signer?isTestnet=true');
    await call('/api/v1/ccip-read/signer');
    expect(await svc.stop()).toBe(0);
    const all = svc
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
    plain = all.filter((l) => !l.startsWith('{'));
    lines = all.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine);
  });

  it('writes JSON lines, each with a level, an ISO time and a message, and one plain start-up line', () => {
    // Section 17: start-up ends with one line a person reads; everything else is JSON.
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatch(/^Ready: http:\/\/.+ \| database: .+ \| admin routes: on .*\/docs.*\/portal/);
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      expect(typeof line.level).toBe('string');
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(typeof line.msg).toBe('string');
    }
    // Nest's own messages go through the same logger.
    expect(lines.some((l) => l.context === 'NestApplication' && l.msg.includes('successfully started'))).toBe(true);
  });

  it('never logs the API key, the admin token or the signer keys', () => {
    const text = svc.output();
    const keys = [MAINNET_SIGNER_KEY, TESTNET_SIGNER_KEY, CCIP_SIGNER_KEY];
    for (const secret of [apiKey, ADMIN_TOKEN, ...keys, ...keys.map((k) => k.slice(2))]) {
      expect(text.includes(secret)).toBe(false);
    }
    // Not even the part after the readable prefix that the issue message shows.
    expect(text.includes(apiKey.slice(12))).toBe(false);
  });

  it('logs one line per request with request id, method, route template, status and duration', () => {
    const requestLines = lines.filter((l) => l.durationMs !== undefined);
    for (const { requestId, status, elapsedMs } of sent) {
      const mine = requestLines.filter((l) => l.requestId === requestId);
      expect(mine).toHaveLength(1);
      expect(mine[0].status).toBe(status);
      expect(typeof mine[0].method).toBe('string');
      expect(typeof mine[0].route).toBe('string');
      expect(Number.isInteger(mine[0].durationMs)).toBe(true);
      // Milliseconds of this request (not seconds, not a clock reading): within the client's own wall time for it,
      // plus the moment between the client's last byte and the server's 'finish' event.
      expect(mine[0].durationMs).toBeLessThanOrEqual(Math.ceil(elapsedMs) + 50);
    }
    // The server's clock starts at the headers and stops after the answer, which waited for the held half.
    const held = requestLines.find((l) => l.requestId === 'held-body')!;
    expect(held).toMatchObject({ method: 'POST', status: 201 });
    expect(held.durationMs).toBeGreaterThanOrEqual(HOLD_MS);
    const create = requestLines.find((l) => l.requestId === 'trace-abc-123')!;
    expect(create).toMatchObject({ method: 'POST', route: '/api/v1/subnames', url: '/api/v1/subnames', status: 201 });
    const read = requestLines.find((l) => l.url === '/api/v1/subnames/logged.oak.eth')!;
    expect(read.route).toBe('/api/v1/subnames/:fullName');
    // A request id that is not a sane token is replaced, not logged.
    expect(requestLines.some((l) => l.requestId === 'bad id with spaces')).toBe(false);
    const tooLarge = requestLines.find((l) => l.status === 413)!;
    expect(tooLarge.route).toBe('unmatched');
  });

  it('tags log lines written while handling a request with its id', () => {
    const issued = lines.find((l) => l.msg.startsWith('issued API key'));
    expect(issued).toBeDefined();
    expect(issued!.requestId).toBe(sent[0].requestId);
  });
});
