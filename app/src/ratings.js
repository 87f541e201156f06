// Ratings as the app shows them (docs/protocol.md, Ratings and Players):
// "1500?" for a provisional rating (as lichess writes it), the categories
// in words, and the links to a player's page (#/player/<name>).

/** The rating categories, in the order shown, with their names. */
export const CATEGORIES = [
  ['ultrabullet', 'UltraBullet'],
  ['bullet', 'Bullet'],
  ['blitz', 'Blitz'],
  ['rapid', 'Rapid'],
  ['classical', 'Classical'],
  ['correspondence', 'Correspondence'],
];
const CATEGORY_WORDS = Object.fromEntries(CATEGORIES);

/** A category's name ("Blitz"), or the code itself for one the app does not know. */
export const categoryName = (code) => CATEGORY_WORDS[code] ?? String(code);

/** "1500" or "1500?" (provisional) for `{ rating, provisional }`; '' for anything else. */
export function ratingText(r) {
  if (!r || !Number.isFinite(r.rating)) return '';
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** "+12", "−8" or "±0" for a rating change. */
export function diffText(diff) {
  if (!Number.isFinite(diff)) return '';
  if (diff > 0) return `+${diff}`;
  return diff < 0 ? `−${-diff}` : '±0';
}

/** The hash of a player's page. */
export const playerHash = (name) => `#/player/${encodeURIComponent(name)}`;

/** A link to a player's page, its text the name (set as text). */
export function playerLink(name, attrs = {}) {
  const a = document.createElement('a');
  a.href = playerHash(name);
  a.textContent = name;
  for (const [k, v] of Object.entries(attrs)) a.setAttribute(k, v);
  return a;
}
