// The sign-in page. The login email links here with the login token in the
// fragment (/login#t=…): the page takes it out of the address bar, exchanges
// it for an account token and its refresh token, keeps them for this
// browser session only and lists the player's games; each links to its
// play page, which uses the account token (both renew it as needed). Without a link it asks for an email address and sends one,
// or takes the code from the email.

import { accountRequest, loginCodeBody, newKey, request, takeLinkToken, tokens } from './api.js';
import { describeLesResult, describeResult, lesSide, pickLocale, translatePage, translator } from './i18n.js';

const $ = (id) => document.getElementById(id);

const state = { t: null, locale: null, cursor: null, user: null, newKey: null };

function start() {
  const loginToken = takeLinkToken();
  setLocale(pickLocale(navigator.languages));
  $('email-form').addEventListener('submit', askForLink);
  $('code-form').addEventListener('submit', (e) => {
    e.preventDefault();
    signInWithCode($('code').value.trim());
  });
  $('more').addEventListener('click', () => loadGames().catch(showError));
  $('sign-out').addEventListener('click', signOut);
  $('new-form').addEventListener('submit', newGame);
  // A changed form is a new game: a new key (the same form sent twice is one).
  $('new-form').addEventListener('input', () => (state.newKey = null));
  // A sign-in link opened in a tab already on this page changes only the
  // fragment, which loads nothing: take its token here.
  window.addEventListener('hashchange', () => {
    const token = takeLinkToken();
    if (token) signIn({ token });
  });
  if (loginToken) return signIn({ token: loginToken });
  if (tokens.account()) return showAccount();
  showAsk();
}

function setLocale(locale) {
  if (!locale || locale === state.locale) return;
  state.locale = locale;
  state.t = translator(locale);
  document.documentElement.lang = locale;
  translatePage(state.t);
  document.title = 'Less: ' + state.t('login.title');
}

function showAsk() {
  $('games-panel').hidden = true;
  $('ask').hidden = false;
}

async function askForLink(e) {
  e.preventDefault();
  clearMessages();
  const email = $('email').value.trim();
  try {
    await request('POST', '/v1/auth/login', { body: { email, locale: state.locale } });
    showNotice(state.t('login.sent', { email }));
    $('code').focus();
  } catch (err) {
    showError(err);
  }
}

// A typed code signs in only with the address it was sent to: the one typed
// above (the page asked for the email with it, or the visitor types it).
function signInWithCode(typed) {
  clearMessages();
  const body = loginCodeBody(typed, $('email').value);
  if (body.code && !body.email) {
    showError({ code: 'need_email' });
    $('email').focus();
    return;
  }
  return signIn(body, 'login.codeInvalid');
}

/** Exchanges a login link's token ({ token }) or a typed code ({ email, code }); invalid names the words for a refusal. */
async function signIn(login, invalid = 'login.invalid') {
  clearMessages();
  showNotice(state.t('login.signingIn'));
  try {
    const { body } = await request('POST', '/v1/auth/token', { body: login });
    tokens.setAccount(body.access_token, body.refresh_token);
    clearMessages();
    await showAccount(body.user);
  } catch (err) {
    clearMessages();
    showAsk();
    showError(err, invalid);
  }
}

async function showAccount(user) {
  try {
    if (!user) user = (await accountRequest('GET', '/v1/me')).body;
    setLocale(user.locale);
    state.user = user;
    guessTimeZone(user);
    $('who').textContent = state.t('login.signedIn', { email: user.email });
    $('ask').hidden = true;
    $('games-panel').hidden = false;
    $('new-game').hidden = false;
    if (!$('my-name').value) $('my-name').value = user.name || '';
    $('games').replaceChildren();
    state.cursor = null;
    await loadGames();
  } catch (err) {
    if (err.status === 401) tokens.setAccount(null); // expired or signed out elsewhere
    showAsk();
    showError(err);
  }
}

async function loadGames() {
  const q = new URLSearchParams({ limit: '20' });
  if (state.cursor) q.set('cursor', state.cursor);
  const { body } = await accountRequest('GET', '/v1/me/games?' + q);
  $('games').append(...body.games.map(gameItem));
  state.cursor = body.next_cursor;
  $('more').hidden = !state.cursor;
  $('no-games').hidden = $('games').children.length > 0;
}

// guessTimeZone gives an account without a time zone the browser's, so that
// its emails write deadlines in the reader's time; a zone the server does
// not know is left alone (the emails keep UTC).
function guessTimeZone(user) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (user.time_zone || !zone) return;
  accountRequest('PATCH', '/v1/me', { body: { time_zone: zone } }).catch(() => {});
}

// A game of the list, told apart from the others: who the account plays
// against (and with, in a team), the game and board, whose turn it is and
// until when, in the reader's time.
function gameItem(g) {
  const t = state.t;
  const li = document.createElement('li');
  const mine = g.status === 'active' && g.your_colors.includes(g.to_move);
  li.className = mine ? 'mine' : '';
  const a = document.createElement('a');
  a.href = '/play/' + encodeURIComponent(g.id);
  // A game of Les names its seats by the stone each plays, once chosen.
  const les = g.game === 'les';
  const color = les ? (s) => s.stone : (s) => s.color;
  const player = (s) => (color(s) ? `${s.name} (${t('color.' + color(s))})` : s.name);
  a.textContent = opponents(g, player);
  const meta = [les ? t('login.lesSide', { n: g.board.side }) : t('login.lessSize', { n: g.board.size })];
  if (g.status === 'finished') {
    const result = les ? describeLesResult(t, g.result, g.seats) : describeResult(t, g.result);
    meta.push(t('login.over', { result }));
  } else {
    if (mine) meta.push(t('login.yourTurn'));
    else if (les) meta.push(t('login.toMove', { name: lesSide(t, g.seats, g.to_move) }));
    else meta.push(t('login.waiting', { color: t('color.' + g.to_move) }));
    if (g.deadline) meta.push(t('login.until', { time: when(g.deadline) }));
  }
  const what = document.createElement('span');
  what.className = 'state';
  what.textContent = meta.join(' · ');
  li.append(a, what);
  return li;
}

// opponents names the other side of a game the account plays in ("vs Bob",
// "with Bea, vs Wim and Rae"), or every player of one it only created.
function opponents(g, player) {
  const t = state.t;
  const mine = g.seats.filter((s) => g.your_colors.includes(s.color));
  if (!mine.length) return g.seats.map(player).join(' – ');
  const side = (s) => (g.seats.length === 4 ? g.seats.indexOf(s) % 2 : s);
  const mySides = new Set(mine.map(side));
  const others = g.seats.filter((s) => !mySides.has(side(s)));
  const partners = g.seats.filter((s) => mySides.has(side(s)) && !g.your_colors.includes(s.color));
  const names = others.length === 2 ? t('login.and', { a: player(others[0]), b: player(others[1]) }) : others.map(player).join(', ');
  if (partners.length === 1) return t('login.withVs', { partner: partners[0].name, names });
  return t('login.vs', { names });
}

// when writes a deadline in the reader's language and time zone.
function when(iso) {
  return new Intl.DateTimeFormat(state.locale, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

// newGame invites the opponent to a game with the account's player: the
// server emails each his link, and the game joins the list.
async function newGame(e) {
  e.preventDefault();
  clearMessages();
  const les = $('new-kind').value === 'les';
  // Never a part of his address for a name: spectators see the names.
  const me = { name: $('my-name').value.trim(), email: state.user.email };
  const them = { name: $('opp-name').value.trim(), email: $('opp-email').value.trim() };
  const body = { players: $('new-seat').value === 'first' ? [me, them] : [them, me] };
  if (les) body.game = 'les';
  const time = $('new-time').value;
  if (time === 'bank') body.time = { kind: 'bank', initial_hours: 240, increment_hours: 36 };
  else if (time !== 'none') body.time = { kind: 'per_turn', days: Number(time.slice(1)) };
  state.newKey = state.newKey || newKey();
  $('new-submit').disabled = true;
  try {
    await accountRequest('POST', '/v1/games', { body, headers: { 'Idempotency-Key': state.newKey } });
    state.newKey = null;
    $('new-form').reset();
    $('my-name').value = me.name;
    showNotice(state.t('new.created', { name: them.name }));
    $('games').replaceChildren();
    state.cursor = null;
    await loadGames();
  } catch (err) {
    showError(err);
  } finally {
    $('new-submit').disabled = false;
  }
}

async function signOut() {
  clearMessages();
  showAsk();
  try {
    await accountRequest('POST', '/v1/auth/logout');
  } catch {
    // The tokens are forgotten here either way; they expire on their own.
  }
  tokens.setAccount(null);
}

function clearMessages() {
  $('notice').hidden = true;
  $('alert').hidden = true;
}

function showNotice(text) {
  $('notice').textContent = text;
  $('notice').hidden = false;
}

/** Shows an error; invalid names the words for login_invalid (a link's or a code's). */
function showError(err, invalid = 'login.invalid') {
  const t = state.t;
  let text;
  if (err.code === 'login_invalid') text = t(invalid);
  else if (err.code === 'need_email') text = t('login.needEmail');
  else if (err.code === 'too_many_logins') text = t('login.tooMany');
  else if (err.code === 'network') text = t('error.network');
  else text = (err.problem && err.problem.detail) || t('error.generic');
  $('alert').textContent = text;
  $('alert').hidden = false;
}

start();
