// The portal's JSON API: same origin, the session cookie, and the CSRF header on every state change.

let csrfToken = null;

export function setCsrfToken(token) {
  csrfToken = token;
}

/** An answer that is not 2xx, with the problem's words and its per-field errors. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `The service answered ${status}`);
    this.status = status;
    this.code = problem?.code;
    this.errors = problem?.errors ?? [];
  }
}

async function problemOf(res) {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

export async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-portal-csrf'] = csrfToken;
  const res = await fetch(`/portal/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  if (res.status === 204) return null;
  return res.json();
}

/** The NDJSON export of a parent, as a Blob for a download. */
export async function exportBlob(parentName) {
  const res = await fetch(`/portal/api/export?parentName=${encodeURIComponent(parentName)}`, {
    credentials: 'same-origin',
  });
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  return res.blob();
}
