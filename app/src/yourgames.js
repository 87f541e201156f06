// Your games (#/games): the logged-in account's games that go on
// (`GET /api/account/games`, docs/protocol.md, Accounts), those where it is
// the player's move first, then as the server orders them (the last changed
// first). Each opens the game in Play online by its id alone: the socket
// carries the account's session, and the server answers a `join` of a game
// where the account holds a seat with that seat (no link or token kept on
// this device). Fields the server may add are shown when present: a time
// control (`time_control`, `clock`, `days_per_move`), the time left
// (`time_left_ms`), the deadline of the move (`deadline_ms`), `rated`.
//
// Every text from the server is set with textContent.
import { account, accountError, onAccount, ongoingGames } from './account.js';
import { timeControl } from './lobby.js';
import { gameLink } from './online.js';

const COLOR_WORDS = { white: 'White', black: 'Black' };

/** A DOM element: el('li', { class: 'x' }, 'Text'). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/** "2 days 3 hours", "4 hours 5 minutes", "3:07" (under an hour) for a time in ms. */
export function timeLeftWords(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const unit = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return h ? `${unit(d, 'day')} ${unit(h, 'hour')}` : unit(d, 'day');
  if (h) return m ? `${unit(h, 'hour')} ${unit(m, 'minute')}` : unit(h, 'hour');
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** The time control of a game entry in words, or '' when it has none the app knows. */
export function controlWords(g) {
  if (typeof g.time_control === 'string') return g.time_control;
  if (g.time_control && typeof g.time_control === 'object') return controlWords({ ...g.time_control, time_control: undefined });
  const days = g.days_per_move ?? g.days;
  if (Number.isFinite(days)) return `${days} ${days === 1 ? 'day' : 'days'} per move`;
  const clock = g.clock && typeof g.clock === 'object' ? g.clock : g;
  if (Number.isFinite(clock.initial_ms) && Number.isFinite(clock.increment_ms)) return timeControl(clock);
  return '';
}

/** The account's games in the order shown: the player's move first, else as the server listed them. */
export function ordered(games) {
  return games.map((g, i) => [g, i])
    .sort(([a, i], [b, j]) => Number(Boolean(b.your_move)) - Number(Boolean(a.your_move)) || i - j)
    .map(([g]) => g);
}

/** What is said of a game's turn: 'Your move', 'Their move' or 'Waiting for an opponent'. */
function turnWords(g) {
  if (!g.started) return 'Waiting for an opponent';
  return g.your_move ? 'Your move' : 'Their move';
}

function row(g) {
  const opponent = typeof g.opponent === 'string' && g.opponent ? g.opponent : null;
  const facts = [`You play ${COLOR_WORDS[g.color] ?? '?'}`];
  if (Number.isInteger(g.plies)) facts.push(`move ${Math.floor(g.plies / 2) + 1}`);
  const control = controlWords(g);
  if (control) facts.push(control);
  if (g.rated === true) facts.push('rated');
  if (Number.isFinite(g.time_left_ms)) facts.push(`${timeLeftWords(g.time_left_ms)} left`);
  if (Number.isFinite(g.deadline_ms)) {
    facts.push(`move by ${new Date(g.deadline_ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`);
  }
  const turn = turnWords(g);
  const link = el('a', { class: 'game-entry', href: `${gameLink(g.game)}#/play` },
    el('span', { class: 'opponent' }, opponent ? `vs ${opponent}` : 'No opponent yet'),
    el('span', { class: 'turn', 'data-turn': g.your_move ? 'mine' : (g.started ? 'theirs' : 'waiting') }, turn),
    el('span', { class: 'facts' }, facts.join(' · ')));
  return el('li', { class: g.your_move ? 'your-move' : null }, link);
}

export function mount(root) {
  const status = el('p', { class: 'status', role: 'status' });
  const notice = el('p', { class: 'notice', role: 'alert' });
  const list = el('ul', { class: 'your-games', 'aria-labelledby': 'your-games-title' });
  const refresh = el('button', { type: 'button' }, 'Refresh');
  const guest = el('p', {}, 'Log in to see your games: ', el('a', { href: '#/login' }, 'Log in'), ' or ',
    el('a', { href: '#/signup' }, 'sign up'), '.');
  root.append(el('div', { class: 'account-layout' },
    el('section', { class: 'card your-games-card', 'aria-labelledby': 'your-games-title' },
      el('h1', { id: 'your-games-title' }, 'Your games'),
      guest, status, notice, list, el('div', { class: 'buttons' }, refresh))));

  let asked = 0; // the latest request, so a slow answer never overwrites a newer one

  async function load() {
    const me = account();
    guest.hidden = Boolean(me);
    refresh.hidden = !me;
    notice.textContent = '';
    if (!me) {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    const n = ++asked;
    status.textContent = 'Loading your games…';
    const r = await ongoingGames();
    if (n !== asked) return;
    if (!r.ok || !Array.isArray(r.data.games)) {
      status.textContent = '';
      if (account()) {
        notice.dataset.kind = 'error';
        notice.textContent = accountError(r);
      }
      return;
    }
    const games = ordered(r.data.games.filter((g) => g && typeof g.game === 'string'));
    list.replaceChildren(...games.map(row));
    const mine = games.filter((g) => g.your_move).length;
    status.textContent = games.length
      ? `${games.length} ${games.length === 1 ? 'game goes on' : 'games go on'}; your move in ${mine}.`
      : 'No games going on. Start one in Play (A friend online) or from the Lobby.';
  }

  refresh.addEventListener('click', load);
  let visible = false;
  onAccount(() => { if (visible) load(); });
  return {
    shown: () => { visible = true; load(); },
    hidden: () => { visible = false; },
  };
}
