// The lobby (docs/protocol.md, Lobby): the open challenges of `hostage
// serve`, kept live over a WebSocket while the page is shown; quick pairing
// by time control; a challenge of one's own to wait on or cancel. When a
// challenge becomes a game (ours accepted, or one we accepted) the seat's
// token is kept as Play online keeps it, and the page opens the game's link:
// Play online takes over (it resumes the seat with that token).
//
// Every name and text from the server is shown with textContent; the page
// is built with DOM calls, never from HTML strings.
import { account, onAccount } from './account.js';
import { Connection, defaultSocketUrl, gameLink } from './online.js';

/** Where the player's display name is kept (shared with the settings). */
export const NAME_KEY = 'hostage-name';
const TOKEN_KEY = (game) => `hostage.online.token.${game}`;

/** Quick pairing and challenge time controls: [label, clock or null]. */
export const TIME_CONTROLS = [
  ['1+0', { initial_ms: 60_000, increment_ms: 0 }],
  ['3+2', { initial_ms: 180_000, increment_ms: 2_000 }],
  ['5+3', { initial_ms: 300_000, increment_ms: 3_000 }],
  ['10+0', { initial_ms: 600_000, increment_ms: 0 }],
  ['15+10', { initial_ms: 900_000, increment_ms: 10_000 }],
  ['No clock', null],
];

/** The server's lobby error codes in words. */
const WORDS = {
  challenge_not_found: 'That challenge is gone: someone else took it, or it was cancelled.',
  own_challenge: 'That is your own challenge: wait for an opponent, or cancel it.',
  too_many_challenges: 'You have as many open challenges as allowed: cancel one first.',
  challenges_too_fast: 'You are making challenges too fast: wait a moment.',
  lobby_full: 'The lobby is full right now: accept a challenge or try again later.',
  invalid_name: 'That name is not allowed: 1 to 20 letters or digits, spaces, _ - or .',
  too_many_games: 'You are following too many games already.',
  rate_limited: 'Too many messages: wait a moment.',
  storage_failed: 'The server could not store that: try again.',
};

/** "3+2" for a clock, "No clock" for none. */
export function timeControl(clock) {
  if (!clock) return 'No clock';
  const minutes = clock.initial_ms / 60_000;
  const min = Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(1);
  return `${min}+${Math.round(clock.increment_ms / 1000)}`;
}

const COLOR_WORDS = { white: 'White', black: 'Black', random: 'Random' };

/** A DOM element: el('button', { type: 'button' }, 'Text'). Text children become text nodes. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (v === true) node.setAttribute(k, '');
    else if (v !== false && v != null) node.setAttribute(k, String(v));
  }
  node.append(...children);
  return node;
}

export function mount(root) {
  const nameInput = el('input', { name: 'name', autocomplete: 'nickname', maxlength: 20, placeholder: 'Anonymous' });
  nameInput.value = localStorage.getItem(NAME_KEY) ?? '';
  const nameLabel = el('label', {}, 'Your name', nameInput);
  const accountNote = el('p', { class: 'account-note' });
  const status = el('p', { class: 'status', role: 'status' });
  const notice = el('p', { class: 'notice', role: 'alert' });
  const quick = el('div', { class: 'quick-buttons' },
    ...TIME_CONTROLS.map(([label], i) => el('button', { type: 'button', dataset: { quick: i } }, label)));
  const colorSelect = el('select', { name: 'color' },
    ...Object.entries(COLOR_WORDS).map(([v, t]) => el('option', { value: v }, t)));
  colorSelect.value = 'random';
  const clockSelect = el('select', { name: 'clock' },
    ...TIME_CONTROLS.map(([label], i) => el('option', { value: i }, label)));
  clockSelect.value = '2';
  const form = el('form', { class: 'card lobby-create', 'aria-labelledby': 'lobby-create-title' },
    el('h2', { id: 'lobby-create-title' }, 'Create a challenge'),
    el('label', {}, 'You play', colorSelect),
    el('label', {}, 'Time control', clockSelect),
    el('button', { type: 'submit', class: 'primary' }, 'Create challenge'));
  const list = el('ul', { class: 'challenges', 'aria-labelledby': 'lobby-list-title' });
  const empty = el('p', { class: 'empty' }, 'No open challenges yet. Create one, or use quick pairing and wait here.');
  root.append(
    el('h1', { class: 'visually-hidden' }, 'Lobby'),
    el('div', { class: 'lobby-layout' },
      el('section', { class: 'card lobby-list', 'aria-labelledby': 'lobby-list-title' },
        el('h2', { id: 'lobby-list-title' }, 'Open challenges'),
        status, notice, empty, list),
      el('aside', { class: 'side' },
        el('section', { class: 'card lobby-you', 'aria-label': 'You' },
          nameLabel, accountNote),
        el('section', { class: 'card lobby-quick', 'aria-labelledby': 'lobby-quick-title' },
          el('h2', { id: 'lobby-quick-title' }, 'Quick pairing'),
          el('p', { class: 'hint' }, 'Play the first player waiting for this time control, or wait for one.'),
          quick),
        form)));

  const challenges = new Map(); // id -> the challenge as the server shows it
  const mine = new Set(); // ids of this page's own challenges
  let conn = null;
  let connection = 'connecting'; // 'connecting' | 'online' | 'offline'
  let leaving = false; // a game was found: the page is going there

  const say = (text, kind = 'info') => { notice.textContent = text; notice.dataset.kind = kind; };
  const name = () => nameInput.value.trim();
  const withName = (msg) => (name() && !account() ? { ...msg, name: name() } : msg);

  function render() {
    const sorted = [...challenges.values()].sort((a, b) => a.created_ms - b.created_ms || (a.id < b.id ? -1 : 1));
    list.replaceChildren(...sorted.map(row));
    empty.hidden = sorted.length > 0;
    if (leaving) status.textContent = 'Opening the game…';
    else if (connection !== 'online') status.textContent = connection === 'offline' ? 'Offline: reconnecting…' : 'Connecting…';
    else if (mine.size) status.textContent = 'Waiting for an opponent…';
    else status.textContent = sorted.length ? 'Accept a challenge, or make your own.' : 'Connected';
  }

  function row(c) {
    const own = mine.has(c.id);
    const who = el('span', { class: 'who' });
    who.textContent = own ? `${c.name} (you)` : c.name;
    const button = own
      ? el('button', { type: 'button', dataset: { cancel: c.id }, 'aria-label': `Cancel your ${timeControl(c.clock)} challenge` }, 'Cancel')
      : el('button', { type: 'button', class: 'primary', dataset: { accept: c.id }, 'aria-label': `Accept ${c.name}'s ${timeControl(c.clock)} challenge` }, 'Accept');
    return el('li', { class: own ? 'challenge own' : 'challenge' },
      who,
      el('span', { class: 'tc' }, timeControl(c.clock)),
      el('span', { class: 'side-chosen' }, COLOR_WORDS[c.color] ?? ''),
      button);
  }

  function receive(m) {
    switch (m.type) {
      case 'lobby':
        challenges.clear();
        for (const c of m.challenges) challenges.set(c.id, c);
        break;
      case 'challenge_added':
        challenges.set(m.challenge.id, m.challenge);
        break;
      case 'challenge_removed':
        challenges.delete(m.challenge);
        mine.delete(m.challenge);
        break;
      case 'challenge_created':
        mine.add(m.challenge.id);
        challenges.set(m.challenge.id, m.challenge);
        say('Your challenge is open: the game starts when someone accepts it.', 'success');
        break;
      case 'challenge_cancelled':
        mine.delete(m.challenge);
        challenges.delete(m.challenge);
        say('Challenge cancelled.', 'info');
        break;
      case 'challenge_accepted':
        say('Your challenge was accepted: opening the game…', 'success');
        break;
      case 'joined':
        enterGame(m);
        break;
      case 'error':
        say(WORDS[m.code] ?? 'The server refused that.', 'error');
        break;
      default:
        return; // hello, state, pong and anything newer
    }
    render();
  }

  /** Keeps the seat as Play online does, then opens the game there. */
  function enterGame(m) {
    if (leaving) return;
    leaving = true;
    localStorage.setItem(TOKEN_KEY(m.game), m.token);
    location.assign(`${gameLink(m.game)}#/play`);
  }

  function send(msg) {
    if (conn?.send(msg) == null) say('Offline: try again when reconnected.', 'warning');
    else say('');
  }

  function open() {
    if (conn) return;
    conn = new Connection(defaultSocketUrl(), {
      onOpen: () => {
        mine.clear(); // a closed connection's challenges are gone
        conn.send({ type: 'lobby_watch' });
      },
      onMessage: receive,
      onStatus: (s) => { connection = s; render(); },
    });
    render();
  }

  function close() {
    conn?.close();
    conn = null;
    connection = 'connecting';
    mine.clear();
    challenges.clear();
    render();
  }

  nameInput.addEventListener('change', () => {
    if (name()) localStorage.setItem(NAME_KEY, name());
    else localStorage.removeItem(NAME_KEY);
  });
  quick.addEventListener('click', (ev) => {
    const i = ev.target.closest('[data-quick]')?.dataset.quick;
    if (i === undefined) return;
    send(withName({ type: 'lobby_seek', clock: TIME_CONTROLS[Number(i)][1] }));
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const clock = TIME_CONTROLS[Number(clockSelect.value)][1];
    send(withName({ type: 'challenge_create', color: colorSelect.value, ...(clock ? { clock } : {}) }));
  });
  list.addEventListener('click', (ev) => {
    const accept = ev.target.closest('[data-accept]')?.dataset.accept;
    const cancel = ev.target.closest('[data-cancel]')?.dataset.cancel;
    if (accept) send(withName({ type: 'challenge_accept', challenge: accept }));
    if (cancel) send({ type: 'challenge_cancel', challenge: cancel });
  });

  // A logged-in player's challenges carry the username (the server's): no name to type.
  const showAccount = (me) => {
    nameLabel.hidden = Boolean(me);
    accountNote.hidden = !me;
    accountNote.textContent = me ? `You play as ${me}.` : '';
  };
  onAccount(showAccount);
  showAccount(account());

  render();
  return { shown: open, hidden: close };
}
