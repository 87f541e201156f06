// The move list in SAN with navigation (buttons, click a move, and the move
// keys ← → Home End anywhere on the page while it is shown: keys.js),
// and the game's export: FEN of the shown position and PGN of the game.
import { Board } from './pkg.js';
import { resultText, resultToken } from './words.js';
import { stepWith } from './keys.js';
import { scrollWithin } from './scroll.js';

export class MoveList {
  /** onSelect(ply): show the position after `ply` moves. */
  constructor({ onSelect, pgnTags = () => ({}) }) {
    this.onSelect = onSelect;
    this.pgnTags = pgnTags;
    this.starts = new Map();
    this.el = document.createElement('section');
    this.el.className = 'movelist';
    this.el.setAttribute('aria-label', 'Moves');
    this.el.innerHTML = `
      <div class="nav" role="toolbar" aria-label="Move navigation">
        <button type="button" data-nav="first" aria-label="First position" title="First position (Home)">⇤</button>
        <button type="button" data-nav="prev" aria-label="Previous move" title="Previous move (←)">◀</button>
        <button type="button" data-nav="next" aria-label="Next move" title="Next move (→)">▶</button>
        <button type="button" data-nav="last" aria-label="Last move" title="Last move (End)">⇥</button>
      </div>
      <ol class="moves" tabindex="0" aria-label="Move list"></ol>
      <details class="export">
        <summary>Export FEN / PGN</summary>
        <label>FEN of the shown position <input class="fen" readonly spellcheck="false"></label>
        <div class="buttons"><button type="button" data-copy="fen">Copy FEN</button></div>
        <label>PGN <textarea class="pgn" rows="5" readonly spellcheck="false"></textarea></label>
        <div class="buttons"><button type="button" data-copy="pgn">Copy PGN</button> <button type="button" data-download>Download PGN</button></div>
        <p class="copied" role="status" aria-live="polite"></p>
      </details>`;
    this.list = this.el.querySelector('.moves');
    this.el.querySelector('.nav').addEventListener('click', (ev) => {
      const nav = ev.target.closest('[data-nav]')?.dataset.nav;
      if (nav) this.navigate(nav);
    });
    this.list.addEventListener('click', (ev) => {
      const ply = ev.target.closest('[data-ply]')?.dataset.ply;
      if (ply !== undefined) this.onSelect(Number(ply));
    });
    stepWith(this.el, (nav) => this.navigate(nav));
    for (const b of this.el.querySelectorAll('[data-copy]')) {
      b.addEventListener('click', () => this.copy(this.el.querySelector(`.${b.dataset.copy}`)));
    }
    this.el.querySelector('[data-download]').addEventListener('click', () => this.download());
  }

  navigate(nav) {
    if (!this.game) return;
    const to = { first: 0, prev: this.game.shownPly - 1, next: this.game.shownPly + 1, last: this.game.ply }[nav];
    this.onSelect(Math.max(0, Math.min(this.game.ply, to)));
  }

  /** Where the move numbers start: { full, black } for a start FEN. */
  start(fen) {
    if (!this.starts.has(fen)) {
      const b = new Board(fen);
      this.starts.set(fen, { full: b.fullmoveNumber(), black: b.turn() === 'b' });
      b.free();
    }
    return this.starts.get(fen);
  }

  render(game) {
    this.game = game;
    const history = game.board.history();
    const { full, black } = this.start(game.board.startFen());
    const shown = game.shownPly;
    this.list.replaceChildren();
    let li = null;
    history.forEach((san, i) => {
      const k = i + (black ? 1 : 0);
      if (k % 2 === 0 || li === null) {
        li = document.createElement('li');
        li.innerHTML = `<span class="num">${full + Math.floor(k / 2)}.${k % 2 ? '..' : ''}</span>`;
        this.list.append(li);
      }
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mv';
      b.dataset.ply = String(i + 1);
      b.textContent = san;
      if (i + 1 === shown) b.setAttribute('aria-current', 'step');
      li.append(b);
    });
    const outcome = game.outcome;
    if (!history.length && !outcome) this.list.innerHTML = '<li class="none">No moves yet</li>';
    if (outcome) {
      const end = document.createElement('li');
      end.className = 'result';
      end.innerHTML = '<strong></strong> <span></span>';
      end.firstChild.textContent = resultToken(outcome);
      end.lastChild.textContent = resultText(outcome);
      this.list.append(end);
    }
    scrollWithin(this.list, this.list.querySelector('[aria-current]'));
    const nav = this.el.querySelectorAll('.nav button');
    nav[0].disabled = nav[1].disabled = shown === 0;
    nav[2].disabled = nav[3].disabled = shown === game.ply;
    this.el.querySelector('.fen').value = game.shown().fen();
    this.el.querySelector('.pgn').value = game.pgn(this.pgnTags());
  }

  async copy(field) {
    const out = this.el.querySelector('.copied');
    try {
      await navigator.clipboard.writeText(field.value);
      out.textContent = 'Copied.';
    } catch {
      field.select();
      out.textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  }

  download() {
    const url = URL.createObjectURL(new Blob([this.el.querySelector('.pgn').value], { type: 'application/x-chess-pgn' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'hostage-game.pgn';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
