/** What POST /subnames/batch made of one chunk. */
export type BatchOutcome =
  /** `ended`: the X-Primary-Name-Ended entries (`<address> <name>`) of primary names the chunk's writes ended. */
  | { kind: 'applied'; created: number; updated: number; ended: string[] }
  /** The whole chunk was refused; `items` names the reason for each item the refusal named by index. */
  | { kind: 'refused'; status: number; code: string; detail: string; items: Map<number, string> }
  /** The key was not accepted: no later chunk can succeed either. */
  | { kind: 'unauthorized'; detail: string };

interface Problem {
  code?: string;
  detail?: string;
  errors?: { field?: string; message?: string }[];
}

const ITEM_FIELD = /^items\[(\d+)\](?:\.(.+))?$/;
const MAX_ATTEMPTS = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reasons per item index from a problem's errors[] (`items[3].texts[0].key: must be …`). */
export function itemErrors(problem: Problem): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of problem.errors ?? []) {
    const m = ITEM_FIELD.exec(e.field ?? '');
    if (!m) continue;
    const reason = `${m[2] ?? 'item'}: ${e.message ?? 'refused'}`;
    const index = Number(m[1]);
    out.set(index, out.has(index) ? `${out.get(index)}; ${reason}` : reason);
  }
  return out;
}

/** The entries of an X-Primary-Name-Ended header as `<address> <name>`, names decoded; none without it. */
export function endedEntries(header: string | null): string[] {
  return header ? header.split(', ').map((e) => decodeURIComponent(e)) : [];
}

/** The batch route under a service base URL given with or without /api/v1. */
export function batchUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return `${/\/api\/v1$/.test(trimmed) ? trimmed : `${trimmed}/api/v1`}/subnames/batch`;
}

/** A parent's policy route, next to the batch route. */
export function policyUrl(batch: string, parentName: string): string {
  return batch.replace(/\/subnames\/batch$/, `/policies/${encodeURIComponent(parentName)}`);
}

/** Sets a parent's holder policy (PUT /policies/{parentName}); null when set, else why not. */
export async function putPolicy(
  batch: string,
  key: string,
  policy: Record<string, unknown>,
): Promise<{ status: number; reason: string } | null> {
  const { parentName, ...body } = policy;
  try {
    const res = await fetch(policyUrl(batch, String(parentName)), {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-auth-token': key },
      body: JSON.stringify(body),
    });
    if (res.status === 200) return null;
    const problem = (await res.json().catch(() => ({}))) as Problem;
    const fields = (problem.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');
    return { status: res.status, reason: `${problem.code ?? `HTTP_${res.status}`}: ${fields || problem.detail}` };
  } catch (e) {
    return { status: 0, reason: `the service could not be reached (${(e as Error).message})` };
  }
}

/**
 * Sends one chunk. Waits and tries again on 429 (Retry-After), on 503 and when the service cannot be reached:
 * a batch is create-or-update, so sending it again after an answer was lost creates nothing twice.
 */
export async function sendBatch(url: string, key: string, items: unknown[]): Promise<BatchOutcome> {
  let lastError = '';
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': key },
        body: JSON.stringify({ items }),
      });
    } catch (e) {
      lastError = `the service could not be reached (${(e as Error).message})`;
      await sleep(500 * 2 ** attempt);
      continue;
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = {};
    }
    if (res.status === 200) {
      const { created, updated } = body as { created: number; updated: number };
      return { kind: 'applied', created, updated, ended: endedEntries(res.headers.get('x-primary-name-ended')) };
    }
    const problem = body as Problem;
    const detail = problem.detail ?? `HTTP ${res.status}`;
    if (res.status === 401) return { kind: 'unauthorized', detail };
    if (res.status === 429 || res.status === 503 || res.status === 502 || res.status === 504) {
      lastError = `${res.status} ${problem.code ?? ''} ${detail}`.replace(/\s+/g, ' ');
      const retryAfter = Number(res.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 60) * 1000 : 500 * 2 ** attempt);
      continue;
    }
    return {
      kind: 'refused',
      status: res.status,
      code: problem.code ?? `HTTP_${res.status}`,
      detail,
      items: itemErrors(problem),
    };
  }
  return { kind: 'refused', status: 0, code: 'UNAVAILABLE', detail: lastError, items: new Map() };
}
