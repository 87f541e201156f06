// A player's page (#/player/<name>, docs/protocol.md, Players): the ratings
// by category, each with its history drawn as a line (an SVG, named in
// words for screen readers), and the player's finished games newest first
// (opponent, result, time control, rated or casual), each opening the
// game's link, where Play shows the final position, the moves and the PGN
// and offers "Analyse this game"; "Download all games (PGN)" is the
// server's streamed `games.pgn`. Reached by a name's link (the lobby, a
// rated game, the leaderboard) and from the player menu (Your profile).
//
// Every text from the server is set with textContent.
import { request } from './account.js';
import { gameLink } from './online.js';
import { categoryName, ratingText } from './ratings.js';
import { controlWords } from './yourgames.js';

const SVG = 'http://www.w3.org/2000/svg';
const GRAPH = { width: 320, height: 120, pad: 8 };

/** A DOM element: el('li', { class: 'x' }, 'Text'). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The name of the page's player, from the hash (#/player/<name>), or ''. */
function hashName() {
  const part = location.hash.replace(/^#\/?player\/?/, '').split('/')[0];
  try { return decodeURIComponent(part); } catch { return ''; }
}

/**
 * The rating history of one category as an SVG line (rating against game
 * number; the first point is where the first game started): an image named
 * by its first and last values.
 */
export function historyGraph(category, points, start = null) {
  const values = [...(start === null ? [] : [start]), ...points.map((p) => p.rating)].filter(Number.isFinite);
  const name = categoryName(category);
  const games = points.length;
  const label = values.length
    ? `${name} rating history: ${Math.round(values[0])} to ${Math.round(values.at(-1))} over ${games} ${games === 1 ? 'game' : 'games'}`
    : `${name} rating history: no games`;
  const { width, height, pad } = GRAPH;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'rating-graph', role: 'img', 'aria-label': label });
  if (!values.length) return root;
  const lo = Math.min(...values) - 10;
  const hi = Math.max(...values) + 10;
  const x = (i) => (values.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (values.length - 1));
  const y = (v) => pad + ((hi - v) * (height - 2 * pad)) / (hi - lo);
  for (const v of [lo + 10, hi - 10]) {
    root.append(svg('line', { x1: 0, x2: width, y1: y(v), y2: y(v), class: 'grid' }));
    const t = svg('text', { x: 2, y: y(v) - 3, class: 'axis' });
    t.textContent = String(Math.round(v));
    root.append(t);
  }
  root.append(svg('polyline', { points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), class: 'line' }));
  values.forEach((v, i) => root.append(svg('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3, class: 'dot' })));
  return root;
}

/** "Won", "Lost", "Drawn" or "Aborted" for the player's side of a result. */
export function outcomeWord(result, color) {
  if (result === '1/2-1/2') return 'Drawn';
  if (result === '1-0') return color === 'white' ? 'Won' : 'Lost';
  if (result === '0-1') return color === 'black' ? 'Won' : 'Lost';
  return 'Aborted';
}

function gameRow(g) {
  const opponent = typeof g.opponent === 'string' && g.opponent ? g.opponent : 'Anonymous';
  const outcome = outcomeWord(g.result, g.color);
  const facts = [
    `${g.color === 'black' ? 'Black' : 'White'}`,
    typeof g.result === 'string' ? g.result : '',
    controlWords({ clock: g.clock ?? undefined }) || (g.clock == null ? 'No clock' : ''),
    g.rated ? 'Rated' : 'Casual',
    Number.isFinite(g.ended_ms) ? new Date(g.ended_ms).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '',
  ].filter(Boolean);
  const link = el('a', { class: 'game-entry', href: `${gameLink(g.id)}#/play`, 'aria-label': `${outcome} against ${opponent}, ${facts.join(', ')}: open the game` },
    el('span', { class: 'opponent' }, `vs ${opponent}`),
    el('span', { class: 'turn', 'data-outcome': outcome.toLowerCase() }, outcome),
    el('span', { class: 'facts' }, facts.join(' · ')));
  return el('li', {}, link);
}

export function mount(root) {
  const heading = el('h1', { id: 'player-title' }, 'Player');
  const status = el('p', { class: 'status', role: 'status' });
  const ratings = el('div', { class: 'player-ratings' });
  const games = el('ul', { class: 'your-games player-games', 'aria-labelledby': 'player-games-title' });
  const more = el('button', { type: 'button', hidden: '' }, 'More games');
  const pgn = el('a', { class: 'button-link', download: '' }, 'Download all games (PGN)');
  root.append(el('div', { class: 'account-layout player-layout' },
    el('section', { class: 'card', 'aria-labelledby': 'player-title' }, heading, status,
      el('h2', {}, 'Ratings'), ratings),
    el('section', { class: 'card', 'aria-labelledby': 'player-games-title' },
      el('h2', { id: 'player-games-title' }, 'Games'), games,
      el('div', { class: 'buttons' }, more, pgn))));

  let shownName = null;
  let next = null; // the `before` of the next page of games, or null
  let asked = 0;

  async function loadGames(name, before) {
    const q = before ? `?before=${before}&limit=20` : '?limit=20';
    const r = await request('GET', `/api/players/${encodeURIComponent(name)}/games${q}`);
    if (!r.ok || !Array.isArray(r.data.games)) return false;
    games.append(...r.data.games.filter((g) => g && typeof g.id === 'string').map(gameRow));
    next = Number.isFinite(r.data.next_before) ? r.data.next_before : null;
    more.hidden = next === null;
    return true;
  }

  function drawRatings(player, history) {
    const entries = Object.entries(player.ratings ?? {});
    if (!entries.length) {
      ratings.replaceChildren(el('p', { class: 'hint' }, 'No rated games yet.'));
      return;
    }
    ratings.replaceChildren(...entries.map(([category, r]) => {
      const points = Array.isArray(history[category]) ? history[category] : [];
      const title = el('h3', {}, `${categoryName(category)}: `, el('strong', { class: 'rating' }, ratingText(r)));
      const facts = el('p', { class: 'hint' },
        `${r.games} rated ${r.games === 1 ? 'game' : 'games'} · deviation ${Math.round(r.deviation)}${r.provisional ? ' · provisional' : ''}`);
      return el('section', { class: 'profile-rating', 'aria-label': `${categoryName(category)} rating` }, title, facts,
        historyGraph(category, points, points.length ? 1500 : null));
    }));
  }

  async function load() {
    const name = hashName();
    if (!name) {
      heading.textContent = 'Player';
      status.textContent = 'No player named in the link.';
      return;
    }
    const n = ++asked;
    shownName = name;
    heading.textContent = name;
    status.textContent = 'Loading…';
    ratings.replaceChildren();
    games.replaceChildren();
    more.hidden = true;
    pgn.href = `/api/players/${encodeURIComponent(name)}/games.pgn`;
    pgn.setAttribute('download', `${name}.pgn`);
    const [p, h] = await Promise.all([
      request('GET', `/api/players/${encodeURIComponent(name)}`),
      request('GET', `/api/players/${encodeURIComponent(name)}/history`),
    ]);
    if (n !== asked) return;
    if (!p.ok) {
      status.textContent = p.status === 404 ? `There is no player named ${name}.` : 'The player could not be loaded: try again later.';
      return;
    }
    heading.textContent = `${p.data.username ?? name}${p.data.closed ? ' (account closed)' : ''}`;
    status.textContent = Number.isFinite(p.data.created_ms)
      ? `Playing since ${new Date(p.data.created_ms).toLocaleDateString(undefined, { dateStyle: 'medium' })}.` : '';
    drawRatings(p.data, h.ok && h.data.history && typeof h.data.history === 'object' ? h.data.history : {});
    if (!(await loadGames(name, null)) && n === asked) status.textContent += ' The games could not be loaded.';
    if (n === asked && !games.children.length) games.append(el('li', { class: 'empty' }, 'No finished games yet.'));
  }

  more.addEventListener('click', () => { if (shownName && next) loadGames(shownName, next); });
  return { shown: load };
}
