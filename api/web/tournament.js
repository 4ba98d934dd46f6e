// The tournament page's sign-up. The page is rendered on the server, words
// included; this script only shows the right form and calls the API:
//
// - An invite link is /tournaments/{id}#invite=…: the token is taken out of
//   the address bar at once (as move links are) and kept for this tab, so
//   that signing in first does not lose it.
// - A visitor who is not signed in gets a code by email (POST
//   /v1/auth/login, the sign-in page's flow) and types it here; the account
//   token is kept as the sign-in page keeps it, so both pages share it.
// - Signed in: a player entered already may withdraw until the first round
//   starts; anyone else may join when sign-up is open and he holds the
//   invite (or the event is public). After either, the page reloads, so
//   what the server renders (players, places left, log) is current.

import { accountRequest, loginCodeBody, newKey, request, tokens } from './api.js';

const $ = (id) => document.getElementById(id);
const section = $('registration');
const box = $('signup');
const id = section.dataset.tournament;
const words = box.dataset;
const inviteKey = 'lesspost.invite.' + id;

function takeInvite() {
  const params = new URLSearchParams(location.hash.slice(1));
  const invite = params.get('invite');
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
  try {
    if (invite) sessionStorage.setItem(inviteKey, invite.trim());
    return sessionStorage.getItem(inviteKey);
  } catch {
    return invite; // storage disabled: good for this page view
  }
}

const invite = takeInvite();
const open = section.dataset.open === 'true';
const joinable = open && (invite || section.dataset.public === 'true');

function show(which) {
  for (const f of ['signup-email', 'signup-code', 'signup-join', 'signup-joined']) $(f).hidden = f !== which;
  box.hidden = !which;
}

function notice(text) {
  $('signup-notice').textContent = text;
  $('signup-notice').hidden = !text;
}

function clear() {
  notice('');
  $('signup-alert').hidden = true;
}

// word reads a data-err-… attribute by the API's problem code.
function word(code) {
  return box.getAttribute('data-err-' + code);
}

function fail(err) {
  $('signup-alert').textContent = word(err.code) || (err.status ? (err.problem && err.problem.detail) : word('network')) || word('generic');
  $('signup-alert').hidden = false;
}

async function refresh() {
  if (!tokens.account()) {
    show(joinable ? 'signup-email' : null);
    return;
  }
  let me;
  let list;
  try {
    me = (await accountRequest('GET', '/v1/me')).body;
    // Only whether he plays in this one: an event still open to sign-up is among his newest.
    list = (await accountRequest('GET', '/v1/tournaments?category=playing&limit=200')).body.tournaments;
  } catch (err) {
    if (err.status === 401) {
      tokens.setAccount(null);
      show(joinable ? 'signup-email' : null);
      return;
    }
    show(null);
    box.hidden = false;
    fail(err);
    return;
  }
  const mine = list.find((t) => t.id === id);
  if (mine && mine.playing) {
    show('signup-joined');
    return;
  }
  $('signup-who').textContent = words.signedIn.replace('{{.email}}', me.email);
  show(joinable ? 'signup-join' : null);
}

$('signup-email').addEventListener('submit', async (e) => {
  e.preventDefault();
  clear();
  const email = $('signup-email-input').value.trim();
  try {
    await request('POST', '/v1/auth/login', { body: { email, locale: document.documentElement.lang } });
    show('signup-code');
    notice(words.codeSent.replace('{{.email}}', email));
    $('signup-code-input').focus();
  } catch (err) {
    fail(err);
  }
});

$('signup-code').addEventListener('submit', async (e) => {
  e.preventDefault();
  clear();
  try {
    const login = loginCodeBody($('signup-code-input').value, $('signup-email-input').value);
    const { body } = await request('POST', '/v1/auth/token', { body: login });
    tokens.setAccount(body.access_token, body.refresh_token);
    await refresh();
    if (!$('signup-join').hidden) $('signup-name').focus();
  } catch (err) {
    fail(err);
  }
});

// One key per joining (a new one once the form changes): a double click or a
// retry after a lost answer joins once and is answered as the first was.
let joinKey = null;
$('signup-join').addEventListener('input', () => (joinKey = null));
$('signup-join').addEventListener('submit', async (e) => {
  e.preventDefault();
  clear();
  const button = $('signup-join').querySelector('button[type="submit"]');
  if (button.disabled) return;
  const body = { name: $('signup-name').value.trim() };
  if (invite) body.invite = invite;
  // A team event's form also names the partner (and the team).
  if ($('signup-partner-name')) {
    body.partner = { name: $('signup-partner-name').value.trim(), email: $('signup-partner-email').value.trim() };
    const team = $('signup-team').value.trim();
    if (team) body.team = team;
  }
  joinKey = joinKey || newKey();
  button.disabled = true;
  try {
    await accountRequest('POST', '/v1/tournaments/' + encodeURIComponent(id) + '/join', { body, headers: { 'Idempotency-Key': joinKey } });
    location.reload();
  } catch (err) {
    fail(err);
    button.disabled = false;
  }
});

$('signup-withdraw').addEventListener('click', async () => {
  clear();
  try {
    // The invite is kept: he still holds the link, and may join again.
    await accountRequest('POST', '/v1/tournaments/' + encodeURIComponent(id) + '/withdraw', { body: {} });
    notice(words.withdrawn);
    location.reload();
  } catch (err) {
    fail(err);
  }
});

refresh();
