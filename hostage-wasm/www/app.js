// A board for two players at one device, on the npm package's browser entry.
// No rules here: every highlight and every move comes from the Board API.
import { Board } from '../pkg/web/index.js';
import { setupBot } from './bot.js';
import { setupPuzzles } from './puzzles.js';

const GLYPH = {
  w: { king: '♔', queen: '♕', rook: '♖', bishop: '♗', knight: '♘', pawn: '♙' },
  b: { king: '♚', queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' },
};
// Pieces are drawn with the solid glyphs and coloured by CSS.
const SOLID = GLYPH.b;
const ROLES = ['queen', 'rook', 'bishop', 'knight', 'pawn'];
const FILES = 'abcdefgh';
const other = (c) => (c === 'w' ? 'b' : 'w');

const $ = (sel) => document.querySelector(sel);
let board = new Board();
// What the player has picked: null, { kind: 'board', from }, { kind: 'drop', role },
// { kind: 'exchange', released, rescued? }, or { kind: 'promotion', from, to }.
let sel = null;

function play(move) {
  let played = null;
  try {
    played = board.push(move);
    $('#error').textContent = '';
  } catch (e) {
    $('#error').textContent = `${e.name}: ${e.message}`;
  }
  sel = null;
  render();
  if (played) puzzles.afterMove(played.uci);
  bot.afterMove();
}

/** Legal target squares of the current selection. */
function targets() {
  if (!sel) return [];
  if (sel.kind === 'board') return board.dests().get(sel.from) ?? [];
  if (sel.kind === 'drop') return board.dropDests()[sel.role] ?? [];
  if (sel.kind === 'exchange' && sel.rescued) {
    const pair = board.exchangeDests().find((e) => e.released === sel.released && e.rescued === sel.rescued);
    return pair ? pair.to : [];
  }
  return [];
}

function clickSquare(sq) {
  if (!bot.humanTurn()) return;
  if (sel && sel.kind !== 'promotion' && targets().includes(sq)) {
    if (sel.kind === 'board') {
      const moves = board.legalMoves().filter((m) => m.from === sel.from && m.to === sq);
      if (moves.length > 1) {
        sel = { kind: 'promotion', from: sel.from, to: sq, moves };
        return render();
      }
      return play(moves[0]);
    }
    if (sel.kind === 'drop') return play(board.legalMoves().find((m) => m.kind === 'drop' && m.role === sel.role && m.to === sq));
    return play(board.legalMoves().find((m) => m.kind === 'exchange' && m.released === sel.released && m.rescued === sel.rescued && m.to === sq));
  }
  const piece = board.pieceAt(sq);
  sel = piece && piece.color === board.turn() && board.dests().has(sq) ? { kind: 'board', from: sq } : null;
  render();
}

function clickReserve(kind, owner, role) {
  if (!bot.humanTurn()) return;
  const us = board.turn();
  if (kind === 'airfield' && owner === us) {
    sel = sel?.kind === 'drop' && sel.role === role ? null : { kind: 'drop', role };
  } else if (kind === 'prison' && owner === us) {
    // An enemy man in our prison: the man to release.
    sel = { kind: 'exchange', released: role };
  } else if (kind === 'prison' && owner !== us && sel?.kind === 'exchange') {
    // One of our men in the opponent's prison: the man to rescue.
    sel = { ...sel, rescued: role };
  } else {
    sel = null;
  }
  render();
}

function renderReserve(kind, owner, counts) {
  const box = $(`#${kind}-${owner}`);
  const men = box.querySelector('.men');
  men.replaceChildren();
  const manColor = kind === 'prison' ? other(owner) : owner;
  const us = board.turn();
  for (const role of ROLES) {
    const n = counts[role];
    if (!n) continue;
    const el = document.createElement('span');
    el.className = `man ${manColor}`;
    el.dataset.role = role;
    el.title = `${n} ${role}${n > 1 ? 's' : ''}`;
    el.textContent = SOLID[role];
    if (n > 1) el.insertAdjacentHTML('beforeend', `<span class="count">${n}</span>`);
    const selected =
      (kind === 'airfield' && sel?.kind === 'drop' && owner === us && sel.role === role) ||
      (kind === 'prison' && sel?.kind === 'exchange' && owner === us && sel.released === role) ||
      (kind === 'prison' && sel?.kind === 'exchange' && owner !== us && sel.rescued === role);
    if (selected) el.classList.add('selected');
    el.addEventListener('click', () => clickReserve(kind, owner, role));
    men.append(el);
  }
}

function render() {
  const el = $('#board');
  el.replaceChildren();
  const dests = targets();
  const check = board.checkSquare();
  const pseudo = board.pseudoCheckSquare();
  for (let rank = 8; rank >= 1; rank--) {
    for (let f = 0; f < 8; f++) {
      const sq = `${FILES[f]}${rank}`;
      const cell = document.createElement('div');
      cell.className = `sq ${(f + rank) % 2 ? 'light' : 'dark'}`;
      cell.dataset.square = sq;
      if (sel?.kind === 'board' && sel.from === sq) cell.classList.add('from');
      if (dests.includes(sq)) cell.classList.add('dest');
      if (sq === check) cell.classList.add('check');
      if (sq === pseudo) cell.classList.add('pseudo');
      if (f === 0) cell.insertAdjacentHTML('beforeend', `<span class="coord">${rank}</span>`);
      const piece = board.pieceAt(sq);
      if (piece) {
        const p = document.createElement('span');
        p.className = `piece ${piece.color}`;
        p.textContent = SOLID[piece.role];
        p.draggable = piece.color === board.turn();
        p.addEventListener('dragstart', (ev) => {
          ev.dataTransfer.setData('text/plain', sq);
          sel = { kind: 'board', from: sq };
          for (const d of board.dests().get(sq) ?? []) el.querySelector(`[data-square="${d}"]`).classList.add('dest');
        });
        cell.append(p);
      }
      cell.addEventListener('click', () => clickSquare(sq));
      cell.addEventListener('dragover', (ev) => ev.preventDefault());
      cell.addEventListener('drop', (ev) => {
        ev.preventDefault();
        sel = { kind: 'board', from: ev.dataTransfer.getData('text/plain') };
        clickSquare(sq);
      });
      el.append(cell);
    }
  }
  const prisons = board.prisons();
  const airfields = board.airfields();
  for (const c of ['w', 'b']) {
    renderReserve('prison', c, prisons[c]);
    renderReserve('airfield', c, airfields[c]);
  }

  const promo = $('#promotion');
  promo.hidden = sel?.kind !== 'promotion';
  const pmen = promo.querySelector('.men');
  pmen.replaceChildren();
  if (sel?.kind === 'promotion') {
    for (const m of sel.moves) {
      const b = document.createElement('span');
      b.className = `man ${board.turn()}`;
      b.dataset.role = m.promotion;
      b.title = m.san;
      b.textContent = SOLID[m.promotion];
      b.addEventListener('click', () => play(m));
      pmen.append(b);
    }
  }

  const moves = $('#moves');
  moves.replaceChildren();
  const history = board.history();
  const startBlack = board.startFen().split(' ')[1] === 'b';
  const plies = startBlack ? ['…', ...history] : history;
  for (let i = 0; i < plies.length; i += 2) {
    const li = document.createElement('li');
    li.innerHTML = `<span>${plies[i]}</span> <span>${plies[i + 1] ?? ''}</span>`;
    moves.append(li);
  }
  moves.scrollTop = moves.scrollHeight;

  const who = board.turn() === 'w' ? 'White' : 'Black';
  const outcome = board.outcome();
  let status;
  if (outcome?.termination === 'checkmate') status = `Checkmate — ${outcome.winner === 'w' ? 'White' : 'Black'} wins`;
  else if (outcome) status = `Draw (${outcome.termination.replace(/_/g, ' ')})`;
  else if (board.isCheck()) status = `${who} to move — check`;
  else if (board.isPseudoCheck()) status = `${who} to move — pseudo-check (frozen pawn)`;
  else status = `${who} to move`;
  if (sel?.kind === 'exchange') {
    status += sel.rescued ? ` · exchange ${sel.released}→${sel.rescued}: pick a square` : ` · releasing a ${sel.released}: pick a man to rescue from the opponent's prison`;
  } else if (sel?.kind === 'drop') status += ` · dropping a ${sel.role}: pick a square`;
  else if (sel?.kind === 'promotion') status += ' · choose the promotion from the prison';
  if (bot.thinking()) status += ' · thinking…';
  $('#status').textContent = status;
  $('#status').classList.toggle('thinking', bot.thinking());
  if (document.activeElement !== $('#fen')) $('#fen').value = board.fen();
  document.body.dataset.fen = board.fen();
}

$('#undo').addEventListener('click', () => {
  // Against a bot, back to the last position where the human was to move.
  bot.cancel();
  board.pop();
  if (bot.vsBot() && !bot.humanTurn()) board.pop();
  sel = null;
  render();
  bot.afterMove();
});
$('#reset').addEventListener('click', () => { board = new Board(); sel = null; $('#error').textContent = ''; render(); bot.newGame(); });
$('#load').addEventListener('click', () => {
  try {
    const next = new Board($('#fen').value.trim());
    bot.cancel();
    board.free();
    board = next;
    sel = null;
    $('#error').textContent = '';
  } catch (e) {
    $('#error').textContent = `${e.name} (${e.code}): ${e.message}`;
  }
  $('#fen').blur();
  render();
  bot.afterMove();
});
$('#copy').addEventListener('click', async () => {
  $('#fen').value = board.fen();
  $('#fen').select();
  try { await navigator.clipboard.writeText(board.fen()); } catch { document.execCommand?.('copy'); }
});
document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') { sel = null; render(); } });

const bot = setupBot({ board: () => board, play, render });
const puzzles = setupPuzzles({
  board: () => board,
  setBoard(next) {
    // A puzzle is solved against the page, not against a bot.
    bot.cancel();
    $('#opponent').value = 'human';
    board.free();
    board = next;
    sel = null;
    $('#error').textContent = '';
    render();
  },
  render,
});
// For the browser test: what a player sees, and a move played as a click plays it.
window.hostageDemo = {
  fen: () => board.fen(),
  thinking: () => bot.thinking(),
  humanTurn: () => bot.humanTurn(),
  ply: () => board.ply(),
  legalMoves: () => board.legalMoves().map((m) => m.uci),
  move(uci) {
    if (!bot.humanTurn()) throw new Error('not your turn');
    play(uci);
  },
  puzzle: () => puzzles.current(),
  puzzleRating: () => puzzles.rating(),
};
render();
document.body.dataset.ready = 'true';
