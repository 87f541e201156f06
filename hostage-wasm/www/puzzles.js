// Puzzle mode of the demo page: serves a verified puzzle near the player's
// rating, plays the opponent's replies, says right or wrong, updates both
// ratings (Glicko-2) and offers the solution. The rating, the ids seen and
// the puzzles' own updated ratings are kept in localStorage; the library
// keeps no storage of its own. No rules here: the npm package's `Puzzles`
// decides what is right and how ratings move.
import { Board, Puzzles } from '../pkg/web/index.js';

const KEY = 'hostage.puzzles.v1';
const $ = (sel) => document.querySelector(sel);

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (s && s.rating && Array.isArray(s.seen) && s.puzzles && typeof s.puzzles === 'object') return s;
  } catch { /* a damaged entry starts afresh */ }
  return { rating: Puzzles.newRating(), seen: [], puzzles: {} };
}

/**
 * Wires the puzzle panel. `board()` is the page's Board, `setBoard(b)`
 * replaces it (and redraws), `render()` redraws.
 */
export function setupPuzzles({ board, setBoard, render }) {
  let state = load();
  // The puzzle being solved: { puzzle, index, done }.
  let current = null;

  const save = () => localStorage.setItem(KEY, JSON.stringify(state));
  const side = (fen) => (fen.split(' ')[1] === 'w' ? 'White' : 'Black');

  function show(text, kind = '') {
    $('#puzzle-status').textContent = text;
    $('#puzzle-status').dataset.result = kind;
  }

  function showRating() {
    const r = state.rating;
    $('#puzzle-rating').textContent = `Your puzzle rating: ${Math.round(r.rating)}${r.deviation >= 110 ? '?' : ''} (±${Math.round(r.deviation)}) · ${state.seen.length} solved or tried`;
  }

  /** Records the attempt once: both ratings move. */
  function finish(solved) {
    if (!current || current.done) return;
    current.done = true;
    const p = current.puzzle;
    const before = state.rating.rating;
    const puzzleRating = state.puzzles[p.id] ?? { rating: p.rating, deviation: p.deviation, volatility: 0.09 };
    const { player, puzzle } = Puzzles.update(state.rating, puzzleRating, solved);
    state.rating = player;
    state.puzzles[p.id] = puzzle;
    if (!state.seen.includes(p.id)) state.seen.push(p.id);
    save();
    showRating();
    const delta = Math.round(player.rating - before);
    const sign = delta >= 0 ? '+' : '';
    show(solved ? `Solved! (${sign}${delta})` : `Wrong. (${sign}${delta}) Press “Show solution” to see it.`, solved ? 'solved' : 'failed');
    $('#puzzle-solution').disabled = false;
  }

  function start() {
    const difficulty = $('#puzzle-difficulty').value;
    const p = Puzzles.next(state.rating.rating, { difficulty, seen: state.seen, seed: state.seen.length });
    if (!p) {
      show('You have seen every puzzle.');
      return;
    }
    current = { puzzle: p, index: 0, done: false };
    setBoard(new Board(p.fen));
    $('#puzzle-solution').disabled = false;
    $('#puzzle-themes').textContent = '';
    show(`Puzzle ${p.id} (rated ${p.rating}): ${side(p.fen)} to play and win.`);
  }

  /** Called by the page after every move played on the board. */
  function afterMove(uci) {
    if (!current || current.done) return;
    const p = current.puzzle;
    if (!Puzzles.accepts(p.id, current.index, uci)) {
      finish(false);
      return;
    }
    current.index += 1;
    if (current.index >= p.moves.length) {
      finish(true);
      $('#puzzle-themes').textContent = `Themes: ${p.themes.join(', ') || '—'}`;
      return;
    }
    show('Right! Keep going…', 'right');
    const reply = p.moves[current.index];
    current.index += 1;
    // The opponent's reply, played by the page (not by the player).
    setTimeout(() => { board().push(reply); render(); }, 250);
  }

  function solution() {
    if (!current) return;
    finish(false);
    const p = current.puzzle;
    const b = new Board(p.fen);
    const san = p.moves.map((m) => b.push(m).san);
    setBoard(b);
    show(`Solution: ${san.join(' ')}`, current.index >= p.moves.length ? 'solved' : 'failed');
    $('#puzzle-themes').textContent = `Themes: ${p.themes.join(', ') || '—'}`;
  }

  $('#puzzle-start').addEventListener('click', start);
  $('#puzzle-solution').addEventListener('click', solution);
  $('#puzzle-solution').disabled = true;
  showRating();

  return {
    afterMove,
    /** Whether a puzzle is being solved (the page then plays no bot). */
    active: () => Boolean(current && !current.done),
    /** For the browser test: the puzzle on the board and the next move index. */
    current: () => (current ? { ...current.puzzle, index: current.index, done: current.done } : null),
    rating: () => state.rating,
  };
}
