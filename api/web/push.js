// "Notify me when it's my turn" on the play page: Web Push.
//
// Shown only where the browser has the Push API (a secure context with
// service workers, PushManager and Notification) and the server sends
// pushes (GET /v1/push/key answers), and only to a player. The browser asks
// for permission only when the box is ticked. Ticking subscribes with
// userVisibleOnly and the server's VAPID key and hands the subscription to
// the server. With a move link the server keeps it for this game alone (a
// link proves one seat, not the address), so the box is per game; with the
// account it is for all the address's games. Unticking deletes it there;
// the browser's own subscription is ended only by the account, which sees
// all of them: with a move link it may still serve the player's other
// games. The box shows what is true after a reload: on when this browser's
// subscription is one the server keeps for the caller's scope. /sw.js
// shows the messages.

const WORKER = '/sw.js';

/** Whether this browser can receive push messages on this page. */
export function pushSupported() {
  return (
    window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

// sameKey says whether a subscription was made with the server's key; a
// browser that cannot say is taken at its word.
function sameKey(sub, key) {
  const had = sub.options && sub.options.applicationServerKey;
  if (!had) return true;
  const a = new Uint8Array(had);
  return a.length === key.length && a.every((b, i) => b === key[i]);
}

/**
 * Sets up the toggle. api is the page's gameClient (its token is the
 * caller), t the translator; box holds toggle (a checkbox), label (its
 * text) and status; perGame says the caller is a move link. Resolves once
 * the toggle shows the current state, or stays hidden.
 */
export async function initPush({ api, t, box, toggle, label, status, perGame }) {
  if (!pushSupported()) return;
  let key;
  try {
    key = keyBytes(await api.pushKey());
    await navigator.serviceWorker.register(WORKER);
  } catch {
    return; // the server sends no pushes, or the worker cannot run here
  }
  const ctl = { api, t, toggle, status, key, perGame };
  if (label) {
    label.dataset.i18n = perGame ? 'push.labelGame' : 'push.label';
    label.textContent = t(label.dataset.i18n);
  }
  box.hidden = false;
  toggle.addEventListener('change', () => onToggle(ctl));
  await sync(ctl);
}

async function registration() {
  return navigator.serviceWorker.ready;
}

// sync shows whether this browser is notified for the caller.
async function sync(ctl) {
  let on = false;
  try {
    const sub = await (await registration()).pushManager.getSubscription();
    if (sub && Notification.permission === 'granted') {
      on = (await mine(ctl, sub)).length > 0;
    }
  } catch {
    on = false;
  }
  show(ctl, on, Notification.permission === 'denied' ? 'push.denied' : on ? onKey(ctl) : '');
}

// mine lists the server's subscriptions of this browser in the caller's
// scope: a move link sees only its game's; the account sees all of the
// address's, of which its own are those of no game.
async function mine(ctl, sub) {
  const list = await ctl.api.pushSubscriptions();
  return list.filter((s) => s.endpoint === sub.endpoint && (ctl.perGame || !s.game_id));
}

function onKey(ctl) {
  return ctl.perGame ? 'push.onGame' : 'push.on';
}

function show(ctl, on, key) {
  ctl.toggle.checked = on;
  const text = key ? ctl.t(key) : '';
  if (ctl.status.textContent !== text) ctl.status.textContent = text;
}

async function onToggle(ctl) {
  const want = ctl.toggle.checked;
  ctl.toggle.disabled = true;
  try {
    if (want) await turnOn(ctl);
    else await turnOff(ctl);
  } catch {
    show(ctl, !want, 'push.failed');
  } finally {
    ctl.toggle.disabled = false;
  }
}

async function turnOn(ctl) {
  if (Notification.permission === 'denied') return show(ctl, false, 'push.denied');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return show(ctl, false, permission === 'denied' ? 'push.denied' : 'push.notAllowed');
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub, ctl.key)) {
    await sub.unsubscribe(); // made with another key: useless to this server
    sub = null;
  }
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: ctl.key });
  await ctl.api.subscribePush(sub.toJSON());
  show(ctl, true, onKey(ctl));
}

async function turnOff(ctl) {
  const sub = await (await registration()).pushManager.getSubscription();
  if (sub) {
    // Signed in, the browser's subscription ends: so do its per-game ones,
    // which the account sees too and which would get nothing more.
    const list = ctl.perGame
      ? await mine(ctl, sub)
      : (await ctl.api.pushSubscriptions()).filter((s) => s.endpoint === sub.endpoint);
    for (const s of list) await ctl.api.unsubscribePush(s.id);
    if (!ctl.perGame) await sub.unsubscribe();
  }
  show(ctl, false, '');
}
