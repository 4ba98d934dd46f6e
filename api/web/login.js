// The sign-in page. The login email links here with the login token in the
// fragment (/login#t=…): the page takes it out of the address bar, exchanges
// it for an account token and its refresh token, keeps them for this
// browser session only and lists the player's games; each links to its
// play page, which uses the account token (both renew it as needed). Without a link it asks for an email address and sends one,
// or takes the code from the email.

import { accountRequest, loginCodeBody, request, takeLinkToken, tokens } from './api.js';
import { describeLesResult, describeResult, lesSide, pickLocale, translatePage, translator } from './i18n.js';

const $ = (id) => document.getElementById(id);

const state = { t: null, locale: null, cursor: null };

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
    $('who').textContent = state.t('login.signedIn', { email: user.email });
    $('ask').hidden = true;
    $('games-panel').hidden = false;
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
  a.textContent = g.seats.map(player).join(' – ');
  const what = document.createElement('span');
  what.className = 'state';
  if (g.status === 'finished') {
    const result = les ? describeLesResult(t, g.result, g.seats) : describeResult(t, g.result);
    what.textContent = t('login.over', { result });
  } else if (mine) what.textContent = t('login.yourTurn');
  else if (les) what.textContent = t('login.toMove', { name: lesSide(t, g.seats, g.to_move) });
  else what.textContent = t('login.waiting', { color: t('color.' + g.to_move) });
  li.append(a, what);
  return li;
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
