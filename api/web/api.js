// The JSON API as the pages use it, and where the pages keep tokens.
//
// Tokens arrive in the URL fragment (#t=…), which browsers never send to a
// server. takeLinkToken removes the token from the address bar at once, so it
// does not stay in history, bookmarks or a shared screen, and keeps it in
// sessionStorage: gone when the tab closes.

const ACCOUNT_KEY = 'lesspost.account';

function storageGet(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null; // storage disabled: the token lives in memory only
  }
}

function storageSet(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // ignore: see storageGet
  }
}

/** Reads #t=… from the address, removes the fragment, and returns the token (or null). */
export function takeLinkToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('t');
  if (location.hash) {
    history.replaceState(history.state, '', location.pathname + location.search);
  }
  return token && token.trim() ? token.trim() : null;
}

export const tokens = {
  game: (id) => storageGet('lesspost.game.' + id),
  setGame: (id, token) => storageSet('lesspost.game.' + id, token),
  account: () => storageGet(ACCOUNT_KEY),
  setAccount: (token) => storageSet(ACCOUNT_KEY, token),
};

/** An error answer of the API (an RFC 9457 problem), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.code || 'error');
    this.status = status;
    this.code = problem.code || (status === 0 ? 'network' : 'http_error');
    this.problem = problem;
  }
}

/** A random key for Idempotency-Key; crypto.randomUUID needs a secure context. */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Sends one request; resolves to {status, etag, body} or rejects with ApiError. */
export async function request(method, path, { token, body, headers = {} } = {}) {
  const init = { method, headers: { Accept: 'application/json', ...headers }, cache: 'no-store', credentials: 'omit' };
  if (token) init.headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, { code: 'network' });
  }
  const text = await res.text().catch(() => '');
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok && res.status !== 304) {
    throw new ApiError(res.status, data || { code: 'http_error', detail: res.statusText });
  }
  return { status: res.status, etag: res.headers.get('ETag'), body: data };
}

/** The calls of the play page, bound to one game and token. */
export function gameClient(id, token) {
  const base = '/v1/games/' + encodeURIComponent(id);
  return {
    game: (etag) => request('GET', base, { token, headers: etag ? { 'If-None-Match': etag } : {} }),
    turns: () => request('GET', base + '/turns', { token }).then((r) => r.body.turns),
    view: () => request('GET', base + '/view', { token }).then((r) => r.body),
    moves: (turn) => {
      const q = turn ? '?turn=' + encodeURIComponent(turn) : '';
      return request('GET', base + '/moves' + q, { token }).then((r) => r.body);
    },
    preview: (turn) => request('POST', base + '/preview', { token, body: { turn } }).then((r) => r.body),
    submit: (turn, ply, key) =>
      request('POST', base + '/turns', { token, body: { turn, ply }, headers: { 'Idempotency-Key': key } }).then(
        (r) => r.body,
      ),
  };
}
