// The play page's service worker, served at /sw.js (scope: the whole
// site). It does three things only, and never caches: it shows the push
// messages the server sends (notify/webpush's Message: title, body, tag and
// the page to open), it opens or focuses that page when a notification is
// clicked, and it keeps the server's subscription when the browser renews
// it. It holds no token: the page does the subscribing.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// sameOrigin keeps a URL to open on this site; anything else opens sign-in.
function sameOrigin(url) {
  try {
    const u = new URL(url || '/login', self.location.origin);
    return u.origin === self.location.origin ? u.href : self.location.origin + '/login';
  } catch {
    return self.location.origin + '/login';
  }
}

self.addEventListener('push', (event) => {
  let msg = {};
  try {
    msg = event.data ? event.data.json() : {};
  } catch {
    msg = {};
  }
  const title = typeof msg.title === 'string' && msg.title ? msg.title : 'Less';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof msg.body === 'string' ? msg.body : '',
      tag: typeof msg.tag === 'string' && msg.tag ? msg.tag : 'lesspost',
      renotify: true, // a newer message of the same game alerts again
      icon: '/assets/icon.svg',
      data: { url: sameOrigin(msg.url), kind: msg.kind, game: msg.game_id },
    }),
  );
});

// A click focuses a tab already showing the game (it holds the link's
// token) or opens the message's URL (a move link opens the board ready).
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(sameOrigin(event.notification.data && event.notification.data.url));
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const tab of tabs) {
        if (new URL(tab.url).pathname === target.pathname && 'focus' in tab) return tab.focus();
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});

function base64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The push service replaced the subscription (it expired, or keys were
// rotated): subscribe again if the browser did not, and move the server's
// subscriptions to the new one, proven by the old one's auth secret.
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    (async () => {
      const old = event.oldSubscription;
      let sub = event.newSubscription || (await self.registration.pushManager.getSubscription());
      if (!sub) {
        const res = await fetch('/v1/push/key', { cache: 'no-store', credentials: 'omit' });
        if (!res.ok) return;
        const { application_server_key: key } = await res.json();
        sub = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      }
      if (!old || !old.getKey('auth')) return; // the page sends it at the next visit
      await fetch('/v1/push/renewals', {
        method: 'POST',
        cache: 'no-store',
        credentials: 'omit',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ old_endpoint: old.endpoint, old_auth: base64url(old.getKey('auth')), subscription: sub.toJSON() }),
      });
    })(),
  );
});
