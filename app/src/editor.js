// The board editor of Analyse: a palette of men (both colours, and an
// eraser), the board (tap a square to place the chosen man or, with the
// eraser or the same man, to empty it; drag a man to move it, off the board
// to remove it), the four reserves' counts and the side to move. It edits a
// package `Setup` (which may be illegal); "Analyse this position" asks the
// package for a Board and shows the package's error when it refuses.
import { BoardView } from './board.js';
import { COLOR_NAME, ROLES, pieceImg } from './pieces.js';
import { Setup } from './pkg.js';
import { positionError } from './words.js';

const MEN = ['king', ...ROLES];
const RESERVES = [
  ['prison', 'w'], ['prison', 'b'], ['airfield', 'w'], ['airfield', 'b'],
];

export class Editor {
  /** onDone(fen): a legal position was set up; onCancel(). */
  constructor({ onDone, onCancel }) {
    this.onDone = onDone;
    this.onCancel = onCancel;
    this.setup = Setup.empty();
    this.tool = { color: 'w', role: 'king' }; // or { erase: true }
    this.el = document.createElement('div');
    this.el.className = 'layout editor';
    this.el.innerHTML = `
      <div class="table-slot">
        <div class="board-wrap"></div>
        <p class="editor-fen"><label>FEN (paste one to load it) <input class="fen" spellcheck="false" autocomplete="off"></label></p>
      </div>
      <aside class="side">
        <section class="card" aria-labelledby="editor-title">
          <h2 id="editor-title">Set up a position</h2>
          <p class="hint">Pick a man, then tap squares to place it (tap again to remove).
          Drag a man to move it, or off the board to remove it.</p>
          <div class="palette" role="toolbar" aria-label="Men to place"></div>
          <fieldset class="turn"><legend>Side to move</legend>
            <label><input type="radio" name="editor-turn" value="w"> White</label>
            <label><input type="radio" name="editor-turn" value="b"> Black</label>
          </fieldset>
          <fieldset class="castling"><legend>Castling rights</legend>
            <label><input type="checkbox" data-castle="K"> White O-O</label>
            <label><input type="checkbox" data-castle="Q"> White O-O-O</label>
            <label><input type="checkbox" data-castle="k"> Black O-O</label>
            <label><input type="checkbox" data-castle="q"> Black O-O-O</label>
          </fieldset>
          <label class="ep">En passant <select class="ep-select"><option value="-">None</option></select></label>
          <div class="buttons">
            <button type="button" data-edit="start">Start position</button>
            <button type="button" data-edit="clear">Clear board</button>
          </div>
        </section>
        <section class="card reserves-editor" aria-labelledby="editor-reserves-title">
          <h2 id="editor-reserves-title">Prisons and airfields</h2>
          <div class="reserve-edit"></div>
        </section>
        <section class="card">
          <p class="error editor-error" role="alert" hidden></p>
          <div class="buttons">
            <button type="button" class="primary" data-edit="done">Analyse this position</button>
            <button type="button" data-edit="cancel">Cancel</button>
          </div>
        </section>
      </aside>`;
    const $ = (s) => this.el.querySelector(s);
    this.$ = $;

    this.view = new BoardView({
      tap: (sq) => this.tap(sq),
      dragStart: (sq) => Boolean(this.setup.get(sq)),
      dragDrop: (from, target) => this.dragged(from, target),
    });
    this.view.el.setAttribute('aria-label', 'Board editor. Arrow keys move between squares, Enter or Space places the chosen man.');
    $('.board-wrap').append(this.view.el);

    // The palette: 12 men and the eraser, one pressed at a time.
    const palette = $('.palette');
    for (const color of ['w', 'b']) {
      for (const role of MEN) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'tool';
        b.dataset.color = color;
        b.dataset.role = role;
        b.append(pieceImg(color, role));
        b.setAttribute('aria-label', `${COLOR_NAME[color]} ${role}`);
        b.title = `${COLOR_NAME[color]} ${role}`;
        palette.append(b);
      }
    }
    const erase = document.createElement('button');
    erase.type = 'button';
    erase.className = 'tool erase';
    erase.dataset.erase = 'true';
    erase.textContent = '✕ Eraser';
    erase.setAttribute('aria-label', 'Eraser: empty squares');
    erase.title = 'Eraser';
    palette.append(erase);
    palette.addEventListener('click', (ev) => {
      const b = ev.target.closest('.tool');
      if (!b) return;
      this.tool = b.dataset.erase ? { erase: true } : { color: b.dataset.color, role: b.dataset.role };
      this.render();
    });

    // The reserves: each drawn as its men with a count and − / + buttons.
    const box = $('.reserve-edit');
    for (const [kind, owner] of RESERVES) {
      const menColor = kind === 'prison' ? (owner === 'w' ? 'b' : 'w') : owner;
      const sec = document.createElement('section');
      sec.className = 'reserve-row';
      sec.setAttribute('aria-label', `${COLOR_NAME[owner]}'s ${kind}`);
      sec.innerHTML = `<h3>${COLOR_NAME[owner]}'s ${kind}</h3><div class="reserve-men"></div>`;
      for (const role of ROLES) {
        const men = `${COLOR_NAME[menColor].toLowerCase()} ${role}`;
        const cell = document.createElement('div');
        cell.className = 'reserve-cell';
        cell.dataset.kind = kind;
        cell.dataset.owner = owner;
        cell.dataset.role = role;
        cell.append(pieceImg(menColor, role));
        cell.insertAdjacentHTML('beforeend', `<output class="n" aria-label="${men}s in ${COLOR_NAME[owner]}'s ${kind}">0</output>
          <button type="button" data-step="-1" aria-label="Remove a ${men} from ${COLOR_NAME[owner]}'s ${kind}">−</button>
          <button type="button" data-step="1" aria-label="Add a ${men} to ${COLOR_NAME[owner]}'s ${kind}">+</button>`);
        sec.querySelector('.reserve-men').append(cell);
      }
      box.append(sec);
    }
    box.addEventListener('click', (ev) => {
      const b = ev.target.closest('[data-step]');
      if (b) this.step(b.closest('.reserve-cell'), Number(b.dataset.step));
    });
    const ep = $('.ep-select');
    for (const sq of [...'abcdefgh'].flatMap((f) => [`${f}3`, `${f}6`])) ep.insertAdjacentHTML('beforeend', `<option value="${sq}">${sq}</option>`);
    $('.fen').addEventListener('change', () => this.loadFen($('.fen').value));
    $('.fen').addEventListener('paste', () => setTimeout(() => this.loadFen($('.fen').value), 0));
    $('.fen').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); this.loadFen($('.fen').value); } });

    this.el.addEventListener('change', (ev) => {
      if (ev.target.name === 'editor-turn') this.edit(() => this.setup.setTurn(ev.target.value));
      if (ev.target.dataset.castle || ev.target.classList.contains('ep-select')) this.fields();
    });
    this.el.addEventListener('click', (ev) => {
      const act = ev.target.closest('[data-edit]')?.dataset.edit;
      if (act === 'start') this.load(new Setup());
      if (act === 'clear') this.edit(() => this.setup.clear());
      if (act === 'done') this.done();
      if (act === 'cancel') this.onCancel();
    });
  }

  /** Starts editing from a FEN (the shown position). */
  open(fen) {
    this.load(new Setup(fen));
  }

  load(setup) {
    this.setup.free?.();
    this.setup = setup;
    this.error('');
    this.render();
  }

  /** Runs an edit; the package's error (e.g. a bad count) is shown. */
  edit(fn) {
    try {
      fn();
      this.error('');
    } catch (e) {
      this.error(e?.code === 'invalid_argument' ? 'A count must be a whole number from 0 to 16.' : positionError(e));
    }
    this.render();
  }

  tap(sq) {
    const here = this.setup.get(sq);
    const t = this.tool;
    this.edit(() => {
      if (t.erase || (here && here.color === t.color && here.role === t.role)) this.setup.remove(sq);
      else this.setup.put({ color: t.color, role: t.role }, sq);
    });
  }

  dragged(from, target) {
    const to = target?.dataset.square;
    if (to === from) return;
    this.edit(() => {
      const man = this.setup.remove(from);
      if (man && to) this.setup.put(man, to);
    });
  }

  /** One more or one fewer man of a role in a reserve (the package refuses a bad count). */
  step(cell, by) {
    const { kind, owner, role } = cell.dataset;
    const reserve = { ...(kind === 'prison' ? this.setup.prisons() : this.setup.airfields())[owner] };
    reserve[role] = Math.max(0, (reserve[role] ?? 0) + by);
    this.edit(() => (kind === 'prison' ? this.setup.setPrison(owner, reserve) : this.setup.setAirfield(owner, reserve)));
  }

  /** The castling and en-passant fields, written into the FEN and read back by the package. */
  fields() {
    const castle = [...this.el.querySelectorAll('[data-castle]')].filter((c) => c.checked).map((c) => c.dataset.castle).join('') || '-';
    const parts = this.setup.fen().split(' ');
    parts[2] = castle;
    parts[3] = this.$('.ep-select').value;
    this.loadFen(parts.join(' '), 'These castling and en-passant settings');
  }

  /** A FEN typed or pasted into the box (the package parses it). */
  loadFen(text, what = 'This FEN') {
    text = text.trim();
    if (!text || text === this.setup.fen()) return;
    let next;
    try {
      next = new Setup(text);
    } catch (e) {
      this.error(positionError(e, what));
      // The castling boxes and the en-passant choice go back to the position's.
      this.render();
      return;
    }
    this.load(next);
  }

  error(text) {
    const el = this.$('.editor-error');
    el.hidden = !text;
    el.textContent = text;
  }

  done() {
    const s = this.setup.clone();
    try {
      s.cleanCastlingRights();
      const board = s.toBoard();
      const fen = board.fen();
      board.free?.();
      this.error('');
      this.onDone(fen);
    } catch (e) {
      this.error(positionError(e));
    } finally {
      s.free?.();
    }
  }

  render() {
    const s = this.setup;
    this.view.render({ pieceAt: (sq) => s.get(sq), dests: [] });
    for (const b of this.el.querySelectorAll('.palette .tool')) {
      const on = this.tool.erase ? Boolean(b.dataset.erase) : b.dataset.color === this.tool.color && b.dataset.role === this.tool.role;
      b.setAttribute('aria-pressed', String(on));
    }
    const counts = { prison: s.prisons(), airfield: s.airfields() };
    for (const c of this.el.querySelectorAll('.reserve-cell')) {
      const n = counts[c.dataset.kind][c.dataset.owner][c.dataset.role] ?? 0;
      c.querySelector('.n').textContent = String(n);
      c.classList.toggle('none', n === 0);
      c.querySelector('[data-step="-1"]').disabled = n === 0;
    }
    for (const r of this.el.querySelectorAll('input[name="editor-turn"]')) r.checked = r.value === s.turn();
    const [, , castle, ep] = s.fen().split(' ');
    for (const c of this.el.querySelectorAll('[data-castle]')) c.checked = castle.includes(c.dataset.castle);
    this.$('.ep-select').value = ep;
    if (document.activeElement !== this.$('.fen')) this.$('.fen').value = s.fen();
    this.el.dataset.fen = s.fen();
  }
}
