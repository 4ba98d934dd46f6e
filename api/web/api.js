// The JSON API as the pages use it, and where the pages keep tokens.
//
// Tokens arrive in the URL fragment (#t=…), which browsers never send to a
// server. takeLinkToken removes the token from the address bar at once, so it
// does not stay in history, bookmarks or a shared screen, and keeps it in
// sessionStorage: gone when the tab closes.
//
// An account token lives 15 minutes; accountRequest renews it with the
// session's refresh token when the server refuses it.

const ACCOUNT_KEY = 'lesspost.account';
const REFRESH_KEY = 'lesspost.refresh';

// memory holds what sessionStorage cannot (storage disabled) for this page.
const memory = new Map();

function storageGet(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return memory.has(key) ? memory.get(key) : null;
  }
}

function storageSet(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
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

// A typed login code is 8 letters and digits of domain.LoginCode's alphabet
// (no 0 O 1 I L), XXXX-XXXX, and signs in only with the address it was sent
// to. A login email sent before codes were short showed the link's token
// (32 characters) as its code, which signs in alone; such codes lived 15
// minutes, so that branch can go in 2027.
const LOGIN_CODE = /^[2-9A-HJKMNP-Z]{8}$/i;

/**
 * The body of POST /v1/auth/token for a code typed from a login email sent
 * to email: { email, code }, or { token } for what is no short code.
 */
export function loginCodeBody(typed, email) {
  const code = typed.replace(/[\s-]/g, '');
  return LOGIN_CODE.test(code) ? { email: email.trim(), code } : { token: typed.trim().toLowerCase() };
}

export const tokens = {
  game: (id) => storageGet('lesspost.game.' + id),
  setGame: (id, token) => storageSet('lesspost.game.' + id, token),
  account: () => storageGet(ACCOUNT_KEY),
  /** Keeps a session's account and refresh tokens; null forgets both. */
  setAccount: (token, refresh = null) => {
    storageSet(ACCOUNT_KEY, token);
    storageSet(REFRESH_KEY, token === null ? null : refresh);
  },
};

let renewing = null;

/**
 * Renews the account token with the refresh token; resolves to the new
 * account token, or null when the session has ended (then both are
 * forgotten). One renewal at a time: a refresh token works once, and
 * presenting it twice ends the session.
 */
export function renewAccount() {
  if (!renewing) {
    renewing = (async () => {
      const refresh = storageGet(REFRESH_KEY);
      if (!refresh) return null;
      try {
        const { body } = await request('POST', '/v1/auth/refresh', { body: { refresh_token: refresh } });
        tokens.setAccount(body.access_token, body.refresh_token);
        return body.access_token;
      } catch (err) {
        if (err.status === 401) tokens.setAccount(null);
        return null;
      }
    })().finally(() => {
      renewing = null;
    });
  }
  return renewing;
}

/** request with the account token, renewed once if the server refuses it. */
export async function accountRequest(method, path, options = {}) {
  const token = tokens.account();
  try {
    return await request(method, path, { ...options, token });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    // Another request may have renewed it meanwhile.
    const current = tokens.account();
    const renewed = current && current !== token ? current : await renewAccount();
    if (!renewed) throw err;
    return request(method, path, { ...options, token: renewed });
  }
}

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

/** The calls of the play page, bound to one game and a link's token (null: the account's). */
export function gameClient(id, token) {
  const base = '/v1/games/' + encodeURIComponent(id);
  const send = token ? (method, path, options) => request(method, path, { ...options, token }) : accountRequest;
  return {
    game: (etag) => send('GET', base, { headers: etag ? { 'If-None-Match': etag } : {} }),
    turns: () => send('GET', base + '/turns').then((r) => r.body.turns),
    view: () => send('GET', base + '/view').then((r) => r.body),
    /** The board after the first n plies: for stepping through the game. */
    viewAt: (n) => send('GET', base + '/view?ply=' + n).then((r) => r.body),
    moves: (turn) => {
      const q = turn ? '?turn=' + encodeURIComponent(turn) : '';
      return send('GET', base + '/moves' + q).then((r) => r.body);
    },
    preview: (turn) => send('POST', base + '/preview', { body: { turn } }).then((r) => r.body),
    rematch: () => send('POST', base + '/rematch', { body: {} }).then((r) => r.body),
    resign: (key) => send('POST', base + '/resign', { body: {}, headers: { 'Idempotency-Key': key } }).then((r) => r.body),
    submit: (turn, ply, key) =>
      send('POST', base + '/turns', { body: { turn, ply }, headers: { 'Idempotency-Key': key } }).then((r) => r.body),
    // Push subscriptions are the caller's address's: the seat's, with a link.
    pushKey: () => request('GET', '/v1/push/key').then((r) => r.body.application_server_key),
    pushSubscriptions: () => send('GET', '/v1/me/push-subscriptions').then((r) => r.body.subscriptions),
    subscribePush: (sub) => send('POST', '/v1/me/push-subscriptions', { body: sub }).then((r) => r.body),
    unsubscribePush: (id) => send('DELETE', '/v1/me/push-subscriptions/' + encodeURIComponent(id)),
  };
}
