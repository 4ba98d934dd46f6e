// The play page: a move link (/play/{id}#t=<seat token>) or a spectator link
// opens it. It shows the game and, when it is the holder's turn, lets him
// make the turn by tapping pieces and squares (or typing it in notation),
// checks it with the server and submits it.
//
// The server is the judge: the board to draw (walls, targets, pieces, the
// last turn's path) comes from GET /view, legal moves and their costs from
// GET /moves after the moves made so far, a typed turn's costs from preview;
// the page only keeps the list of moves and draws the pieces where they lead.
//
// A game of Les (game "les") goes through the same calls. Its plies are a
// setup (four stones), a choice of colour, then turns of one or two stones:
// the page keeps the points tapped so far and asks GET /moves after them,
// which answers where the next stone may go, or why that point may not
// take it (422, shown like an illegal turn). The choice's two buttons are
// the colours /moves offers.

import { ApiError, gameClient, newKey, takeLinkToken, tokens } from './api.js';
import { createBoard } from './board.js';
import { describeLesResult, describeResult, lesSide, pickLocale, translatePage, translator } from './i18n.js';
import { initPush } from './push.js';

const POLL_MS = 20000;
const $ = (id) => document.getElementById(id);

const state = {
  id: null,
  api: null,
  locale: null,
  t: null,
  game: null,
  etag: null,
  turns: [], // history, oldest first
  view: null, // GET /view: the board to draw
  moves: [], // the turn being made: [{from, to, cost}]
  placed: [], // Les: the stones of the ply being made, [{to, color}], in the order placed
  typed: null, // Les: a whole ply typed in notation and judged by preview (canonical text)
  choice: null, // Les: the colour picked at the choice, until it is sent
  options: null, // GET /moves for the moves so far: {left, used, can_end, moves}
  selected: null, // the square of the piece whose destinations are shown
  pendingTap: null, // a square tapped while the legal moves were loading
  busy: false,
  pending: null, // {turn, ply, key}: a submission whose answer never came
  board: null,
  boardKey: '', // the board's fixed parts and the language it was drawn in
  pollTimer: 0,
  pollDue: false, // a poll fell due while the tab was hidden
  polling: false,
  replay: null, // stepping through the game: {n, view} (the board after n plies), or null for now
  replayWanted: null, // the n last asked for, so that a slow answer for an older one is dropped
};

// ---- start ----------------------------------------------------------------

function start() {
  // The token leaves the address bar before anything else can fail.
  const linkToken = takeLinkToken();
  setLocale(pickLocale(navigator.languages));
  state.id = gameIdFromPath();
  if (!state.id) return showFatal(state.t('error.badLink'));
  // A newer link opened in this tab: start again with its token.
  window.addEventListener('hashchange', () => {
    const token = takeLinkToken();
    if (!token) return;
    tokens.setGame(state.id, token);
    location.reload();
  });
  if (linkToken) tokens.setGame(state.id, linkToken);
  const token = linkToken || tokens.game(state.id);
  state.perGame = Boolean(token); // a move link's notifications are for its game alone
  if (!token && !tokens.account()) return showNoToken();
  state.api = gameClient(state.id, token); // no link: the account's, renewed as needed
  wireControls();
  load();
}

function gameIdFromPath() {
  const m = location.pathname.match(/^\/play\/([A-Za-z0-9_-]{1,64})\/?$/);
  return m ? m[1] : null;
}

function wireControls() {
  $('undo').addEventListener('click', undo);
  $('clear').addEventListener('click', clearMoves);
  $('submit').addEventListener('click', submit);
  $('notation-form').addEventListener('submit', checkNotation);
  $('again-button').addEventListener('click', playAgain);
  $('resign-ask').addEventListener('click', () => askResign(true));
  $('resign-no').addEventListener('click', () => askResign(false));
  $('resign-yes').addEventListener('click', resign);
  $('replay-prev').addEventListener('click', () => showPly(shownPly() - 1));
  $('replay-next').addEventListener('click', () => showPly(shownPly() + 1));
  $('replay-latest').addEventListener('click', () => showPly(state.turns.length));
  $('history').addEventListener('click', (e) => {
    const button = e.target.closest('button[data-after]');
    if (button) showPly(Number(button.dataset.after));
  });
  // Back to the tab: look at once rather than at the next tick.
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && (state.pollDue || state.pollTimer)) poll();
  });
}

function setLocale(locale) {
  if (locale === state.locale) return;
  state.locale = locale;
  state.t = translator(locale);
  document.documentElement.lang = locale;
  translatePage(state.t);
  state.boardKey = ''; // square labels are in the old language
}

// ---- loading --------------------------------------------------------------

async function load() {
  try {
    acceptGame(await state.api.game());
    await fetchDetails();
  } catch (err) {
    return showLoadError(err);
  }
  document.body.classList.remove('loading');
  startTurn();
  render();
  offerPush();
  if (myTurn()) await refreshOptions();
  schedulePoll();
}

// Players of a running game may be notified when it is their turn.
function offerPush() {
  if (!state.game.your_colors.length || state.game.status !== 'active') return;
  initPush({
    api: state.api,
    t: state.t,
    box: $('push'),
    toggle: $('push-toggle'),
    label: $('push-label'),
    status: $('push-status'),
    perGame: state.perGame,
  });
}

function acceptGame(res) {
  state.game = res.body;
  state.etag = res.etag;
  setLocale(state.game.locale);
}

// What goes with a game that changed: its history and the board to draw.
async function fetchDetails() {
  const [turns, view] = await Promise.all([state.api.turns(), state.api.view()]);
  state.turns = turns;
  setView(view);
}

// Draws the board anew when what does not change in play (cells, walls,
// targets, coordinates) or the language did; else update() redraws pieces.
function setView(view) {
  state.view = view;
  const key = JSON.stringify([view.layout, view.rows, view.cols, view.cells, view.walls, view.highlights, view.labels, state.locale]);
  if (key === state.boardKey) return;
  state.boardKey = key;
  state.board = createBoard($('board'), { view, t: state.t, onChoose });
}

// Polls while someone else is to move; the ETag makes an unchanged game a 304.
function schedulePoll() {
  clearTimeout(state.pollTimer);
  state.pollTimer = 0;
  if (state.game.status !== 'active' || myTurn()) return;
  state.pollTimer = setTimeout(poll, POLL_MS);
}

async function poll() {
  clearTimeout(state.pollTimer);
  state.pollTimer = 0;
  state.pollDue = false;
  if (document.hidden) {
    state.pollDue = true; // catch up when the tab is looked at again
    return;
  }
  if (state.polling) return;
  state.polling = true;
  try {
    const res = await state.api.game(state.etag);
    if (res.status === 200) {
      const seen = state.turns.length;
      acceptGame(res);
      await fetchDetails();
      announceTurns(state.turns.slice(seen));
      startTurn();
      render();
      if (myTurn()) {
        showNotice(state.t('notice.yourTurnNow'));
        await refreshOptions();
      }
    }
  } catch (err) {
    if (err.status === 401 || err.status === 403) return showLoadError(err);
    // A network hiccup: try again at the next tick.
  } finally {
    state.polling = false;
  }
  schedulePoll();
}

// ---- the turn being made ----------------------------------------------------

function myTurn() {
  const g = state.game;
  return !!g && g.status === 'active' && g.your_colors.includes(g.to_move);
}

function startTurn() {
  state.moves = [];
  state.placed = [];
  state.typed = null;
  state.choice = null;
  state.selected = null;
  state.options = null;
  syncNotation();
}

function isLes() {
  return !!state.game && state.game.game === 'les';
}

function turnText() {
  if (isLes()) {
    if (state.game.stage === 'choice') return state.choice || '';
    return state.typed ?? state.placed.map((p) => p.to).join(':');
  }
  return state.moves.map((m) => m.from + m.to).join(':');
}

// Whether the ply being made has anything to undo.
function hasPly() {
  return isLes() ? state.placed.length > 0 || state.typed !== null || state.choice !== null : state.moves.length > 0;
}

function syncNotation() {
  $('notation').value = turnText();
}

async function refreshOptions() {
  state.options = null;
  render();
  try {
    // At Les's choice the colours on offer stay shown while one is picked.
    const lesChoice = isLes() && state.game.stage === 'choice';
    state.options = await state.api.moves(lesChoice ? '' : turnText());
  } catch (err) {
    showTurnError(err);
  }
  render();
  const tap = state.pendingTap;
  state.pendingTap = null;
  if (tap && state.options) onChoose(tap);
}

function movable() {
  return new Set(state.busy || !state.options ? [] : state.options.moves.filter((m) => m.from).map((m) => m.from));
}

// The squares a tap reaches: the moves of the piece in hand, or with none
// in hand the placements (moves without a from, which put a piece of the
// mover's colour on an empty square).
function destinations(from) {
  const out = new Map();
  if (!state.options) return out;
  for (const m of state.options.moves) if (m.from === (from || '')) out.set(m.to, m);
  return out;
}

function onChoose(sq) {
  // An earlier position is only looked at: a tap on it brings the game back.
  if (state.replay) return showPly(state.turns.length);
  if (isLes()) return placeStone(sq);
  if (!myTurn() || state.busy) return;
  if (!state.options) {
    // The legal moves are still loading (a slow network, a busy server): the
    // tap is kept and answered when they come, instead of being lost.
    state.pendingTap = sq;
    return;
  }
  clearAlert();
  const dest = destinations(state.selected).get(sq);
  if (dest) return addMove(dest);
  state.selected = sq && sq !== state.selected && movable().has(sq) ? sq : null;
  render();
}

async function addMove(m) {
  state.moves.push({ from: m.from, to: m.to, cost: m.cost });
  announce(state.t('announce.move', { from: m.from, to: m.to, points: state.t('points', { n: m.cost }) }));
  state.selected = null;
  syncNotation();
  await refreshOptions();
  // The same piece often moves again: keep it in hand when it can.
  if (state.options && state.options.moves.some((o) => o.from === m.to)) {
    state.selected = m.to;
    render();
  }
}

function undo() {
  if (!hasPly() || state.busy) return;
  clearAlert();
  announce(state.t('announce.undo'));
  if (isLes()) return undoLes(false);
  state.moves.pop();
  state.selected = null;
  syncNotation();
  refreshOptions();
}

function clearMoves() {
  if (!hasPly() || state.busy) return;
  clearAlert();
  announce(state.t('announce.clear'));
  if (isLes()) return undoLes(true);
  state.moves = [];
  state.selected = null;
  syncNotation();
  refreshOptions();
}

// The notation box: a whole turn typed in, judged by the server (preview)
// before it replaces the moves on the board. An illegal turn changes nothing.
async function checkNotation(e) {
  e.preventDefault();
  if (!myTurn() || state.busy) return;
  const text = $('notation').value.trim();
  clearAlert();
  setBusy('busy.checking');
  let preview;
  try {
    preview = await state.api.preview(text || ' ');
  } catch (err) {
    setBusy(null);
    return showTurnError(err);
  }
  if (isLes()) return acceptTypedLes(preview);
  state.moves = preview.moves.map(({ from, to, cost }) => ({ from, to, cost }));
  state.selected = null;
  syncNotation();
  setBusy(null);
  await refreshOptions();
  setTurnStatus(state.t('notice.legal', { turn: preview.turn, points: state.t('points', { n: preview.used }) }));
  $('submit').focus();
}

async function submit() {
  if (!canSubmit()) return;
  const turn = turnText() || 'Nil';
  const ply = state.game.ply;
  // One key per intended turn: a retry after a lost answer cannot play twice.
  if (!state.pending || state.pending.turn !== turn || state.pending.ply !== ply) {
    state.pending = { turn, ply, key: newKey() };
  }
  clearAlert();
  setBusy('busy.sending');
  try {
    await state.api.preview(turn);
    const played = await state.api.submit(turn, ply, state.pending.key);
    state.pending = null;
    const view = await state.api.view().catch(() => null);
    setBusy(null);
    afterPlayed(played, view);
  } catch (err) {
    if (err.status !== 0) state.pending = null; // an answer came: a new attempt is a new change
    setBusy(null);
    await onSubmitError(err);
  }
}

function canSubmit() {
  return !state.busy && turnReady();
}

// turnReady: the turn on the board may be sent as it is (busy or not).
function turnReady() {
  if (!myTurn() || !state.options) return false;
  if (isLes() && state.game.stage === 'choice') {
    return state.options.moves.some((m) => m.kind === 'color' && m.to === state.choice);
  }
  return state.options.can_end;
}

// view is the board after the turn, or null if it could not be fetched:
// then the next poll fetches everything again.
function afterPlayed(res, view) {
  const mover = res.played[0];
  leaveReplay(); // the turn was made on the board now: show it
  state.game = res.game;
  state.etag = view ? `"v${res.game.version}"` : null;
  state.turns = state.turns.concat(res.played);
  if (view) setView(view);
  startTurn();
  render();
  if (isLes()) {
    showNotice(lesPlayedNotice(mover, res.game), true);
    if (myTurn()) refreshOptions();
    return schedulePoll();
  }
  const t = state.t;
  const who = { color: t('color.' + mover.color), turn: mover.turn };
  if (res.game.status === 'finished') {
    showNotice(t('notice.playedOver', { ...who, result: resultLine(res.game.result) }), true);
  } else {
    const next = seat(res.game.to_move);
    showNotice(t('notice.played', { ...who, next: t('color.' + next.color), name: next.name }), true);
  }
  if (myTurn()) refreshOptions();
  schedulePoll();
}

// ---- playing again ----------------------------------------------------------

// After the game its players may play it again: the same board, everyone
// on the other side. The server makes one rematch however many ask.
function renderAgain() {
  // Signed in (no link), the reader is a player or the game's creator: both
  // may start the rematch.
  const mayAsk = state.game.your_colors.length > 0 || !state.perGame;
  const show = state.game.status === 'finished' && mayAsk;
  $('again').hidden = !show;
  if (show) setText($('again-help'), state.t(state.game.seats.length === 4 ? 'again.helpTeams' : 'again.help'));
}

async function playAgain() {
  $('again-button').disabled = true;
  try {
    const res = await state.api.rematch();
    // A move link's holder gets his link to the rematch (opened on this
    // page's own address, whatever the server calls itself); an account
    // opens the game with its token.
    const link = res.play_url ? new URL(res.play_url) : null;
    location.assign(link ? link.pathname + link.hash : '/play/' + encodeURIComponent(res.game.id));
  } catch (err) {
    showNotice(errorText(err), true);
    $('again-button').disabled = false;
  }
}

// ---- resigning ----------------------------------------------------------------

// A player may resign at any time (not only on his turn), after saying yes
// to a question that names what is lost: the game, or his team's game.
function renderResign() {
  const player = state.game.your_colors.length > 0 && state.game.status === 'active';
  $('resign').hidden = !player;
  if (!player) $('resign-confirm').hidden = true;
  const team = state.game.seats.length === 4;
  setText($('resign-question'), state.t(team ? 'resign.questionTeam' : 'resign.question'));
}

function askResign(ask) {
  $('resign-confirm').hidden = !ask;
  $('resign-ask').hidden = ask;
  (ask ? $('resign-no') : $('resign-ask')).focus();
}

async function resign() {
  // One key for this decision: a retry after a lost answer resigns once.
  state.resignKey = state.resignKey || newKey();
  $('resign-yes').disabled = true;
  try {
    const res = await state.api.resign(state.resignKey);
    leaveReplay();
    state.game = res.game;
    state.etag = null;
    await fetchDetails();
    startTurn();
    render();
    showNotice(state.t('notice.resigned', { result: resultLine(state.game.result) }), true);
  } catch (err) {
    showNotice(errorText(err), true);
    if (err.code === 'game_over') await poll();
  } finally {
    $('resign-yes').disabled = false;
    $('resign-confirm').hidden = true;
    $('resign-ask').hidden = false;
  }
}

async function onSubmitError(err) {
  showTurnError(err);
  // The game moved on (or ended) under us: show it as it is now.
  if (['stale_ply', 'not_your_turn', 'game_over'].includes(err.code)) {
    try {
      acceptGame(await state.api.game());
      await fetchDetails();
    } catch {
      return;
    }
    startTurn();
    render();
    if (myTurn()) await refreshOptions();
    schedulePoll();
  } else {
    render();
  }
}

function setBusy(key) {
  state.busy = !!key;
  setTurnStatus(key ? state.t(key) : '');
  render();
}

// A line under Submit for what the page is doing or has found (polite).
function setTurnStatus(text) {
  setText($('turn-status'), text);
}

// ---- rendering -------------------------------------------------------------

function render() {
  if (!state.game) return;
  renderKind();
  renderStatus();
  renderBoard();
  renderPanel();
  renderSubmitBar();
  renderSeats();
  renderResult();
  renderHistory();
  renderReplay();
  renderResign();
  renderAgain();
}

// Live regions announce every change, so unchanged text is left alone.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function seat(color) {
  return state.game.seats.find((s) => s.color === color) || { color, name: '' };
}

function renderStatus() {
  const t = state.t;
  const g = state.game;
  let text;
  if (g.status === 'finished') {
    text = t('status.over', { result: resultLine(g.result) });
  } else if (isLes()) {
    text = lesStatus();
  } else {
    const s = seat(g.to_move);
    const vars = { color: t('color.' + s.color), name: s.name };
    if (myTurn()) text = t('status.yourTurn', vars);
    else if (!g.your_colors.length) text = t('status.watching', vars);
    else text = t('status.waiting', vars);
  }
  setText($('status'), text);
  document.title = text + (isLes() ? ' · Les' : ' · Less');
  $('game-id').textContent = [t('game.id', { id: g.id }), ...gameTerms(t, g)].join(' · ');
  renderDeadline();
}

/**
 * The game's rule preset and time control in words: the API's names
 * (classic, per_turn, …) are not for people. A preset the catalog does not
 * know is left out rather than shown raw.
 */
function gameTerms(t, g) {
  const terms = [];
  if (g.preset && t('preset.' + g.preset) !== 'preset.' + g.preset) terms.push(t('preset.' + g.preset));
  const tc = g.time || {};
  if (tc.kind === 'none') terms.push(t('time.none'));
  else if (tc.kind === 'per_turn' && tc.hours % 24 === 0) terms.push(t('time.days', { n: tc.hours / 24 }));
  else if (tc.kind === 'per_turn') terms.push(t('time.hours', { n: tc.hours }));
  else if (tc.kind === 'bank') terms.push(t('time.bank', { n: tc.increment_hours }));
  return terms;
}

function renderDeadline() {
  const when = state.game.deadline && state.game.status === 'active' ? new Date(state.game.deadline) : null;
  const node = $('deadline');
  node.hidden = !when || isNaN(when);
  if (node.hidden) return;
  const date = new Intl.DateTimeFormat(state.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(when);
  node.textContent = state.t('game.deadline', { when: date, left: relative(when) });
}

function relative(when) {
  const rtf = new Intl.RelativeTimeFormat(state.locale, { numeric: 'auto' });
  const hours = Math.round((when - Date.now()) / 3.6e6);
  return Math.abs(hours) < 48 ? rtf.format(hours, 'hour') : rtf.format(Math.round(hours / 24), 'day');
}

function position() {
  const pieces = new Map(state.view.pieces.map((p) => [p.cell, p.color]));
  for (const m of state.moves) {
    pieces.set(m.to, m.from ? pieces.get(m.from) : state.game.to_move);
    pieces.delete(m.from);
  }
  return pieces;
}

function renderBoard() {
  if (state.replay) return renderReplayBoard();
  if (isLes()) return renderLesBoard();
  const mine = myTurn();
  state.board.update({
    pieces: position(),
    movable: mine ? movable() : new Set(),
    selected: state.selected,
    dests: mine ? destinations(state.selected) : new Map(),
    lastPath: state.moves.length ? [] : state.view.path,
    turnPath: state.moves,
  });
  $('board').classList.toggle('interactive', mine);
}

// ---- stepping through the game ----------------------------------------------

// shownPly is how many plies the board shows: all of them unless stepping back.
function shownPly() {
  return state.replay ? state.replay.n : state.turns.length;
}

// leaveReplay shows the game now, and drops the answer of a step still on
// its way (it would put an old position back).
function leaveReplay() {
  state.replay = null;
  state.replayWanted = null;
}

// showPly draws the board after the first n plies, as the server replays
// it (the page knows no rules); n at the end is the game now, and playable.
async function showPly(n) {
  n = Math.max(0, Math.min(n, state.turns.length));
  state.replayWanted = n;
  if (n === state.turns.length) {
    state.replay = null;
    return render();
  }
  try {
    const view = await state.api.viewAt(n);
    if (state.replayWanted !== n) return; // a later step overtook this one
    state.replay = { n, view };
  } catch (err) {
    state.replay = null;
    showTurnError(err);
  }
  render();
}

// The board of an earlier ply: pieces and the path of its last turn, nothing
// to choose.
function renderReplayBoard() {
  const v = state.replay.view;
  const pieces = new Map(v.pieces.map((p) => [p.cell, p.color]));
  if (isLes()) {
    const holes = new Map();
    for (const h of v.highlights) if (h.kind === 'hole') for (const c of h.cells) holes.set(c, h.color);
    state.board.update({ stones: pieces, placed: new Set(), last: new Set(v.path.map((s) => s.to)), legal: new Set(), holes });
  } else {
    state.board.update({ pieces, movable: new Set(), selected: null, dests: new Map(), lastPath: v.path, turnPath: [] });
  }
  $('board').classList.remove('interactive');
}

// The bar above the board: where in the game the board is, and the steps.
function renderReplay() {
  const t = state.t;
  const m = state.turns.length;
  $('replay').hidden = m === 0;
  $('game').classList.toggle('replaying', !!state.replay);
  if (!m) return;
  const n = shownPly();
  let text = t('replay.now', { n: m });
  if (state.replay) text = n === 0 ? t('replay.start') : t('replay.at', { n, m });
  setText($('replay-text'), text);
  $('replay-prev').disabled = n === 0;
  $('replay-next').disabled = n === m;
  $('replay-latest').disabled = n === m;
}

// renderSubmitBar keeps Submit in view on a phone, where the panel is below
// a board as wide as the screen: once the turn can be sent (and while it is
// being sent) the bar with Submit, its status and any error is fixed to the
// bottom of the screen (play.css), and the page gets room below its end so
// the bar covers nothing.
function renderSubmitBar() {
  const ready = !$('turn').hidden && turnReady();
  document.body.classList.toggle('turn-ready', ready);
  if (!state.barObserver) {
    const bar = $('submit-bar');
    state.barObserver = new ResizeObserver(() => {
      document.body.style.setProperty('--submit-bar-h', bar.offsetHeight + 'px');
    });
    state.barObserver.observe(bar);
  }
}

function renderPanel() {
  const t = state.t;
  const panel = $('turn');
  panel.hidden = !myTurn();
  $('spectating').hidden = state.game.your_colors.length > 0 || state.game.status !== 'active';
  if (panel.hidden) return;
  if (isLes()) return renderLesPanel();
  const opts = state.options;
  // The points come with the legal moves; while they load, the meter waits.
  // Rules without points to spend (nothing used, nothing left) have none.
  $('meter-row').hidden = !!opts && opts.used + opts.left === 0;
  if (opts) {
    for (const [i, pip] of Array.from($('meter').children).entries()) pip.classList.toggle('used', i < opts.used);
    setText($('meter-text'), t('meter', { n: opts.used, used: opts.used, left: opts.left }));
  }

  const list = $('moves');
  list.replaceChildren(
    ...state.moves.map((m) => {
      const li = document.createElement('li');
      li.textContent = t('move.item', { move: m.from + m.to, points: t('points', { n: m.cost }) });
      return li;
    }),
  );
  setText($('hint'), t(hintKey(opts)));
  $('undo').disabled = state.busy || !state.moves.length;
  $('clear').disabled = state.busy || !state.moves.length;
  $('submit').disabled = !canSubmit();
  $('submit').textContent = state.moves.length || !opts || !opts.can_end ? t('button.submit') : t('button.pass');
  $('check').disabled = state.busy;
}

function hintKey(opts) {
  if (!opts) return 'hint.wait';
  if (opts.can_end && opts.left === 0) return 'hint.complete';
  if (opts.can_end && !opts.moves.length) return state.moves.length ? 'hint.canEnd' : 'hint.pass';
  if (opts.can_end) return 'hint.mayStop'; // early_stop (T3)
  if (state.selected) return 'hint.chooseDest';
  return state.moves.length ? 'hint.next' : 'hint.start';
}

function renderSeats() {
  const t = state.t;
  const g = state.game;
  if (!isLes() && g.seats.length === 4) return renderTeams(t, g);
  $('seats').replaceChildren(...g.seats.map((s) => (isLes() ? lesSeatItem(t, g, s) : seatItem(t, g, s))));
}

// The four-player game is two teams: each with its players (the reader's
// partner named so) and its total of moves, which decides the game.
function renderTeams(t, g) {
  const sides = [...new Set(g.seats.map((s) => s.side))];
  const mine = new Set(g.seats.filter((s) => g.your_colors.includes(s.color)).map((s) => s.side));
  $('seats').replaceChildren(
    ...sides.map((side) => {
      const members = g.seats.filter((s) => s.side === side);
      const li = document.createElement('li');
      li.className = 'team' + (mine.has(side) ? ' team-yours' : '');
      const head = document.createElement('p');
      head.className = 'team-head';
      const colors = t('team.and', { a: t('color.' + members[0].color), b: t('color.' + members[1].color) });
      const total = members.reduce((n, s) => n + (g.counts[s.color] ?? 0), 0);
      head.textContent = [t('team.heading', { colors }), mine.has(side) ? t('team.yours') : '', t('team.total', { n: total })]
        .filter(Boolean)
        .join(' · ');
      const list = document.createElement('ul');
      list.className = 'seats';
      list.append(...members.map((s) => seatItem(t, g, s, mine.has(side) && !g.your_colors.includes(s.color))));
      li.append(head, list);
      return li;
    }),
  );
}

function seatItem(t, g, s, partner = false) {
  const span = (className, text = '') => {
    const node = document.createElement('span');
    node.className = className;
    node.textContent = text;
    return node;
  };
  const li = document.createElement('li');
  li.className = 'seat';
  const swatch = span('swatch swatch-' + s.color);
  swatch.setAttribute('aria-hidden', 'true');
  let you = g.your_colors.includes(s.color) ? ' ' + t('seat.you') : '';
  if (partner) you = ' ' + t('seat.partner');
  const who = span('who');
  who.append(
    span('name', s.name + you),
    span('meta', t('color.' + s.color) + (g.counts ? ' · ' + t('seat.count', { n: g.counts[s.color] ?? 0 }) : '')),
  );
  li.append(swatch, who);
  if (s.to_move) li.append(span('badge', t('seat.toMove')));
  return li;
}

// A result without totals by side is said in the server's words (text).
function resultLine(r) {
  if (isLes()) return describeLesResult(state.t, r, state.game.seats);
  return r && !r.totals ? r.text : describeResult(state.t, r);
}

function renderResult() {
  const node = $('result');
  node.hidden = state.game.status !== 'finished';
  node.textContent = node.hidden ? '' : resultLine(state.game.result);
}

// The history, newest first: the turns since the player's own last turn
// are marked new, and each turn shows the board after it when chosen.
function renderHistory() {
  const t = state.t;
  const mine = new Set(state.game.your_colors);
  let lastMine = -1;
  state.turns.forEach((turn, i) => {
    if (mine.has(turn.color) && !turn.auto) lastMine = i;
  });
  const shown = shownPly();
  const items = state.turns.map((turn, i) => {
    const li = document.createElement('li');
    li.value = turn.ply;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'history-turn';
    button.dataset.after = String(i + 1);
    button.title = t('history.show');
    if (i + 1 === shown && state.replay) button.setAttribute('aria-current', 'step');
    if (isLes()) button.textContent = lesHistoryItem(turn);
    else button.textContent = t('history.item', { color: t('color.' + turn.color), turn: turn.auto ? t('history.auto') : turn.turn, n: turn.counted });
    li.append(button);
    if (mine.size && i > lastMine && !mine.has(turn.color)) {
      li.classList.add('new');
      const tag = document.createElement('span');
      tag.className = 'new-tag';
      tag.title = t('history.newTitle');
      tag.textContent = t('history.new');
      li.append(' ', tag);
    }
    return li;
  });
  items.reverse();
  $('history').replaceChildren(...items);
  $('history-empty').hidden = items.length > 0;
}

// ---- Les -------------------------------------------------------------------

// The setup's four stones in the order they are placed (LS2: B1, W1, B2,
// W2), to draw each and to name the step the setter is at. Where each may
// go is the server's answer.
const SETUP_STONES = [
  { name: 'B1', color: 'black' },
  { name: 'W1', color: 'white' },
  { name: 'B2', color: 'black' },
  { name: 'W2', color: 'white' },
];

// What differs on the page between the games: the legend, the help under
// the board, the notation's example. Less's are the page's own words.
function renderKind() {
  const les = isLes();
  $('legend-less').hidden = les;
  $('legend-les').hidden = !les;
  // A spectator moves nothing: the help for choosing moves is not his.
  const watching = !state.game.your_colors.length;
  for (const node of document.querySelectorAll('.mover-help')) node.hidden = watching;
  // The goal in words comes from the server, in the game's language, as the
  // invitation says it; the rules page is in the page's language.
  setText($('goal-text'), state.game.goal || '');
  $('goal-text').hidden = !state.game.goal;
  $('rules-link').href = `/rules${les ? '/les' : ''}?lang=${state.locale}`;
  if (!les) return;
  const t = state.t;
  setText(document.querySelector('.brand span'), t('brand.les'));
  setText($('board-help'), t('les.board.help'));
  setText($('notation-help'), t('les.notation.help'));
  $('notation').placeholder = 'd4:k12';
  $('moves').setAttribute('aria-label', t('les.turn.stones'));
}

function lesWho(seatColor, g = state.game) {
  return lesSide(state.t, g.seats, seatColor);
}

// The colour of the next stone the mover places.
function stoneToPlace() {
  const g = state.game;
  if (g.stage === 'setup') return SETUP_STONES[state.placed.length].color;
  return seat(g.to_move).stone;
}

// A tap on a point: the server is asked where the ply goes with a stone
// there. It answers the next placements, and the stone stays; or the rule
// the stone would break, which is shown and leaves the ply as it was.
async function placeStone(sq) {
  const g = state.game;
  if (!sq || !myTurn() || state.busy || !state.options || g.stage === 'choice' || state.typed !== null) return;
  if (state.options.can_end && !state.options.moves.length) return; // complete: Submit or Undo
  clearAlert();
  const next = state.placed
    .map((p) => p.to)
    .concat(sq)
    .join(':');
  state.busy = true;
  render();
  try {
    const options = await state.api.moves(next);
    const color = stoneToPlace();
    state.placed.push({ to: sq, color });
    announce(state.t('announce.stone', { stone: state.t('pt.stone', { color: state.t('color.' + color) }), point: sq }));
    state.options = options;
    syncNotation();
  } catch (err) {
    showTurnError(err);
  } finally {
    state.busy = false;
    render();
  }
}

// Undo takes back the last stone (all of a typed ply, which came whole);
// Start over takes back all. At the choice both forget the colour picked.
function undoLes(all) {
  state.choice = null;
  if (state.game.stage === 'choice') return render();
  if (all || state.typed !== null) state.placed = [];
  else state.placed.pop();
  state.typed = null;
  syncNotation();
  refreshOptions();
}

function pickColor(color) {
  if (!myTurn() || state.busy) return;
  clearAlert();
  state.choice = color;
  render();
}

// A ply typed in notation, legal by the server's preview: its stones are
// the ones the preview has that the board has not. It is sent as the
// server wrote it back.
async function acceptTypedLes(preview) {
  const before = new Set(state.view.pieces.map((p) => p.cell));
  state.placed = [];
  for (const color of ['black', 'white']) {
    for (const to of preview.stones[color]) if (!before.has(to)) state.placed.push({ to, color });
  }
  state.typed = preview.turn;
  syncNotation();
  setBusy(null);
  await refreshOptions();
  setTurnStatus(state.t('les.notice.legal', { turn: preview.turn }));
  $('submit').focus();
}

// The notice after a ply played from this page. A game of Les opens with
// the setup and the choice: its turns numbered 1 and 2 (Turn.ply).
function lesPlayedNotice(mover, g) {
  const t = state.t;
  if (g.status === 'finished') {
    return t('les.notice.playedOver', { who: lesWho(mover.color, g), turn: mover.turn, result: resultLine(g.result) });
  }
  const next = lesWho(g.to_move, g);
  if (mover.ply === 2) {
    const name = (g.seats.find((s) => s.color === mover.color) || { name: '' }).name;
    return t('les.notice.chose', { name, color: t('color.' + mover.turn), next });
  }
  return t('les.notice.played', { who: lesWho(mover.color, g), turn: mover.turn, next });
}

function lesStatus() {
  const t = state.t;
  const g = state.game;
  const s = seat(g.to_move);
  if (g.stage === 'setup') return t(myTurn() ? 'les.status.yourSetup' : 'les.status.setup', { name: s.name });
  if (g.stage === 'choice') return t(myTurn() ? 'les.status.yourChoice' : 'les.status.choice', { name: s.name });
  const vars = { color: t('color.' + s.stone), name: s.name };
  return t(myTurn() ? 'status.yourTurn' : 'status.waiting', vars);
}

function renderLesBoard() {
  const mine = myTurn();
  const stones = new Map(state.view.pieces.map((p) => [p.cell, p.color]));
  for (const p of state.placed) stones.set(p.to, p.color);
  const holes = new Map();
  for (const h of state.view.highlights) if (h.kind === 'hole') for (const c of h.cells) holes.set(c, h.color);
  const opts = mine && state.typed === null ? state.options : null;
  state.board.update({
    stones,
    placed: new Set(state.placed.map((p) => p.to)),
    last: new Set(state.view.path.map((step) => step.to)),
    legal: new Set(opts ? opts.moves.filter((m) => m.kind === 'place').map((m) => m.to) : []),
    holes,
  });
  $('board').classList.toggle('interactive', mine);
}

function renderLesPanel() {
  const t = state.t;
  const g = state.game;
  const choosing = g.stage === 'choice';
  const other = g.seats.find((s) => s.color !== g.to_move) || { name: '' };
  $('meter-row').hidden = true;
  $('notation-form').hidden = choosing;
  $('choices').hidden = !choosing;
  const setup = g.stage === 'setup' && state.typed === null;
  $('moves').replaceChildren(
    ...state.placed.map((p, i) => {
      const li = document.createElement('li');
      li.className = 'chip-' + p.color;
      li.textContent = setup ? SETUP_STONES[i].name + ' ' + p.to : p.to;
      return li;
    }),
  );
  setText($('hint'), lesHint());
  const intro = g.stage === 'setup' ? 'les.setup.intro' : choosing ? 'les.choice.intro' : '';
  $('les-intro').hidden = !intro;
  setText($('les-intro'), intro ? t(intro, { name: other.name }) : '');
  if (choosing) renderChoices();
  $('undo').disabled = state.busy || !hasPly();
  $('clear').disabled = state.busy || !hasPly();
  $('submit').disabled = !canSubmit();
  let label = t('button.submit');
  if (g.stage === 'setup') label = t('les.button.submitSetup');
  if (choosing) label = state.choice ? t('les.button.submitChoice', { color: t('color.' + state.choice) }) : t('les.button.confirmChoice');
  setText($('submit'), label);
  $('check').disabled = state.busy;
}

function lesHint() {
  const t = state.t;
  const g = state.game;
  const opts = state.options;
  if (!opts) return t('les.hint.wait');
  if (g.stage === 'choice') return state.choice ? t('les.choice.picked', { color: t('color.' + state.choice) }) : t('les.choice.pick');
  if (state.typed !== null) return t('les.hint.typed');
  if (g.stage === 'setup') return opts.can_end ? t('les.setup.done') : t('les.setup.' + (state.placed.length + 1));
  if (opts.can_end) return state.placed.length === 1 ? t('les.hint.single') : t('les.hint.done');
  return t(state.placed.length ? 'les.hint.second' : 'les.hint.first');
}

// The choice's buttons: one per colour GET /moves offers, pressed when picked.
function renderChoices() {
  const box = $('choices');
  const colors = state.options ? state.options.moves.filter((m) => m.kind === 'color').map((m) => m.to) : [];
  const key = colors.join(' ') + ' ' + state.locale;
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(
      ...colors.map((color) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'choice';
        b.dataset.color = color;
        const swatch = spanOf('swatch swatch-' + color);
        swatch.setAttribute('aria-hidden', 'true');
        b.append(swatch, spanOf('', state.t('les.choice.' + color)));
        b.addEventListener('click', () => pickColor(color));
        return b;
      }),
    );
  }
  for (const b of box.children) {
    b.setAttribute('aria-pressed', String(b.dataset.color === state.choice));
    b.disabled = state.busy;
  }
}

function spanOf(className, text = '') {
  const node = document.createElement('span');
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

function lesSeatItem(t, g, s) {
  const li = document.createElement('li');
  li.className = 'seat';
  const swatch = spanOf('swatch swatch-' + (s.stone || 'none'));
  swatch.setAttribute('aria-hidden', 'true');
  const you = g.your_colors.includes(s.color) ? ' ' + t('seat.you') : '';
  const meta = [t('les.seat.' + s.color)];
  if (s.stone) meta.push(t('color.' + s.stone), t('les.stones', { n: g.stones[s.stone].length }));
  const who = spanOf('who');
  who.append(spanOf('name', s.name + you), spanOf('meta', meta.join(' · ')));
  li.append(swatch, who);
  if (s.to_move) li.append(spanOf('badge', t('seat.toMove')));
  return li;
}

// A line of the history. A game of Les opens with the setup and the
// choice: its turns numbered 1 and 2 (Turn.ply).
function lesHistoryItem(turn) {
  const t = state.t;
  const s = seat(turn.color);
  if (turn.ply === 1) return t('les.history.setup', { name: s.name, turn: turn.turn });
  if (turn.ply === 2) return t('les.history.choice', { name: s.name, color: t('color.' + turn.turn) });
  return t('les.history.turn', { color: t('color.' + s.stone), turn: turn.turn });
}

// ---- messages ----------------------------------------------------------------

// The board's changes in words for a screen reader (a visually hidden live
// region): a move made or a stone placed, a move taken back, the turns the
// others played. The game's state and result are #status's, itself live.
function announce(text) {
  $('announce').textContent = text;
}

// The turns that arrived while the page waited, in the words of the history.
function announceTurns(turns) {
  const t = state.t;
  const lines = turns.map((turn) => {
    if (isLes()) return lesHistoryItem(turn) + '.';
    return t('announce.turn', { color: t('color.' + turn.color), turn: turn.auto ? t('history.auto') : turn.turn });
  });
  if (lines.length) announce(lines.join(' '));
}

// The notice is above the board; focusing it brings it into view on a
// phone, where the Submit button that caused it has just gone away.
function showNotice(text, focus = false) {
  const node = $('notice');
  node.textContent = text;
  node.hidden = false;
  if (focus) node.focus();
}

function clearAlert() {
  $('alert').replaceChildren();
  $('alert').hidden = true;
  setTurnStatus('');
}

// An error about the turn, in plain words; for an illegal turn, the rule it
// breaks (docs/rules.md number and a short explanation) and the server's detail.
function showTurnError(err) {
  const t = state.t;
  const p = err.problem || {};
  const node = $('alert');
  const head = document.createElement('strong');
  const text = document.createElement('span');
  const detail = document.createElement('span');
  detail.className = 'detail';
  if (err.code === 'illegal_turn' && p.rule) {
    // Les names the point of the ply, Less the move of the turn.
    const at = isLes() ? 'les.error.atStone' : 'error.atMove';
    const where = p.index == null ? '' : ' ' + t(at, { n: p.index + 1 });
    head.textContent = t('error.illegal', { ref: p.rule_ref }) + where + ': ';
    text.textContent = t((isLes() ? 'les.rule.' : 'rule.') + p.rule);
    detail.textContent = p.detail || '';
    const code = document.createElement('code');
    code.textContent = p.rule;
    detail.append(' ', code);
  } else {
    head.textContent = t('error.title') + ': ';
    text.textContent = errorText(err);
    detail.textContent = errorText(err) === p.detail ? '' : p.detail || '';
  }
  node.replaceChildren(head, text, detail);
  node.hidden = false;
}

const KNOWN_ERRORS = [
  'network',
  'stale_ply',
  'not_your_turn',
  'game_over',
  'link_replaced',
  'unauthorized',
  'wrong_game',
  'forbidden',
  'not_found',
];

function errorText(err) {
  if (KNOWN_ERRORS.includes(err.code)) return state.t('error.' + err.code);
  return (err.problem && err.problem.detail) || state.t('error.generic');
}

function showLoadError(err) {
  if (err instanceof ApiError && err.status === 401 && !tokens.game(state.id)) {
    tokens.setAccount(null); // an account token that no longer works
  }
  showFatal(errorText(err));
}

function showFatal(text) {
  document.body.classList.remove('loading');
  setText($('status'), state.t('status.noGame'));
  const node = $('fatal');
  node.querySelector('.text').textContent = text;
  node.hidden = false;
  $('game').hidden = true;
}

function showNoToken() {
  showFatal(state.t('error.noToken'));
}

start();
