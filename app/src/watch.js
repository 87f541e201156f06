// Watch (#/watch): the games being played now on `hostage serve`
// (`GET /api/games/live`, docs/protocol.md, HTTP), the last changed first,
// each with both players' names, the time control, the move and the side to
// move's time left. Each opens its game's link in Play: the online room
// joins it, and with both seats taken the server makes the page a spectator
// (`join` → `game_full` → `watch`), which follows every move as it is
// played. The list is asked again every 10 s while the page is shown, and
// at once by Refresh.
//
// Every text from the server is set with textContent.
import { gameLink } from './online.js';
import { controlWords, timeLeftWords } from './yourgames.js';

const REFRESH_MS = 10_000;
const COLOR_WORDS = { white: 'White', black: 'Black' };

/** A DOM element: el('li', { class: 'x' }, 'Text'). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/** A player's name as the list shows it ("Anonymous" for a seat without one). */
const who = (name) => (typeof name === 'string' && name ? name : 'Anonymous');

/** The facts of a live game in words: "3+2 · move 4 · Black to move · 2:41 left". */
export function liveFacts(g) {
  const facts = [];
  const control = controlWords({ clock: g.clock ?? undefined }) || (g.clock === null ? 'No clock' : '');
  if (control) facts.push(control);
  if (Number.isInteger(g.plies)) facts.push(`move ${Math.floor(g.plies / 2) + 1}`);
  if (COLOR_WORDS[g.turn]) facts.push(`${COLOR_WORDS[g.turn]} to move`);
  if (Number.isFinite(g.time_left_ms)) facts.push(`${timeLeftWords(g.time_left_ms)} left`);
  return facts.join(' · ');
}

function row(g) {
  const players = `${who(g.white)} vs ${who(g.black)}`;
  const link = el('a', { class: 'game-entry', href: `${gameLink(g.game)}#/play`, 'aria-label': `Watch ${players}` },
    el('span', { class: 'opponent' }, players),
    el('span', { class: 'turn' }, 'Watch'),
    el('span', { class: 'facts' }, liveFacts(g)));
  return el('li', {}, link);
}

export function mount(root) {
  const status = el('p', { class: 'status', role: 'status' });
  const notice = el('p', { class: 'notice', role: 'alert' });
  const list = el('ul', { class: 'your-games live-games', 'aria-labelledby': 'watch-title' });
  const refresh = el('button', { type: 'button' }, 'Refresh');
  root.append(el('div', { class: 'account-layout' },
    el('section', { class: 'card your-games-card', 'aria-labelledby': 'watch-title' },
      el('h1', { id: 'watch-title' }, 'Games being played'),
      el('p', { class: 'hint' }, 'Open one to follow it as a spectator. The best players: the ', el('a', { href: '#/leaderboard' }, 'Leaderboard'), '.'),
      status, notice, list, el('div', { class: 'buttons' }, refresh))));

  let asked = 0; // the latest request, so a slow answer never overwrites a newer one
  let timer = null;

  async function load() {
    const n = ++asked;
    if (!list.children.length) status.textContent = 'Loading the games…';
    let games;
    try {
      const r = await fetch('/api/games/live', { headers: { accept: 'application/json' } });
      if (!r.ok) throw new Error(`status ${r.status}`);
      games = (await r.json()).games;
      if (!Array.isArray(games)) throw new Error('no games list');
    } catch {
      if (n !== asked) return;
      status.textContent = '';
      notice.dataset.kind = 'error';
      notice.textContent = 'The list of games could not be loaded: the server is not reachable. Try Refresh.';
      return;
    }
    if (n !== asked) return;
    notice.textContent = '';
    const live = games.filter((g) => g && typeof g.game === 'string');
    list.replaceChildren(...live.map(row));
    status.textContent = live.length
      ? `${live.length} ${live.length === 1 ? 'game is' : 'games are'} being played.`
      : 'No game is being played right now. Start one from the Lobby.';
  }

  refresh.addEventListener('click', load);
  return {
    shown: () => {
      load();
      clearInterval(timer);
      timer = setInterval(load, REFRESH_MS);
    },
    hidden: () => { clearInterval(timer); timer = null; },
  };
}
