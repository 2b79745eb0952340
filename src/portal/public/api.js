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

/** A fetch that failed before any answer (service restarting, network gone), as an error in words. */
const UNREACHABLE = {
  code: 'SERVICE_UNREACHABLE',
  detail: 'The service could not be reached (it may be restarting, or the network is down). Try again in a moment.',
};

async function request(url, init) {
  let res;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
  // An answer came: a notice that the service was unreachable no longer holds.
  document.getElementById('page-error')?.replaceChildren();
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  return res;
}

async function problemOf(res) {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

async function json(url, method, body, headers, credentials) {
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url, {
    method,
    headers: { accept: 'application/json', ...headers },
    credentials,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  return res.json();
}

/** The portal's API, as the signed-in wallet. */
export function call(method, path, body) {
  const headers = method !== 'GET' && csrfToken ? { 'x-portal-csrf': csrfToken } : {};
  return json(`/portal/api${path}`, method, body, headers, 'same-origin');
}

/** The service's public API (/api/v1) with no session and no key: policies, and holder actions the wallet signs. */
export function callService(method, path, body) {
  return json(`/api/v1${path}`, method, body, {}, 'omit');
}

/** The NDJSON export of a parent, as a Blob for a download. */
export async function exportBlob(parentName) {
  const res = await request(`/portal/api/export?parentName=${encodeURIComponent(parentName)}`, {
    credentials: 'same-origin',
  });
  return res.blob();
}
