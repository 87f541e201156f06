// The room of an online game: what the players are told about the game
// around the moves (docs/protocol.md): draw offers, takeback requests,
// the first move due, an opponent gone. Drawn into the game card's online
// panel from the session (online.js), which keeps the facts; this file
// only says them. Policy: a notice is shown while it is true and no
// longer (a move withdraws a draw offer or a takeback request, so "Draw
// offer sent" and "Takeback proposed" go with it); every text is set with
// textContent, never parsed as HTML.

const SIDE = { w: 'White', b: 'Black' };

/** What to say about our draw offer (session.offerNote), by its state. */
const OFFER_NOTE = {
  sent: 'Draw offer sent.',
  declined: 'Your draw offer was declined.',
  withdrawn: 'The draw offer was withdrawn by the move.',
};

/** What to say about takebacks (session.takebackNote), by their state. */
const TAKEBACK_NOTE = {
  sent: 'Takeback proposed.',
  declined: 'Your takeback request was declined.',
  'you-declined': 'Takeback declined.',
  withdrawn: 'The takeback request was withdrawn by the move.',
  accepted: 'Takeback accepted: the moves were taken back.',
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
    <p class="room-takeback-note" hidden></p>
    <div class="room-takeback-ask" hidden>
      <p>Opponent proposes a takeback.</p>
      <button type="button" class="room-takeback-accept">Accept takeback</button>
      <button type="button" class="room-takeback-decline">Decline takeback</button>
    </div>
    <button type="button" class="room-takeback-propose" hidden>Propose takeback</button>
    <p class="room-deadline" role="timer" aria-live="off" hidden></p>
    <p class="room-start" hidden></p>
    <button type="button" class="room-abort" hidden>Abort game</button>
    <div class="room-gone" hidden>
      <p></p>
      <button type="button" class="room-claim-win" hidden>Claim victory</button>
      <button type="button" class="room-claim-draw" hidden>Call it a draw</button>
    </div>`;
  const on = (cls, act) => room.querySelector(cls).addEventListener('click', () => room.session && act(room.session));
  on('.room-abort', (s) => s.abort());
  on('.room-claim-win', (s) => s.claimWin());
  on('.room-claim-draw', (s) => s.claimDraw());
  on('.room-takeback-propose', (s) => s.proposeTakeback());
  on('.room-takeback-accept', (s) => s.acceptTakeback());
  on('.room-takeback-decline', (s) => s.declineTakeback());
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

/** The sentence about a correspondence game's deadline, or '' when none runs. */
export function deadlineText(session) {
  const left = session.deadlineLeft();
  if (left === null) return '';
  const turn = session.game.board.turn();
  const who = turn === session.color ? 'Your move' : `${SIDE[turn]} to move`;
  const by = new Date(session.deadlineAt()).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `${who}: ${timeLeftWords(left)} left (${session.daysPerMove ? `${session.daysPerMove} ${session.daysPerMove === 1 ? 'day' : 'days'} per move, ` : ''}move by ${by}).`;
}

/** The sentence about the opponent gone, or '' while the opponent is here. */
function goneText(session) {
  const left = session.claimSeconds();
  if (left === null) return '';
  return left > 0 ? `Opponent left the game. You can claim victory in ${left} s.` : 'Opponent left the game.';
}

function show(el, text) {
  el.hidden = !text;
  if (el.textContent !== text) el.textContent = text;
}

/** The takeback notice, the opponent's request with its answers, and the button to ask. */
function paintTakeback(room, session) {
  let note = TAKEBACK_NOTE[session.takebackNote] ?? '';
  // A watcher is told of a request, with no answer to give.
  if (!note && !session.isPlayer && session.takeback && session.status === 'active') note = `${session.takeback === 'white' ? 'White' : 'Black'} proposes a takeback.`;
  show(room.querySelector('.room-takeback-note'), session.takebackToAnswer ? '' : note);
  room.querySelector('.room-takeback-ask').hidden = !session.takebackToAnswer;
  const propose = room.querySelector('.room-takeback-propose');
  propose.hidden = !session.isPlayer || session.status !== 'active';
  propose.disabled = !session.canProposeTakeback;
}

/** Sets every part of the room from its session; returns whether a countdown runs. */
function paint(room) {
  const session = room.session;
  show(room.querySelector('.room-offer'), OFFER_NOTE[session.offerNote] ?? '');
  paintTakeback(room, session);
  show(room.querySelector('.room-start'), firstMoveText(session));
  show(room.querySelector('.room-deadline'), deadlineText(session));
  room.querySelector('.room-abort').hidden = !session.canAbort;
  const gone = goneText(session);
  room.querySelector('.room-gone').hidden = !gone;
  show(room.querySelector('.room-gone p'), gone);
  const claimable = session.claimSeconds() === 0;
  room.querySelector('.room-claim-win').hidden = !claimable;
  room.querySelector('.room-claim-draw').hidden = !claimable;
  return session.firstMoveSeconds() !== null || (session.claimSeconds() ?? 0) > 0 || session.deadlineLeft() !== null;
}

/** Draws the room of `session` into `panel`; counts down (first move, claim) while a countdown runs. */
export function renderRoom(panel, session) {
  const room = roomOf(panel);
  room.session = session;
  if (paint(room) && !room.timer) {
    room.timer = setInterval(() => {
      if (!room.isConnected || !paint(room)) { clearInterval(room.timer); room.timer = null; }
    }, 250);
  }
}
