// The board widget: 64 square buttons in a grid. It draws what it is told
// (men, selection, legal destinations, last move, check and pseudo-check,
// premoves), animates a move that was just played, draws the player's
// right-click arrows and circles (and arrows it is given, such as the
// engine's best move) and reports gestures (tap a square, drag a man from
// one square to another); it knows nothing of the rules.
import { draggable, onTap } from './drag.js';
import { COLOR_NAME, pieceImg, pieceUrl } from './pieces.js';
import { animationMs } from './settings.js';

const SVG = 'http://www.w3.org/2000/svg';

const FILES = 'abcdefgh';

/** The rook's move of a castling whose king lands on `kingTo` (g1: h1-f1, c8: a8-d8). */
function castlingRook(kingTo) {
  const rank = kingTo[1];
  if (kingTo[0] === 'g') return { from: `h${rank}`, to: `f${rank}` };
  if (kingTo[0] === 'c') return { from: `a${rank}`, to: `d${rank}` };
  return null;
}

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
    this.shapes = []; // the player's: { from, to } arrows and { at } circles
    this.autoShapes = []; // given by the mode (best move): { from, to, kind }
    this.overlay = document.createElementNS(SVG, 'svg');
    this.overlay.setAttribute('class', 'shapes');
    this.overlay.setAttribute('viewBox', '0 0 8 8');
    this.overlay.setAttribute('aria-hidden', 'true');
    this.overlay.innerHTML = `<defs><marker id="${this.markerId('mine')}" viewBox="0 0 4 4" refX="2" refY="2" markerWidth="2.4" markerHeight="2.4" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="#15781b"/></marker><marker id="${this.markerId('auto')}" viewBox="0 0 4 4" refX="2" refY="2" markerWidth="2.4" markerHeight="2.4" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="#003088"/></marker></defs><g class="drawn"></g>`;
    this.el.append(this.overlay);
    this.lastKey = null;
    this.rightFrom = null;
    this.el.addEventListener('contextmenu', (ev) => ev.preventDefault());
    this.el.addEventListener('pointerdown', (ev) => {
      const sq = ev.target.closest('[data-square]')?.dataset.square;
      if (ev.button === 2) { this.rightFrom = sq ?? null; ev.preventDefault(); } else if (ev.button === 0 && this.shapes.length) { this.shapes = []; this.drawShapes(); }
    });
    this.el.addEventListener('pointerup', (ev) => {
      if (ev.button !== 2 || !this.rightFrom) return;
      const el = document.elementFromPoint(ev.clientX, ev.clientY)?.closest('[data-square]');
      const to = el && this.el.contains(el) ? el.dataset.square : null;
      if (to) this.toggleShape(this.rightFrom, to);
      this.rightFrom = null;
    });
    this.layout();
  }

  markerId(kind) {
    this.uid ??= Math.random().toString(36).slice(2, 8);
    return `arrowhead-${kind}-${this.uid}`;
  }

  /** A right-drag from `from` to `to`: an arrow (a circle when they are the same square), or removes it. */
  toggleShape(from, to) {
    const same = (s) => (from === to ? s.at === from : s.from === from && s.to === to);
    const had = this.shapes.some(same);
    this.shapes = this.shapes.filter((s) => !same(s));
    if (!had) this.shapes.push(from === to ? { at: from } : { from, to });
    this.drawShapes();
  }

  /** Shapes the mode draws (e.g. the engine's best move): [{ from, to }] arrows, [{ at, kind? }] rings. */
  setAutoShapes(shapes) {
    this.autoShapes = shapes;
    this.drawShapes();
  }

  centre(sq) {
    const f = FILES.indexOf(sq[0]);
    const r = Number(sq[1]) - 1;
    return this.flipped ? [7 - f + 0.5, r + 0.5] : [f + 0.5, 7 - r + 0.5];
  }

  drawShapes() {
    const g = this.overlay.querySelector('.drawn');
    g.replaceChildren();
    const arrow = (from, to, kind) => {
      const [x1, y1] = this.centre(from);
      const [x2, y2] = this.centre(to);
      const len = Math.hypot(x2 - x1, y2 - y1);
      const k = (len - 0.35) / len; // stop short so the head ends in the square
      const l = document.createElementNS(SVG, 'line');
      l.setAttribute('x1', x1); l.setAttribute('y1', y1);
      l.setAttribute('x2', x1 + (x2 - x1) * k); l.setAttribute('y2', y1 + (y2 - y1) * k);
      l.setAttribute('class', `arrow ${kind}`);
      l.setAttribute('marker-end', `url(#${this.markerId(kind)})`);
      l.dataset.from = from;
      l.dataset.to = to;
      g.append(l);
    };
    const circle = (at, kind) => {
      const [cx, cy] = this.centre(at);
      const c = document.createElementNS(SVG, 'circle');
      c.setAttribute('cx', cx); c.setAttribute('cy', cy); c.setAttribute('r', 0.45);
      c.setAttribute('class', `circle ${kind}`);
      c.dataset.at = at;
      g.append(c);
      return c;
    };
    // The mode's shapes: an arrow, or a ring on a square (a drop's or an exchange's target).
    for (const s of this.autoShapes) {
      if (s.at) circle(s.at, 'auto').dataset.kind = s.kind ?? '';
      else arrow(s.from, s.to, 'auto');
    }
    for (const s of this.shapes) {
      if (s.at) circle(s.at, 'mine');
      else arrow(s.from, s.to, 'mine');
    }
    this.el.dataset.shapes = String(this.shapes.length);
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
    this.drawShapes?.();
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
   * pseudoCheck, pseudoCheckers: Square[] (the frozen pawns eyeing the king),
   * frozen: Square[] (every frozen pawn, R8) }.
   */
  render(view) {
    this.state = view;
    const dests = new Set(view.dests ?? []);
    const premove = new Set(view.premove ?? []);
    const checkers = new Set(view.pseudoCheckers ?? []);
    const frozen = new Set(view.frozen ?? []);
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
      b.classList.toggle('premove', premove.has(sq));
      b.classList.toggle('frozen', frozen.has(sq) || checkers.has(sq));
      b.classList.toggle('frozen-checker', checkers.has(sq));
      b.tabIndex = sq === this.focusSquare ? 0 : -1;
      let label = `${sq}, ${p ? `${COLOR_NAME[p.color]} ${p.role}` : 'empty'}`;
      if (view.selected === sq) label += ', selected';
      if (dests.has(sq)) label += ', legal destination';
      if (view.check === sq) label += ', in check';
      if (view.pseudoCheck === sq) label += ', in pseudo-check';
      // A frozen pawn (R8) cannot move or check; the one that eyes the king
      // says so, since it is what makes the pseudo-check (R8a).
      if (checkers.has(sq)) label += ', frozen pawn giving pseudo-check';
      else if (frozen.has(sq)) label += ', frozen pawn';
      if (premove.has(sq)) label += ', premove';
      b.setAttribute('aria-label', label);
    }
    this.animate(view.lastMove);
  }

  /** Slides the man of a move just played from its square (or fades a drop in). */
  animate(last) {
    // Only a move one ply after the one drawn before is animated (not a
    // jump in the move list, nor the same move drawn again).
    const prev = this.lastKey;
    this.lastKey = last ? { ply: last.ply } : { ply: 0 };
    const fresh = last && prev && last.ply === prev.ply + 1;
    const ms = animationMs();
    if (!fresh || !ms) return;
    const img = this.squares.get(last.to)?.querySelector('img');
    if (!img) return;
    this.el.dataset.animated = `${last.from ?? 'reserve'}-${last.to}`;
    this.el.dataset.animatedKind = last.kind ?? 'move'; // move, capture…, drop or exchange: what was animated
    if (last.from) {
      this.slide(img, last.from, last.to, ms);
      // Castling (R9) is given by the king's move; its rook slides too.
      const rook = last.kind === 'castle' ? castlingRook(last.to) : null;
      const rookImg = rook && this.squares.get(rook.to)?.querySelector('img');
      if (rookImg) this.slide(rookImg, rook.from, rook.to, ms);
      if (rookImg) this.el.dataset.animatedRook = `${rook.from}-${rook.to}`;
      else delete this.el.dataset.animatedRook;
    } else {
      img.animate([{ transform: 'scale(0.4)', opacity: 0 }, { transform: 'none', opacity: 1 }], { duration: ms, easing: 'ease-out' });
    }
  }

  /** Slides the image now on `to` from square `from`. */
  slide(img, from, to, ms) {
    const a = this.squares.get(from).getBoundingClientRect();
    const b = this.squares.get(to).getBoundingClientRect();
    img.animate([{ transform: `translate(${a.left - b.left}px, ${a.top - b.top}px)` }, { transform: 'none' }], { duration: ms, easing: 'ease-out' });
  }

  key(ev, f, r) {
    if (ev.key === 'Home' || ev.key === 'End' || ev.key === 'PageUp' || ev.key === 'PageDown') return;
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
