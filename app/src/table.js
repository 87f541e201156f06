// The playing table: the board, the four reserves beside it, the players'
// bars, the pickers (promotion, which prisoner to release) and typed SAN.
// It turns gestures into legal move objects taken from the package
// (legalMoves, dests, dropDests, exchangeDests) and hands them to the mode
// through onMove; it never changes the Board it shows. While the other side
// is to move it can take a premove (a board move or a drop, checked only
// when it is played: the mode calls takePremove()).
import { BoardView } from './board.js';
import { COLOR_NAME, other, pieceImg } from './pieces.js';
import { ReserveView } from './reserves.js';
import { moveError } from './words.js';

export class Table {
  /** onMove(move): a legal move object was chosen for the shown position. */
  constructor({ onMove, onPremove = () => {}, sanEntry = true }) {
    this.onMove = onMove;
    this.onPremove = onPremove;
    this.board = null;
    this.movable = () => false;
    this.premovable = () => null;
    this.sel = null;
    this.preSel = null; // { from } or { role } while a premove is being chosen
    this.premove = null; // { from?, role?, to, text, matches(move) }
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

    // Beside the board (on a phone above and below it): the top player's bar
    // and reserves, the typed move and messages (between them beside the
    // board; on a phone last, under the bottom bar, so that the board, both
    // bars and all four reserves fit one screen), the bottom reserves and bar.
    this.middle = document.createElement('div');
    this.middle.className = 'table-middle';
    if (sanEntry) this.middle.append(this.sanForm());
    this.middle.append(this.msg);
    this.el.append(this.playerTop, this.top, this.wrap, this.bottom, this.playerBottom, this.middle);
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
      if (!this.canAct()) { this.message('It is not your move.', 'warning'); return; }
      const probe = this.board.clone();
      try {
        const move = probe.push(text);
        this.sanInput.value = '';
        this.message('');
        this.choose(move);
      } catch (e) {
        this.message(moveError(e, text), 'error');
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
  set(board, { movable = () => false, premovable = () => null } = {}) {
    this.board = board;
    this.movable = movable;
    this.premovable = premovable;
    this.sel = null;
    if (!this.premoveColor()) this.preSel = null;
    this.closePicker();
    this.render();
  }

  canAct() {
    return Boolean(this.board) && !this.board.isGameOver() && this.movable(this.board.turn());
  }

  /** Moves the keyboard focus to the board (its focused square). */
  focusBoard() {
    this.view.squares.get(this.view.focusSquare)?.focus();
  }

  // ---- premoves -----------------------------------------------------------

  /** The colour a premove may be made for now, or null. */
  premoveColor() {
    if (!this.board || this.board.isGameOver() || this.canAct()) return null;
    const c = this.premovable();
    return c && c !== this.board.turn() ? c : null;
  }

  setPremove(p) {
    this.preSel = null;
    this.premove = {
      ...p,
      matches: (m) => (p.from ? m.from === p.from && m.to === p.to && m.kind !== 'drop' && m.kind !== 'exchange'
        : m.kind === 'drop' && m.role === p.role && m.to === p.to),
    };
    this.onPremove(this.premove);
    this.render();
  }

  cancelPremove() {
    this.premove = null;
    this.preSel = null;
    if (this.board) this.render();
  }

  /** The premove waiting (and forgets it), or null. */
  takePremove() {
    const p = this.premove;
    this.premove = null;
    this.preSel = null;
    return p;
  }

  tapPremove(sq) {
    const c = this.premoveColor();
    if (!c) return false;
    const s = this.preSel;
    if (s && s.from !== sq) {
      this.setPremove(s.from ? { from: s.from, to: sq, text: `${s.from} to ${sq}` } : { role: s.role, to: sq, text: `drop a ${s.role} on ${sq}` });
      return true;
    }
    const p = this.board.pieceAt(sq);
    this.premove = null;
    this.preSel = p && p.color === c && s?.from !== sq ? { from: sq } : null;
    this.render();
    return true;
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
    if (!this.canAct()) { this.tapPremove(sq); return; }
    this.closePicker();
    if (this.sel && this.dests().includes(sq)) return this.complete(sq);
    const p = this.board.pieceAt(sq);
    const mine = p && p.color === this.board.turn() && this.board.dests().has(sq);
    this.sel = mine && !(this.sel?.kind === 'board' && this.sel.from === sq) ? { kind: 'board', from: sq } : null;
    this.render();
  }

  dragStartSquare(sq) {
    if (!this.canAct()) {
      const c = this.premoveColor();
      if (!c || this.board.pieceAt(sq)?.color !== c) return false;
      this.preSel = { from: sq };
      this.premove = null;
      this.render();
      return true;
    }
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
    if (this.preSel) {
      if (sq && sq !== from) this.tapPremove(sq);
      else if (!sq) { this.preSel = null; this.render(); }
      return;
    }
    if (sq && this.dests().includes(sq)) return this.complete(sq);
    if (sq && sq === from) return; // put back where it was: stays selected, as after a tap
    this.clearSelection();
  }

  tapReserve(r, role) {
    if (!this.canAct()) {
      const c = this.premoveColor();
      if (c && r.kind === 'airfield' && r.owner === c) {
        this.premove = null;
        this.preSel = this.preSel?.role === role ? null : { role };
        this.render();
      }
      return;
    }
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
    if (!this.canAct()) {
      const c = this.premoveColor();
      if (!c || r.kind !== 'airfield' || r.owner !== c) return false;
      this.preSel = { role };
      this.premove = null;
      this.render();
      return true;
    }
    const before = this.sel;
    this.sel = null;
    this.tapReserve(r, role);
    if (!this.sel) { this.sel = before; this.render(); return false; }
    return true;
  }

  dropReserve(r, role, target) {
    if (this.preSel) {
      if (target?.dataset.square) this.tapPremove(target.dataset.square);
      else { this.preSel = null; this.render(); }
      return;
    }
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
    const pre = this.premove ? [this.premove.from, this.premove.to].filter(Boolean) : [];
    this.view.render({
      pieceAt: (sq) => b.pieceAt(sq),
      selected: s?.kind === 'board' ? s.from : this.preSel?.from ?? null,
      dests: this.dests(),
      premove: pre,
      lastMove: last && { from: last.from, to: last.to, kind: last.kind, ply: b.ply() },
      check: b.checkSquare(),
      pseudoCheck: b.pseudoCheckSquare(),
      // The frozen pawns that eye the king (R8a): marked, so the pseudo-check is seen.
      pseudoCheckers: b.pseudoCheckSquare() ? b.pseudoCheckers() : [],
      // Every frozen pawn of both sides (R8), with an icy mark and its name.
      frozen: b.frozenPawns(),
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
        selected: mine && s?.kind === 'drop' ? s.role : (this.preSel?.role && this.premoveColor() === owner ? this.preSel.role : null),
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
    this.el.dataset.premove = this.premove ? this.premove.text : '';
  }
}
