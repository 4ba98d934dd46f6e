// The pages' words. They live in the server's message catalogue
// (internal/catalog/locales/<lang>.toml, the web.* keys), one file per
// language, with the mails' words beside them; the server writes them into
// this module where the marker below stands when it loads the assets, so the
// served file holds every language's strings and its ETag changes with them.
//
// A message is a string with {{.name}} arguments, or an object of CLDR
// plural forms (Intl.PluralRules categories) chosen by the argument n.

/** The catalogs by locale; each has the keys of en (English fills the gaps). */
export const catalogs = /* catalogue */ {};

/** The supported locale that best matches a list such as navigator.languages. */
export function pickLocale(wanted = []) {
  for (const tag of wanted) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (base in catalogs) return base;
  }
  return 'en';
}

/** Returns t(key, vars): the string of key in locale (English if missing), filled in. */
export function translator(locale) {
  const en = catalogs.en || {};
  const cat = catalogs[locale] || en;
  const plural = new Intl.PluralRules(locale);
  return function t(key, vars = {}) {
    let s = cat[key] ?? en[key] ?? key;
    if (typeof s === 'object') s = s[plural.select(vars.n)] ?? s.other;
    return s.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
  };
}

/** Puts the words into the page's static text: data-i18n (text) and data-i18n-aria (aria-label). */
export function translatePage(t, root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-aria]')) node.setAttribute('aria-label', t(node.dataset.i18nAria));
}

/** A finished game's result in words: who won by how much, the totals, why it ended. */
export function describeResult(t, r) {
  if (!r) return '';
  const side = (s) => t('sidename.' + s);
  const head = r.winner ? t('result.win', { side: side(r.winner), score: t('score', { n: r.margin }) }) : t('result.draw');
  const order = ['white', 'black', 'yellow-white', 'black-red']; // a fixed order, White's side first
  const totals = order
    .filter((s) => s in r.totals)
    .map((s) => `${side(s)} ${r.totals[s]}`)
    .join(', ');
  const parts = [head, t('result.totals', { totals })];
  if (r.reason === 'resignation' || r.reason === 'timeout') parts.push(t('result.' + r.reason, { side: side(r.loser) }));
  if (r.reason === 'turn_limit') parts.push(t('result.turn_limit'));
  if (r.blocked_corner) parts.push(t('result.blocked'));
  return parts.join(' ');
}

/**
 * A seat of a game of Les as the pages name it: its stone colour and
 * player once the colours are chosen ("Black (Ann)"), the player before.
 */
export function lesSide(t, seats, seat) {
  const s = seats.find((x) => x.color === seat) || { name: '' };
  return s.stone ? t('les.side', { color: t('color.' + s.stone), name: s.name }) : s.name;
}

/**
 * A finished game of Les in words: who won and by what (LE3's step), the
 * holes each colour owns with their sizes, why it ended.
 */
export function describeLesResult(t, r, seats) {
  if (!r) return '';
  const side = (seat) => lesSide(t, seats, seat);
  let head;
  if (!r.winner) head = t('result.draw');
  else if (r.decided_by === 'sizes') head = t('les.result.sizes', { side: side(r.winner) });
  else if (r.decided_by === 'stones_around') head = t('les.result.stonesAround', { side: side(r.winner) });
  else head = t('les.result.win', { side: side(r.winner), n: r.margin });
  const owned = ['black', 'white'].map((c) => {
    const holes = r.holes[c];
    const color = t('color.' + c);
    if (!holes.length) return t('les.result.ownedNone', { color });
    return t('les.result.ownedBy', { color, n: holes.length, sizes: holes.map((h) => h[0]).join(', ') });
  });
  const parts = [head, t('les.result.owned', { list: owned.join(', ') })];
  if (r.reason === 'resignation' || r.reason === 'timeout') parts.push(t('result.' + r.reason, { side: side(r.loser) }));
  if (r.reason === 'adjudicated') parts.push(t('les.result.adjudicated'));
  return parts.join(' ');
}
