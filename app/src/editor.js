// The board editor of Analyse: a palette of men (both colours, and an
// eraser), the board (tap a square to place the chosen man or, with the
// eraser or the same man, to empty it; drag a man to move it, off the board
// to remove it), the four reserves' counts and the side to move. It edits a
// package `Setup` (which may be illegal); "Analyse this position" asks the
// package for a Board and shows the package's error when it refuses.
import { BoardView } from './board.js';
import { COLOR_NAME, ROLES, pieceImg } from './pieces.js';
import { Setup, errorText } from './pkg.js';

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
        <p class="editor-fen"><label>FEN <input class="fen" readonly spellcheck="false"></label></p>
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
          <div class="buttons">
            <button type="button" data-edit="start">Start position</button>
            <button type="button" data-edit="clear">Clear board</button>
          </div>
        </section>
        <section class="card reserves-editor" aria-labelledby="editor-reserves-title">
          <h2 id="editor-reserves-title">Prisons and airfields</h2>
          <table class="counts"></table>
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

    // The reserves: one number per role and reserve.
    const head = `<tr><th scope="col"><span class="visually-hidden">Reserve</span></th>${ROLES.map((r) => `<th scope="col" data-role="${r}"></th>`).join('')}</tr>`;
    const rows = RESERVES.map(([kind, owner]) => `<tr><th scope="row">${COLOR_NAME[owner]}'s ${kind}</th>${ROLES.map((role) => {
      const men = kind === 'prison' ? (owner === 'w' ? 'black' : 'white') : COLOR_NAME[owner].toLowerCase();
      return `<td><input type="number" inputmode="numeric" min="0" max="16" step="1" data-kind="${kind}" data-owner="${owner}" data-role="${role}" aria-label="${COLOR_NAME[owner]}'s ${kind}: ${men} ${role}s"></td>`;
    }).join('')}</tr>`).join('');
    $('.counts').innerHTML = `<thead>${head}</thead><tbody>${rows}</tbody>`;
    for (const th of this.el.querySelectorAll('.counts thead th[data-role]')) {
      th.append(pieceImg('w', th.dataset.role));
      th.title = th.dataset.role;
    }
    $('.counts').addEventListener('change', (ev) => this.countChanged(ev.target));

    this.el.addEventListener('change', (ev) => {
      if (ev.target.name === 'editor-turn') this.edit(() => this.setup.setTurn(ev.target.value));
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
      this.error(errorText(e));
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

  countChanged(input) {
    const { kind, owner } = input.dataset;
    const reserve = {};
    for (const i of this.el.querySelectorAll(`.counts input[data-kind="${kind}"][data-owner="${owner}"]`)) {
      reserve[i.dataset.role] = i.value === '' ? 0 : Number(i.value);
    }
    this.edit(() => (kind === 'prison' ? this.setup.setPrison(owner, reserve) : this.setup.setAirfield(owner, reserve)));
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
      this.error(`Not a legal position: ${errorText(e)}`);
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
    for (const i of this.el.querySelectorAll('.counts input')) {
      if (i === document.activeElement && i.value !== '') continue;
      i.value = String(counts[i.dataset.kind][i.dataset.owner][i.dataset.role] ?? 0);
    }
    for (const r of this.el.querySelectorAll('input[name="editor-turn"]')) r.checked = r.value === s.turn();
    this.$('.fen').value = s.fen();
    this.el.dataset.fen = s.fen();
  }
}
