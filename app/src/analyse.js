// Analyse: paste a FEN or a PGN (the package parses it, and its error is
// shown when it cannot), play moves for both sides, step through them, and
// ask the engine (in its Web Worker) for its best lines; or set a position
// up in the board editor (editor.js), which the package validates.
import { Editor } from './editor.js';
import { Game, statusText } from './game.js';
import { MoveList } from './movelist.js';
import { EngineWorker, errorText } from './pkg.js';
import { Table } from './table.js';

const NODES = 150_000;

function scoreText(score, turn) {
  // The engine scores for the side to move; shown from White's side.
  const sign = turn === 'w' ? 1 : -1;
  if (score.mate !== undefined) {
    const m = score.mate * sign;
    return score.mate === 0 ? '#' : `#${m > 0 ? '' : '-'}${Math.abs(m)}`;
  }
  const cp = (score.cp * sign) / 100;
  return `${cp > 0 ? '+' : ''}${cp.toFixed(2)}`;
}

export function mount(root) {
  root.innerHTML = `
    <h1 class="visually-hidden">Analyse</h1>
    <div class="layout analysis">
      <div class="table-slot"></div>
      <aside class="side">
        <section class="card">
          <p class="status" role="status" aria-live="polite"></p>
          <div class="actions">
            <button type="button" data-act="flip">Flip board</button>
            <button type="button" data-act="reset">Start position</button>
            <button type="button" data-act="back">Take back</button>
          </div>
        </section>
        <section class="card engine">
          <h2><label><input type="checkbox" class="engine-on"> Engine lines</label></h2>
          <p class="engine-info" role="status"></p>
          <ol class="engine-lines"></ol>
        </section>
        <section class="card paste">
          <h2>Set up a position</h2>
          <div class="buttons"><button type="button" data-act="edit">Open the board editor</button></div>
          <label for="analyse-paste">Paste a Hostage FEN or a PGN</label>
          <textarea id="analyse-paste" rows="4" spellcheck="false" placeholder="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"></textarea>
          <div class="buttons"><button type="button" class="primary" data-act="load">Load</button></div>
          <p class="error paste-error" role="alert" hidden></p>
        </section>
      </aside>
    </div>`;
  const $ = (s) => root.querySelector(s);
  let game = new Game();
  let worker = null;
  let searchToken = 0;

  const table = new Table({ onMove: (m) => { game.pushHere(m); render(); } });
  const moves = new MoveList({ onSelect: (ply) => { game.seek(ply); render(); }, pgnTags: () => ({ Event: 'Analysis' }) });
  $('.table-slot').append(table.el);
  root.querySelector('.side > .card').append(moves.el);

  const editor = new Editor({
    onDone: (fen) => { game = new Game(fen); closeEditor(); render(); },
    onCancel: () => closeEditor(),
  });
  editor.el.hidden = true;
  root.append(editor.el);
  function openEditor() {
    editor.open(game.shown().fen());
    $('.analysis').hidden = true;
    editor.el.hidden = false;
    root.dataset.editing = 'true';
    editor.el.querySelector('.palette .tool').focus();
  }
  function closeEditor() {
    editor.el.hidden = true;
    $('.analysis').hidden = false;
    delete root.dataset.editing;
    $('[data-act="edit"]').focus();
  }

  function load(text) {
    const err = $('.paste-error');
    text = text.trim();
    if (!text) return;
    // A FEN is one line of six fields; anything else is read as PGN. Each
    // parser is the package's, and its message is what the user sees.
    const looksFen = !text.includes('\n') && !/^\s*\[\w+\s+"/.test(text) && !/\d+\.\s*\S/.test(text);
    try {
      const next = looksFen ? new Game(text) : Game.fromPgn(text);
      game = next;
      err.hidden = true;
      err.textContent = '';
      render();
    } catch (e) {
      err.hidden = false;
      err.textContent = `Could not read this ${looksFen ? 'FEN' : 'PGN'}: ${errorText(e)}`;
    }
  }

  root.addEventListener('click', (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    if (act === 'flip') { table.setFlipped(!table.flipped); render(); }
    if (act === 'reset') { game = new Game(); render(); }
    if (act === 'back' && game.ply > 0) { game.pop(); render(); }
    if (act === 'load') load($('#analyse-paste').value);
    if (act === 'edit') openEditor();
  });
  $('.engine-on').addEventListener('change', () => analyse());

  async function analyse() {
    const token = ++searchToken;
    const list = $('.engine-lines');
    const info = $('.engine-info');
    if (!$('.engine-on').checked) { list.replaceChildren(); info.textContent = ''; return; }
    const shown = game.shown();
    if (shown.isGameOver()) { list.replaceChildren(); info.textContent = statusText(shown); return; }
    info.textContent = 'Thinking…';
    worker ??= new EngineWorker();
    const turn = shown.turn();
    try {
      const a = await worker.analyse(shown.startFen(), shown.history(), { nodes: NODES, multipv: 3 });
      if (token !== searchToken) return;
      info.textContent = `Depth ${a.depth}, ${a.nodes.toLocaleString('en')} nodes`;
      list.replaceChildren(...a.lines.map((l) => {
        const li = document.createElement('li');
        li.innerHTML = '<span class="score"></span><span class="pv"></span>';
        li.firstChild.textContent = scoreText(l.score, turn);
        li.lastChild.textContent = l.pvSan.join(' ');
        li.lastChild.title = l.pvSan.join(' ');
        return li;
      }));
    } catch (e) {
      if (token === searchToken) info.textContent = `The engine failed: ${errorText(e)}`;
    }
  }

  function render() {
    const shown = game.shown();
    table.set(shown, { movable: () => true });
    const top = table.flipped ? 'w' : 'b';
    table.playerTop.textContent = top === 'w' ? 'White' : 'Black';
    table.playerBottom.textContent = top === 'w' ? 'Black' : 'White';
    $('.status').textContent = statusText(shown);
    moves.render(game);
    document.body.dataset.fen = shown.fen();
    analyse();
  }

  render();
  return { shown: render };
}
