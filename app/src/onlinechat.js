// The chat of an online game (docs/protocol.md, chat): the two players
// write, anyone following the game reads. Drawn into the game card's online
// panel from the session (online.js), which keeps the lines the server
// sent. Policy: every line is set with textContent, never parsed as HTML
// (a line is whatever the other player typed); "Mute chat" hides the
// opponent's lines (ours stay), and is kept in localStorage for every game.

import { CHAT_MAX_CHARS } from './online.js';

/** Where "Mute chat" is kept. */
export const MUTE_KEY = 'hostage-chat-muted';

const SIDE = { w: 'White', b: 'Black' };

const muted = () => localStorage.getItem(MUTE_KEY) === '1';

/** The chat's elements, made once in `panel`. */
function chatOf(panel) {
  let box = panel.querySelector('.chat');
  if (box) return box;
  box = document.createElement('section');
  box.className = 'chat';
  box.setAttribute('aria-label', 'Game chat');
  box.innerHTML = `
    <ol class="chat-lines" role="log" aria-label="Chat" aria-live="polite"></ol>
    <form class="chat-form">
      <label class="chat-text">Message <input name="text" autocomplete="off" maxlength="${CHAT_MAX_CHARS}"></label>
      <button type="submit">Send</button>
    </form>
    <label class="check chat-mute"><input type="checkbox" name="mute"> Mute chat</label>`;
  const form = box.querySelector('.chat-form');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = form.elements.text;
    if (box.session?.sendChat(input.value)) input.value = '';
  });
  const mute = box.querySelector('[name="mute"]');
  mute.checked = muted();
  mute.addEventListener('change', () => {
    if (mute.checked) localStorage.setItem(MUTE_KEY, '1');
    else localStorage.removeItem(MUTE_KEY);
    paint(box);
  });
  panel.append(box);
  return box;
}

/** Who wrote a line, as shown before it. */
function author(session, by) {
  const name = session.names?.[by];
  const who = name || SIDE[by];
  return by === session.color ? `${who} (you)` : who;
}

/** Sets the lines and the form from the session. */
function paint(box) {
  const session = box.session;
  const list = box.querySelector('.chat-lines');
  const hide = muted();
  const shown = session.chat.filter((l) => !(hide && l.by !== session.color));
  const key = `${hide}|${session.color}|${session.names?.w}|${session.names?.b}|${shown.map((l) => l.index).join(',')}`;
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    list.replaceChildren(...shown.map((l) => {
      const li = document.createElement('li');
      li.dataset.by = l.by;
      const who = document.createElement('span');
      who.className = 'chat-by';
      who.textContent = `${author(session, l.by)}: `;
      const text = document.createElement('span');
      text.className = 'chat-line';
      text.textContent = l.text;
      li.append(who, text);
      return li;
    }));
    list.scrollTop = list.scrollHeight;
  }
  // Spectators read; only a seated player writes.
  box.querySelector('.chat-form').hidden = !session.isPlayer;
}

/** Draws the chat of `session` into `panel` (the game card's online panel). */
export function renderChat(panel, session) {
  const box = chatOf(panel);
  box.session = session;
  box.hidden = !session.gameId || session.missing;
  paint(box);
}
