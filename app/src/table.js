// The playing table: the board, the four reserves around it, the pickers
// (promotion, which prisoner to release) and typed SAN. It turns gestures
// into legal move objects taken from the package (legalMoves, dests,
// dropDests, exchangeDests) and hands them to the mode through onMove; it
// never changes the Board it shows.
import { BoardView } from './board.js';
import { COLOR_NAME, other, pieceImg } from './pieces.js';
import { errorText } from './pkg.js';
import { ReserveView } from './reserves.js';

export class Table {
  /** onMove(move): a legal move object was chosen for the shown position. */
  constructor({ onMove, sanEntry = true }) {
    this.onMove = onMove;
    this.board = null;
    this.movable = () => false;
    this.sel = null;
    this.el = document.createElement('div');
    this.el.className = 'table';

    this.view = new BoardView({
      tap: (sq) => this.tapSquare(sq),
      dragStart: (sq) => this.dragStartSquare(sq),
      dragDrop: (from, target) => this.dropOn(target, from),
    });
    const reserveHandlers = {
      tap: (r, role) => this.tapReserve(r, role),
      dragStart: (r, role) => this.dragStartReserve(r, role),
      dragDrop: (r, role, target) => this.dropReserve(r, role, target),
    };
    this.reserves = {};
    for (const kind of ['prison', 'airfield']) {
      for (const owner of ['w', 'b']) this.reserves[`${kind}-${owner}`] = new ReserveView(kind, owner, reserveHandlers);
    }
    this.top = document.createElement('div');
    this.top.className = 'reserves top';
    this.bottom = document.createElement('div');
    this.bottom.className = 'reserves bottom';
    this.playerTop = document.createElement('div');
    this.playerTop.className = 'player top';
    this.playerBottom = document.createElement('div');
    this.playerBottom.className = 'player bottom';

    this.wrap = document.createElement('div');
    this.wrap.className = 'board-wrap';
    this.picker = document.createElement('div');
    this.picker.className = 'picker';
    this.picker.hidden = true;
    this.picker.setAttribute('role', 'dialog');
    this.picker.setAttribute('aria-modal', 'true');
    this.wrap.append(this.view.el, this.picker);

    this.msg = document.createElement('p');
    this.msg.className = 'table-message';
    this.msg.setAttribute('role', 'status');
    this.msg.setAttribute('aria-live', 'polite');

    this.el.append(this.playerTop, this.top, this.wrap, this.bottom, this.playerBottom);
    if (sanEntry) this.el.append(this.sanForm());
    this.el.append(this.msg);
    this.el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && (this.sel || !this.picker.hidden)) { this.clearSelection(); ev.stopPropagation(); }
    });
    this.setFlipped(false);
  }

  sanForm() {
    const form = document.createElement('form');
    form.className = 'san-entry';
    form.innerHTML = `<label>Type a move <input name="san" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="e4, Nf3, N*c7, (P-P)*e3"></label><button type="submit">Play</button>`;
    this.sanInput = form.querySelector('input');
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = this.sanInput.value.trim();
      if (!text) return;
      if (!this.canAct()) { this.message('It is not your move.', 'error'); return; }
      const probe = this.board.clone();
      try {
        const move = probe.push(text);
        this.sanInput.value = '';
        this.message('');
        this.choose(move);
      } catch (e) {
        this.message(errorText(e), 'error');
      } finally {
        probe.free();
      }
    });
    return form;
  }

  /** Which side is at the bottom: flipped means Black. */
  setFlipped(flipped) {
    this.flipped = flipped;
    this.view.setFlipped(flipped);
    const bottom = flipped ? 'b' : 'w';
    const top = other(bottom);
    // As each player sees them from their seat: airfield on the left, prison
    // on the right (the same as the package's diagrams).
    this.top.replaceChildren(this.reserves[`prison-${top}`].el, this.reserves[`airfield-${top}`].el);
    this.bottom.replaceChildren(this.reserves[`airfield-${bottom}`].el, this.reserves[`prison-${bottom}`].el);
    this.el.dataset.bottom = bottom;
    if (this.board) this.render();
  }

  /**
   * Shows a position (a package Board, not changed here). `movable(color)`
   * says whether the user may move for that colour now.
   */
  set(board, { movable = () => false } = {}) {
    this.board = board;
    this.movable = movable;
    this.sel = null;
    this.closePicker();
    this.render();
  }

  canAct() {
    return Boolean(this.board) && !this.board.isGameOver() && this.movable(this.board.turn());
  }

  message(text, kind = 'info') {
    this.msg.textContent = text;
    this.msg.dataset.kind = kind;
  }

  clearSelection() {
    this.sel = null;
    this.closePicker();
    this.render();
  }

  // ---- what the package says is possible ------------------------------

  exchanges() {
    return this.canAct() ? this.board.exchangeDests() : [];
  }

  dests() {
    const s = this.sel;
    if (!s || !this.canAct()) return [];
    if (s.kind === 'board') return this.board.dests().get(s.from) ?? [];
    if (s.kind === 'drop') return this.board.dropDests()[s.role] ?? [];
    if (s.kind === 'rescue') {
      const to = new Set();
      for (const e of this.exchanges()) {
        if (e.rescued === s.rescued && (!s.released || e.released === s.released)) e.to.forEach((t) => to.add(t));
      }
      return [...to];
    }
    return [];
  }

  candidates(sq) {
    const s = this.sel;
    return this.board.legalMoves().filter((m) => {
      if (m.to !== sq) return false;
      if (s.kind === 'board') return m.from === s.from;
      if (s.kind === 'drop') return m.kind === 'drop' && m.role === s.role;
      if (s.kind === 'rescue') return m.kind === 'exchange' && m.rescued === s.rescued && (!s.released || m.released === s.released);
      return false;
    });
  }

  // ---- gestures ---------------------------------------------------------

  tapSquare(sq) {
    if (!this.canAct()) return;
    this.closePicker();
    if (this.sel && this.dests().includes(sq)) return this.complete(sq);
    const p = this.board.pieceAt(sq);
    const mine = p && p.color === this.board.turn() && this.board.dests().has(sq);
    this.sel = mine && !(this.sel?.kind === 'board' && this.sel.from === sq) ? { kind: 'board', from: sq } : null;
    this.render();
  }

  dragStartSquare(sq) {
    if (!this.canAct()) return false;
    const p = this.board.pieceAt(sq);
    if (!p || p.color !== this.board.turn() || !this.board.dests().has(sq)) return false;
    this.closePicker();
    this.sel = { kind: 'board', from: sq };
    this.render();
    return true;
  }

  /** A dragged man (from a square or a reserve) was released over target. */
  dropOn(target, from) {
    const sq = target?.dataset.square;
    if (sq && this.dests().includes(sq)) return this.complete(sq);
    if (sq && sq === from) return; // put back where it was: stays selected, as after a tap
    this.clearSelection();
  }

  tapReserve(r, role) {
    if (!this.canAct()) return;
    this.closePicker();
    const us = this.board.turn();
    const s = this.sel;
    const exchanges = this.exchanges();
    if (r.kind === 'airfield' && r.owner === us) {
      const can = (this.board.dropDests()[role] ?? []).length > 0;
      this.sel = can && !(s?.kind === 'drop' && s.role === role) ? { kind: 'drop', role } : null;
    } else if (r.kind === 'prison' && r.owner === us) {
      // An enemy man in our prison: the one to release.
      if (s?.kind === 'rescue' && exchanges.some((e) => e.released === role && e.rescued === s.rescued)) {
        this.sel = { ...s, released: s.released === role ? null : role };
      } else {
        const can = exchanges.some((e) => e.released === role);
        this.sel = can && !(s?.kind === 'release' && s.released === role) ? { kind: 'release', released: role } : null;
      }
    } else if (r.kind === 'prison' && r.owner !== us) {
      // One of our men in the enemy prison: the one to rescue.
      const released = s?.kind === 'release' || s?.kind === 'rescue' ? s.released : null;
      const can = exchanges.some((e) => e.rescued === role && (!released || e.released === released));
      if (can && !(s?.kind === 'rescue' && s.rescued === role)) this.sel = { kind: 'rescue', rescued: role, released };
      else this.sel = can || !released ? null : { kind: 'release', released };
    } else {
      this.sel = null;
    }
    this.render();
  }

  dragStartReserve(r, role) {
    if (!this.canAct()) return false;
    const before = this.sel;
    this.sel = null;
    this.tapReserve(r, role);
    if (!this.sel) { this.sel = before; this.render(); return false; }
    return true;
  }

  dropReserve(r, role, target) {
    if (target?.dataset.square) return this.dropOn(target);
    // A prisoner dragged onto one of our men in the enemy prison: that pair.
    const us = this.board.turn();
    if (this.sel?.kind === 'release' && target?.dataset.dropTarget === `prison-${other(us)}`) {
      const rescued = target.dataset.role;
      if (this.exchanges().some((e) => e.released === this.sel.released && e.rescued === rescued)) {
        this.sel = { kind: 'rescue', rescued, released: this.sel.released };
        this.message(`Now pick the square for the rescued ${rescued}.`);
        return this.render();
      }
    }
    if (target === null || target?.dataset.dropTarget === undefined) this.clearSelection();
  }

  complete(sq) {
    const moves = this.candidates(sq);
    if (moves.length === 1) return this.choose(moves[0]);
    if (moves.length === 0) return this.clearSelection();
    const them = COLOR_NAME[other(this.board.turn())];
    if (this.sel.kind === 'board') {
      this.openPicker(`Promote: which man comes back from ${them}'s prison?`, moves, (m) => m.promotion, this.board.turn());
    } else {
      this.openPicker(`Release which prisoner? It goes to ${them}'s airfield.`, moves, (m) => m.released, other(this.board.turn()));
    }
  }

  choose(move) {
    this.sel = null;
    this.closePicker();
    this.onMove(move);
  }

  openPicker(title, moves, roleOf, color) {
    this.picker.replaceChildren();
    const h = document.createElement('p');
    h.id = `picker-title-${Math.random().toString(36).slice(2)}`;
    h.textContent = title;
    this.picker.setAttribute('aria-labelledby', h.id);
    const row = document.createElement('div');
    row.className = 'choices';
    for (const m of moves) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice';
      b.dataset.role = roleOf(m);
      b.append(pieceImg(color, roleOf(m)));
      b.insertAdjacentHTML('beforeend', `<span>${m.san}</span>`);
      b.setAttribute('aria-label', `${roleOf(m)}: ${m.san}`);
      b.addEventListener('click', () => this.choose(m));
      row.append(b);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => this.clearSelection());
    this.picker.append(h, row, cancel);
    this.picker.hidden = false;
    this.render();
    row.querySelector('button').focus();
  }

  closePicker() {
    this.picker.hidden = true;
  }

  // ---- drawing ----------------------------------------------------------

  render() {
    const b = this.board;
    if (!b) return;
    const last = b.historyMoves().at(-1) ?? null;
    const s = this.sel;
    this.view.render({
      pieceAt: (sq) => b.pieceAt(sq),
      selected: s?.kind === 'board' ? s.from : null,
      dests: this.dests(),
      lastMove: last && { from: last.from, to: last.to },
      check: b.checkSquare(),
      pseudoCheck: b.pseudoCheckSquare(),
    });
    const us = b.turn();
    const act = this.canAct();
    const ex = this.exchanges();
    const prisons = b.prisons();
    const airfields = b.airfields();
    for (const owner of ['w', 'b']) {
      const mine = act && owner === us;
      const drops = mine ? Object.keys(b.dropDests()).filter((r) => b.dropDests()[r].length) : [];
      this.reserves[`airfield-${owner}`].render(airfields[owner], {
        selected: mine && s?.kind === 'drop' ? s.role : null,
        active: new Set(drops),
      });
      this.reserves[`prison-${owner}`].render(prisons[owner], mine
        ? { selected: s?.released ?? null, active: new Set(ex.map((e) => e.released)) }
        : {
          selected: act && s?.kind === 'rescue' ? s.rescued : null,
          active: new Set(ex.map((e) => e.rescued)),
          targets: new Set(s?.kind === 'release' ? ex.filter((e) => e.released === s.released).map((e) => e.rescued) : []),
        });
    }
    this.el.classList.toggle('interactive', act);
  }
}
