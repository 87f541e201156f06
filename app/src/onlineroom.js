// The room of an online game: what the players are told about the game
// around the moves (docs/protocol.md). Drawn into the game card's online
// panel from the session (online.js), which keeps the facts; this file
// only says them. Policy: a notice is shown while it is true and no
// longer (a move withdraws a draw offer, so "Draw offer sent" goes with
// it); every text is set with textContent, never parsed as HTML.

const SIDE = { w: 'White', b: 'Black' };

/** What to say about our draw offer (session.offerNote), by its state. */
const OFFER_NOTE = {
  sent: 'Draw offer sent.',
  declined: 'Your draw offer was declined.',
  withdrawn: 'The draw offer was withdrawn by the move.',
};

/** The room's elements, made once in `panel` (the game card's online panel). */
function roomOf(panel) {
  let room = panel.querySelector('.room');
  if (room) return room;
  room = document.createElement('div');
  room.className = 'room';
  room.setAttribute('aria-live', 'polite');
  room.innerHTML = `
    <p class="room-offer" hidden></p>
    <p class="room-start" hidden></p>
    <button type="button" class="room-abort" hidden>Abort game</button>`;
  room.querySelector('.room-abort').addEventListener('click', () => room.session?.abort());
  panel.append(room);
  return room;
}

/** The sentence about the first move due, or '' when none is. */
function firstMoveText(session) {
  const left = session.firstMoveSeconds();
  if (left === null) return '';
  const turn = session.game.board.turn();
  const who = turn === session.color ? 'Make your first move' : `${SIDE[turn]} must make a first move`;
  return `${who} within ${left} s, or the game is aborted.`;
}

function show(el, text) {
  el.hidden = !text;
  if (el.textContent !== text) el.textContent = text;
}

/** Draws the room of `session` into `panel`; counts the first move down while one is due. */
export function renderRoom(panel, session) {
  const room = roomOf(panel);
  room.session = session;
  show(room.querySelector('.room-offer'), OFFER_NOTE[session.offerNote] ?? '');
  const start = room.querySelector('.room-start');
  show(start, firstMoveText(session));
  room.querySelector('.room-abort').hidden = !session.canAbort;
  const counting = session.firstMoveSeconds() !== null;
  if (counting && !room.timer) {
    room.timer = setInterval(() => {
      const text = room.session ? firstMoveText(room.session) : '';
      show(start, text);
      if (!text) { clearInterval(room.timer); room.timer = null; }
    }, 250);
  }
}
