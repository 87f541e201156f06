// The leaderboard (#/leaderboard, docs/protocol.md, Players): per category,
// the top players (`GET /api/leaderboard/{category}`: at least the server's
// `min_games` rated games in it, a rating that is not provisional), highest
// first, each name opening the player's page. The category is chosen from a
// labelled list and kept in the hash (#/leaderboard/blitz).
//
// Every text from the server is set with textContent.
import { request } from './account.js';
import { CATEGORIES, categoryName, playerLink, ratingText } from './ratings.js';

/** A DOM element: el('td', {}, 'Text'). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/** The category named in the hash (#/leaderboard/<category>), blitz by default. */
function hashCategory() {
  const part = location.hash.replace(/^#\/?leaderboard\/?/, '').split('/')[0];
  return CATEGORIES.some(([c]) => c === part) ? part : 'blitz';
}

export function mount(root) {
  const select = el('select', { name: 'category' }, ...CATEGORIES.map(([c, name]) => el('option', { value: c }, name)));
  const status = el('p', { class: 'status', role: 'status' });
  const body = el('tbody');
  const table = el('table', { class: 'leaderboard', 'aria-labelledby': 'leaderboard-title' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, 'Player'),
      el('th', { scope: 'col' }, 'Rating'), el('th', { scope: 'col' }, 'Games'))),
    body);
  root.append(el('div', { class: 'account-layout' },
    el('section', { class: 'card', 'aria-labelledby': 'leaderboard-title' },
      el('h1', { id: 'leaderboard-title' }, 'Leaderboard'),
      el('label', {}, 'Category', select),
      status, table)));

  let asked = 0;
  async function load() {
    const category = hashCategory();
    select.value = category;
    const n = ++asked;
    status.textContent = 'Loading…';
    const r = await request('GET', `/api/leaderboard/${category}`);
    if (n !== asked) return;
    const players = r.ok && Array.isArray(r.data.players) ? r.data.players : null;
    if (!players) {
      body.replaceChildren();
      table.hidden = true;
      status.textContent = 'The leaderboard could not be loaded: try again later.';
      return;
    }
    body.replaceChildren(...players.filter((p) => p && typeof p.username === 'string').map((p, i) => el('tr', {},
      el('td', {}, String(i + 1)), el('td', {}, playerLink(p.username)),
      el('td', {}, ratingText(p)), el('td', {}, String(p.games ?? '')))));
    table.hidden = !players.length;
    const min = Number.isFinite(r.data.min_games) ? r.data.min_games : null;
    status.textContent = players.length
      ? `${categoryName(category)}: the top ${players.length} ${players.length === 1 ? 'player' : 'players'}${min ? ` with at least ${min} rated games` : ''}.`
      : `${categoryName(category)}: no player has ${min ? `${min} rated games` : 'enough rated games'} with a settled rating yet.`;
  }
  select.addEventListener('change', () => { location.hash = `#/leaderboard/${select.value}`; });
  return { shown: load };
}
