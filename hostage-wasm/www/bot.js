// Playing against a bot on the demo page: the opponent and colour
// selectors, and the bot's moves, searched in a Web Worker (EngineWorker)
// so that the page stays responsive while it thinks. No rules here: the
// worker's Engine chooses, the page's Board plays.
import { engineLevels } from '../pkg/web/index.js';
import { EngineWorker } from '../pkg/web/worker.js';

const $ = (sel) => document.querySelector(sel);

/**
 * Wires the selectors. `board()` is the page's current Board, `play(move)`
 * plays a move on it and redraws, `render()` redraws.
 */
export function setupBot({ board, play, render }) {
  const worker = new EngineWorker();
  const opponent = $('#opponent');
  const color = $('#color');
  for (const { name, rating } of engineLevels()) {
    opponent.add(new Option(`${name[0].toUpperCase()}${name.slice(1)} (${rating})`, name));
  }
  // ?seed=N makes the bot's choices reproducible (the browser test uses it).
  const param = new URLSearchParams(location.search).get('seed');
  let seed = param === null ? Math.floor(Math.random() * 2 ** 32) : Number(param);
  let token = 0;
  let thinking = false;

  const botColor = () => (opponent.value === 'human' ? null : color.value === 'w' ? 'b' : 'w');

  async function move() {
    const b = board();
    if (thinking || botColor() !== b.turn() || b.isGameOver()) return;
    const mine = ++token;
    thinking = true;
    render();
    try {
      const m = await worker.play(b.startFen(), b.history(), { level: opponent.value, seed: seed + b.ply() });
      if (mine !== token) return; // a new game or an undo came first
      thinking = false;
      if (m) play(m);
      else render();
    } catch (e) {
      if (mine !== token) return;
      thinking = false;
      $('#error').textContent = `${e.name} (${e.code}): ${e.message}`;
      render();
    }
  }

  /** Forgets a search in flight (its answer will be ignored). */
  function cancel() {
    token++;
    thinking = false;
  }

  function changed() {
    $('#board').classList.toggle('flipped', botColor() === 'w');
    move();
  }
  opponent.addEventListener('change', changed);
  color.addEventListener('change', changed);

  return {
    /** Whether the human may move now. */
    humanTurn: () => !thinking && botColor() !== board().turn(),
    thinking: () => thinking,
    vsBot: () => botColor() !== null,
    /** After any move: the bot answers if it is its turn. */
    afterMove: move,
    /** A new game: a new seed unless one was given, and the bot starts if it has White. */
    newGame() {
      cancel();
      if (param === null) seed = Math.floor(Math.random() * 2 ** 32);
      worker.newGame();
      changed();
    },
    cancel,
  };
}
