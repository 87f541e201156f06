// Analyse: a move tree with variations (tree.js) on the shared table; paste
// a FEN or a PGN (the package parses it, and its refusal is shown in words),
// or set a position up in the board editor (editor.js), which the package
// validates. The engine (the package's EngineWorker) analyses the shown
// position continuously, one depth deeper each time, until it is switched
// off or the position changes: MultiPV lines that can be clicked into the
// tree, an evaluation bar and the best move as an arrow. "Review the game"
// (and "Analyse this game" from Play) runs the engine's game review
// (review.js). The engine entry and its network weights are loaded the
// first time either is used: both evaluate with the network, as the native
// engine does (pkg.js, loadFullEngine).
import { announce, moveWords } from './announce.js';
import { Editor } from './editor.js';

import { ANALYSE_IMPORT_KEY, statusText } from './game.js';
import { Board, loadFullEngine } from './pkg.js';
import { ReviewCard } from './review.js';
import { play as playSound, soundFor } from './sound.js';
import { Table } from './table.js';
import { MoveTree } from './tree.js';
import { TreeView } from './treeview.js';
import { pgnError, positionError, resultToken } from './words.js';

const MAX_DEPTH = 30;

/** The score from White's side: { text, white (0..1 share for the bar) }. */
export function whiteScore(score, turn) {
  const sign = turn === 'w' ? 1 : -1;
  if (score.mate !== undefined) {
    const m = score.mate * sign;
    if (score.mate === 0) return { text: '#', white: turn === 'w' ? 0 : 1 };
    return { text: `#${m > 0 ? '' : '-'}${Math.abs(m)}`, white: m > 0 ? 1 : 0 };
  }
  const cp = score.cp * sign;
  // The bar's share: a logistic curve, so ±4 pawns fill about 90 %.
  return { text: `${cp > 0 ? '+' : ''}${(cp / 100).toFixed(2)}`, white: 1 / (1 + Math.exp(-cp / 180)) };
}

export function mount(root) {
  root.innerHTML = `
    <h1 class="visually-hidden">Analyse</h1>
    <div class="layout analysis">
      <div class="table-slot with-bar">
        <div class="eval-bar" role="meter" aria-label="Evaluation" aria-valuemin="0" aria-valuemax="100" hidden><span></span></div>
      </div>
      <aside class="side">
        <section class="card">
          <p class="status" role="status"></p>
          <div class="tree-slot"></div>
          <div class="nav buttons" role="toolbar" aria-label="Move navigation">
            <button type="button" data-act="first" aria-label="First position">⇤</button>
            <button type="button" data-act="prev" aria-label="Previous move">◀</button>
            <button type="button" data-act="next" aria-label="Next move">▶</button>
            <button type="button" data-act="last" aria-label="End of the line">⇥</button>
          </div>
          <div class="actions">
            <button type="button" data-act="flip">Flip board</button>
            <button type="button" data-act="promote">Promote variation</button>
            <button type="button" data-act="delete">Delete from here</button>
            <button type="button" data-act="reset">Start position</button>
          </div>
          <details class="export">
            <summary>Export FEN / PGN</summary>
            <label>FEN of the shown position <input class="fen" readonly spellcheck="false"></label>
            <label>PGN with the variations <textarea class="pgn" rows="5" readonly spellcheck="false"></textarea></label>
          </details>
        </section>
        <section class="card engine" aria-label="Engine">
          <h2><label class="check"><input type="checkbox" class="engine-on"> Engine analysis</label></h2>
          <label class="multipv">Lines <select class="multipv-select">${[1, 2, 3, 4, 5].map((n) => `<option value="${n}"${n === 3 ? ' selected' : ''}>${n}</option>`).join('')}</select></label>
          <p class="engine-info" role="status"></p>
          <p class="engine-eval" hidden></p>
          <ol class="engine-lines" aria-label="Best continuations"></ol>
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
  let tree = new MoveTree();
  let worker = null;
  let busy = false; // a request of the analysis is in the worker
  let searchToken = 0;
  let searchKey = null; // what the running (or finished) search analyses

  const table = new Table({
    onMove: (m) => {
      tree.play(m);
      const b = tree.board();
      playSound(soundFor(m, b));
      announce(moveWords(m));
      render();
    },
  });
  const treeView = new TreeView({ onSelect: (n) => { tree.goTo(n); render(); } });
  $('.table-slot').append(table.el);
  $('.tree-slot').append(treeView.el);
  const review = new ReviewCard({
    onSelect: (i) => {
      const n = review.nodes[i];
      if (n && tree.nodes.get(n.id) === n) { tree.goTo(n); render(); }
    },
  });
  $('.side > .card').after(review.el);
  review.el.querySelector('.review-run').addEventListener('click', () => runReview());

  /**
   * Says which evaluation the engine uses, quietly under its lines: the
   * network, or by hand when its weights could not be fetched (the search
   * goes on either way; the next search tries the weights again).
   */
  function showEvaluation(network) {
    root.dataset.engineNetwork = network ? 'on' : 'off';
    const p = $('.engine-eval');
    p.hidden = false;
    p.textContent = network
      ? 'Evaluation: the neural network'
      : 'Evaluation: by hand (the neural network could not be loaded)';
  }

  /** Reviews the main line of the tree (the game), and marks its moves. */
  async function runReview() {
    let newEngineWorker, network;
    try {
      ({ newEngineWorker, network } = await loadFullEngine());
      showEvaluation(network);
    } catch {
      review.el.querySelector('.review-info').textContent = 'The engine could not be loaded. Check your connection and try again.';
      return;
    }
    const t = tree;
    const nodes = [];
    for (let n = t.root; n.children.length; [n] = n.children) nodes.push(n.children[0]);
    const b = new Board(t.startFen);
    for (const n of nodes) b.push(n.uci);
    const done = review.run(newEngineWorker, b, nodes); // reads the board at once
    b.free();
    await done;
    if (tree === t) treeView.render(tree, review.marks);
  }
  /** A new tree (another game or position): its review, if any, is gone. */
  function setTree(t) {
    tree = t;
    review.clear();
  }

  const editor = new Editor({
    onDone: (fen) => { setTree(new MoveTree(fen)); closeEditor(); render(); },
    onCancel: () => closeEditor(),
  });
  editor.el.hidden = true;
  root.append(editor.el);
  function openEditor() {
    editor.open(tree.board().fen());
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
    // parser is the package's; its refusal is said in words.
    const looksFen = !text.includes('\n') && !/^\s*\[\w+\s+"/.test(text) && !/\d+\.\s*\S/.test(text);
    try {
      if (looksFen) {
        setTree(new MoveTree(text));
      } else {
        const b = Board.fromPgn(text);
        setTree(MoveTree.fromBoard(b));
        b.free();
        tree.goTo(tree.lineEnd());
      }
      err.hidden = true;
      err.textContent = '';
      render();
    } catch (e) {
      err.hidden = false;
      err.textContent = looksFen ? positionError(e, 'This FEN') : pgnError(e);
    }
  }

  root.addEventListener('click', (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    const go = (n) => { if (n) { tree.goTo(n); render(); } };
    if (act === 'flip') { table.setFlipped(!table.flipped); render(); }
    if (act === 'reset') { setTree(new MoveTree()); render(); }
    if (act === 'first') go(tree.root);
    if (act === 'prev') go(tree.current.parent);
    if (act === 'next') go(tree.current.children[0]);
    if (act === 'last') go(tree.lineEnd());
    if (act === 'delete') { tree.delete(); render(); }
    if (act === 'promote') { tree.promote(); render(); }
    if (act === 'load') load($('#analyse-paste').value);
    if (act === 'edit') openEditor();
  });
  $('.engine-on').addEventListener('change', () => analyse());
  $('.multipv-select').addEventListener('change', () => analyse());
  $('.engine-lines').addEventListener('click', (ev) => {
    const b = ev.target.closest('[data-line]');
    if (!b) return;
    // Plays the line up to the clicked move into the tree (as a variation where it differs).
    // Lines belong to the position they were found in; a stale one is ignored.
    const line = lines[Number(b.dataset.line)];
    if (!line || linesNode !== tree.current) return;
    try {
      for (const uci of line.pv.slice(0, Number(b.dataset.upto) + 1)) tree.play(uci);
    } catch {
      // The package refused a move of the line: what was played stays.
    }
    render();
  });

  let lines = [];
  let linesNode = null; // the tree node the shown lines were found for

  /** Forgets what the engine showed: lines, the best-move mark, the bar. */
  function clearAnalysis() {
    lines = [];
    linesNode = null;
    $('.engine-lines').replaceChildren();
    table.view.setAutoShapes([]);
    $('.eval-bar').hidden = true;
    delete root.dataset.engineDepth;
    delete root.dataset.engineDone;
  }

  /**
   * Stops the search at once: a request still in the worker is abandoned
   * with the worker itself (the package's EngineWorker answers in order and
   * cannot be interrupted), and a fresh worker is started on the next
   * search (cheap: the engine's module is compiled once, pkg.js).
   */
  function stopEngine() {
    searchToken++;
    searchKey = null;
    if (worker && busy) {
      worker.terminate();
      worker = null;
    }
    busy = false;
  }

  /** Deepens the analysis of the shown position one depth at a time until stopped. */
  async function analyse() {
    const info = $('.engine-info');
    const on = $('.engine-on').checked;
    const shown = tree.board();
    const fen = shown.startFen();
    const history = shown.history();
    const multipv = Number($('.multipv-select').value);
    const key = JSON.stringify([fen, history, multipv]);
    // The same position drawn again (a flip, a review's marks): the search goes on.
    if (on && key === searchKey) return;
    stopEngine();
    clearAnalysis();
    if (!on) { info.textContent = ''; return; }
    const token = searchToken;
    searchKey = key;
    if (shown.isGameOver()) { showOutcome(shown); return; }
    info.textContent = 'Thinking…';
    const node = tree.current;
    if (!worker) {
      let newEngineWorker, network;
      try {
        ({ newEngineWorker, network } = await loadFullEngine());
        showEvaluation(network);
      } catch {
        if (token === searchToken) { info.textContent = 'The engine could not be loaded. Check your connection and switch it on again.'; searchKey = null; }
        return;
      }
      if (token !== searchToken) return;
      worker ??= newEngineWorker();
    }
    const turn = shown.turn();
    const full = shown.fullmoveNumber();
    for (let depth = 1; depth <= MAX_DEPTH; depth++) {
      let a;
      busy = true;
      try {
        a = await worker.analyse(fen, history, { depth, multipv });
      } catch (e) {
        if (token === searchToken) {
          busy = false;
          searchKey = null;
          worker?.terminate();
          worker = null;
          if (e?.name !== 'AbortError') info.textContent = 'The engine stopped on this position. Switch it off and on to try again.';
        }
        return;
      }
      if (token !== searchToken) return;
      busy = false;
      showAnalysis(a, turn, full, node);
      if (a.score.mate !== undefined && Math.abs(a.score.mate) < depth) break;
      // Give the page a moment between depths (clicks, typing).
      await new Promise((ok) => setTimeout(ok, 30));
      if (token !== searchToken) return;
    }
    if (token === searchToken) root.dataset.engineDone = 'true';
  }

  /** The bar on a finished position: the result, no search. */
  function showOutcome(shown) {
    const o = shown.outcome();
    $('.engine-info').textContent = statusText(shown);
    setBar(o.winner === 'w' ? 1 : o.winner === 'b' ? 0 : 0.5, resultToken(o));
    root.dataset.engineDone = 'true';
  }

  function setBar(white, text) {
    const bar = $('.eval-bar');
    bar.hidden = false;
    // Level with the board, wherever the layout put it (beside or under the reserves).
    bar.style.top = `${table.wrap.offsetTop}px`;
    bar.firstElementChild.style.height = `${(white * 100).toFixed(1)}%`;
    bar.setAttribute('aria-valuenow', String(Math.round(white * 100)));
    bar.setAttribute('aria-valuetext', text);
    bar.title = text;
  }

  function showAnalysis(a, turn, full, node) {
    const list = $('.engine-lines');
    lines = a.lines;
    linesNode = node;
    const m = a.bestMove;
    const best = m ? ` · best ${m.san}` : '';
    $('.engine-info').textContent = `Depth ${a.depth} · ${a.nodes.toLocaleString('en')} nodes${best} · deepening until switched off`;
    root.dataset.engineDepth = String(a.depth);
    list.replaceChildren(...a.lines.map((l, i) => {
      const li = document.createElement('li');
      const s = whiteScore(l.score, turn);
      li.innerHTML = '<span class="score"></span><span class="pv"></span>';
      li.firstChild.textContent = s.text;
      const pv = li.lastChild;
      l.pvSan.forEach((san, k) => {
        const white = (turn === 'w') === (k % 2 === 0);
        const n = full + Math.floor((k + (turn === 'b' ? 1 : 0)) / 2);
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'pv-move';
        b.dataset.line = String(i);
        b.dataset.upto = String(k);
        b.textContent = `${white ? `${n}. ` : k === 0 ? `${n}... ` : ''}${san}`;
        pv.append(b);
      });
      return li;
    }));
    const score = whiteScore(a.score, turn);
    setBar(score.white, score.text);
    // The best move: an arrow for a move on the board, a ring on the target
    // square for a drop or an exchange (their man comes from a reserve).
    table.view.setAutoShapes(!m ? [] : m.from ? [{ from: m.from, to: m.to }] : [{ at: m.to, kind: m.kind }]);
  }

  function render() {
    const shown = tree.board();
    table.set(shown, { movable: () => true });
    const top = table.flipped ? 'w' : 'b';
    table.playerTop.textContent = top === 'w' ? 'White' : 'Black';
    table.playerBottom.textContent = top === 'w' ? 'Black' : 'White';
    const where = tree.current.parent ? `After ${tree.number(tree.current)} ${tree.current.san}${tree.inVariation() ? ' (variation)' : ''} · ` : '';
    $('.status').textContent = `${where}${statusText(shown)}`;
    treeView.render(tree, review.marks);
    $('[data-act="promote"]').disabled = !tree.inVariation();
    $('[data-act="delete"]').disabled = !tree.current.parent;
    $('[data-act="prev"]').disabled = $('[data-act="first"]').disabled = !tree.current.parent;
    $('[data-act="next"]').disabled = $('[data-act="last"]').disabled = !tree.current.children.length;
    $('.fen').value = shown.fen();
    const main = new Board(tree.startFen);
    for (const u of tree.mainline()) main.push(u);
    // The package writes the tags (and the main line's result); the movetext
    // with the variations comes from the tree.
    const pgn = main.pgn({ Event: 'Analysis' });
    const result = pgn.match(/\[Result "([^"]*)"\]/)?.[1] ?? '*';
    $('.pgn').value = `${pgn.split(/\n\n/)[0]}\n\n${tree.movetext(result)}\n`;
    main.free();
    document.body.dataset.fen = shown.fen();
    analyse();
  }

  function importFromPlay() {
    const pgn = sessionStorage.getItem(ANALYSE_IMPORT_KEY);
    if (!pgn) return;
    sessionStorage.removeItem(ANALYSE_IMPORT_KEY);
    load(pgn);
    $('#analyse-paste').value = '';
    // "Analyse this game": the player asked for the computer's review.
    runReview();
  }

  importFromPlay();
  render();
  return {
    shown: () => { importFromPlay(); render(); },
    // Another mode is shown: the engine stops (it starts again on return).
    hidden: () => { stopEngine(); },
  };
}
