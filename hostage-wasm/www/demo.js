// The minimal example of the npm package: a Board, its diagram and its legal
// moves. Every move offered and every highlight comes from the Board API; the
// page holds no rule. Only the rules module (hostage_bg.wasm) is loaded.
import { Board } from '../pkg/web/index.js';

const $ = (id) => document.getElementById(id);
const board = new Board();

function status() {
  const outcome = board.outcome();
  if (outcome) return `Game over: ${outcome.termination}, ${outcome.winner ? `${outcome.winner === 'w' ? 'White' : 'Black'} wins` : 'draw'}`;
  const side = board.turn() === 'w' ? 'White' : 'Black';
  if (board.isCheck()) return `${side} to move, in check`;
  if (board.isPseudoCheck()) return `${side} to move, in pseudo-check`;
  return `${side} to move`;
}

function render() {
  $('board').innerHTML = board.svg({ size: 400, lastMove: true });
  $('status').textContent = status();
  $('moves').replaceChildren(...board.legalMoves().map((m) => {
    const button = document.createElement('button');
    button.textContent = m.san;
    button.dataset.uci = m.uci;
    button.title = `${m.kind} ${m.uci}`;
    button.onclick = () => { board.push(m); render(); };
    return button;
  }));
  $('history').textContent = board.history().join(' ');
  $('fen').textContent = board.fen();
  document.body.dataset.fen = board.fen();
}

$('undo').onclick = () => { board.pop(); render(); };
render();
document.body.dataset.ready = 'true';
