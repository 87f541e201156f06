// The board widget: 64 square buttons in a grid. It draws what it is told
// (men, selection, legal destinations, last move, check and pseudo-check)
// and reports gestures (tap a square, drag a man from one square to another);
// it knows nothing of the rules.
import { draggable, onTap } from './drag.js';
import { COLOR_NAME, pieceImg, pieceUrl } from './pieces.js';

const FILES = 'abcdefgh';

export class BoardView {
  /**
   * `handlers.tap(square)`: a square was clicked (or chosen with the keyboard);
   * `handlers.dragStart(square)`: may a man be dragged from here (returns bool);
   * `handlers.dragDrop(from, target)`: the man was released over `target`
   * (an element: a square or another drop target, or null).
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.flipped = false;
    this.state = null;
    this.focusSquare = 'e2';
    this.el = document.createElement('div');
    this.el.className = 'board';
    this.el.setAttribute('role', 'grid');
    this.el.setAttribute('aria-label', 'Board. Arrow keys move between squares, Enter or Space picks a man and its destination.');
    this.squares = new Map();
    for (let i = 0; i < 8; i++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'row';
      this.el.append(row);
    }
    for (let r = 0; r < 8; r++) {
      for (let f = 0; f < 8; f++) {
        const sq = `${FILES[f]}${r + 1}`;
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `sq ${(f + r) % 2 ? 'light' : 'dark'}`;
        b.dataset.square = sq;
        b.setAttribute('role', 'gridcell');
        b.tabIndex = -1;
        onTap(b, () => { this.focusSquare = sq; this.handlers.tap(sq); });
        draggable(b, {
          start: () => {
            const p = this.state?.pieceAt(sq);
            if (!p || !this.handlers.dragStart(sq)) return null;
            return pieceUrl(p.color, p.role);
          },
          over: (target) => this.hover(target),
          drop: (target) => { this.hover(null); this.handlers.dragDrop(sq, target); },
          cancel: () => this.hover(null),
        });
        b.addEventListener('keydown', (ev) => this.key(ev, f, r));
        this.squares.set(sq, b);
      }
    }
    this.layout();
  }

  /** Places the squares in the rows for the current orientation. */
  layout() {
    const rows = [...this.el.children];
    for (let row = 0; row < 8; row++) {
      const r = this.flipped ? row : 7 - row;
      rows[row].replaceChildren();
      for (let col = 0; col < 8; col++) {
        const f = this.flipped ? 7 - col : col;
        const b = this.squares.get(`${FILES[f]}${r + 1}`);
        b.querySelectorAll('.coord').forEach((c) => c.remove());
        if (col === 0) b.insertAdjacentHTML('beforeend', `<span class="coord rank" aria-hidden="true">${r + 1}</span>`);
        if (row === 7) b.insertAdjacentHTML('beforeend', `<span class="coord file" aria-hidden="true">${FILES[f]}</span>`);
        rows[row].append(b);
      }
    }
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.layout();
  }

  hover(target) {
    this.el.querySelector('.hover')?.classList.remove('hover');
    if (target?.dataset.square && this.squares.has(target.dataset.square)) target.classList.add('hover');
  }

  /**
   * Draws a position. `view`: { pieceAt(sq) -> {color, role} | null (a package
   * Board), selected, dests: Square[], lastMove: {from?, to} | null, check,
   * pseudoCheck }.
   */
  render(view) {
    this.state = view;
    const dests = new Set(view.dests ?? []);
    for (const [sq, b] of this.squares) {
      const p = view.pieceAt(sq);
      b.querySelector('img')?.remove();
      if (p) b.prepend(pieceImg(p.color, p.role));
      b.classList.toggle('selected', view.selected === sq);
      b.classList.toggle('dest', dests.has(sq));
      b.classList.toggle('occupied', Boolean(p));
      b.classList.toggle('last', Boolean(view.lastMove && (view.lastMove.from === sq || view.lastMove.to === sq)));
      b.classList.toggle('check', view.check === sq);
      b.classList.toggle('pseudo', view.pseudoCheck === sq);
      b.tabIndex = sq === this.focusSquare ? 0 : -1;
      let label = `${sq}, ${p ? `${COLOR_NAME[p.color]} ${p.role}` : 'empty'}`;
      if (view.selected === sq) label += ', selected';
      if (dests.has(sq)) label += ', legal destination';
      if (view.check === sq) label += ', in check';
      if (view.pseudoCheck === sq) label += ', in pseudo-check';
      b.setAttribute('aria-label', label);
    }
  }

  key(ev, f, r) {
    const step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[ev.key];
    if (!step) return;
    ev.preventDefault();
    const s = this.flipped ? -1 : 1;
    const nf = f + step[0] * s;
    const nr = r + step[1] * s;
    if (nf < 0 || nf > 7 || nr < 0 || nr > 7) return;
    const sq = `${FILES[nf]}${nr + 1}`;
    this.squares.get(this.focusSquare).tabIndex = -1;
    this.focusSquare = sq;
    const b = this.squares.get(sq);
    b.tabIndex = 0;
    b.focus();
  }
}
