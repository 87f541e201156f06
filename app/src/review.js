// The engine's game review in Analyse, as lichess's computer analysis shows
// it: the package's EngineWorker.review() judges every move of the main line
// (inaccuracy, mistake, blunder: the package decides, by the winning chances
// a move gave away) and gives each player's accuracy. Shown here: a progress
// bar while it runs, an evaluation graph (inline SVG), the judgements as
// ?!, ? and ?? on the moves of the tree (through `marks`), and a table of
// accuracy and counts per player.

/**
 * Nodes searched per position: fixed, so the same game gives the same
 * review. 50,000 rather than fewer because shallower searches judge sound
 * moves blunders: over eight games between two levels (556 moves), the
 * blunders found at 12,000 nodes a position differed from those found at
 * 1,000,000 on 59 moves, at 50,000 on 46 (app/README.md).
 */
export const REVIEW_NODES = 50_000;

/** The judgement's glyph (the PGN NAGs $6, $2, $4 as lichess writes them). */
export const GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// The graph's vertical scale: the same logistic curve as the evaluation bar
// (analyse.js), so ±4 pawns fill about 90 %.
function whiteShare(score, mover) {
  if (score.mate === 0) return mover === 'white' ? 1 : 0; // checkmate on the board: the mover won
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.cp / 180));
}

function scoreText(score) {
  if (score.mate === 0) return 'checkmate';
  if (score.mate !== undefined) return `mate in ${Math.abs(score.mate)} for ${score.mate > 0 ? 'White' : 'Black'}`;
  return `${score.cp > 0 ? '+' : ''}${(score.cp / 100).toFixed(2)}`;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class ReviewCard {
  /** onSelect(index): go to the main line's move `index` (0-based) of the reviewed game. */
  constructor({ onSelect }) {
    this.onSelect = onSelect;
    this.token = 0;
    this.marks = new Map(); // tree node -> judgement
    this.nodes = [];
    this.el = document.createElement('section');
    this.el.className = 'card review';
    this.el.setAttribute('aria-labelledby', 'review-title');
    this.el.innerHTML = `
      <h2 id="review-title">Game review</h2>
      <p class="review-intro">The engine judges every move of the main line and
        marks the inaccuracies (?!), mistakes (?) and blunders (??).</p>
      <div class="buttons"><button type="button" class="review-run">Review the game</button></div>
      <progress class="review-progress" aria-label="Game review progress" max="1" value="0" hidden></progress>
      <p class="review-info" role="status"></p>
      <div class="review-graph"></div>
      <table class="review-players" hidden>
        <caption>Accuracy</caption>
        <thead><tr><th scope="col">Player</th><th scope="col">Accuracy</th><th scope="col"><abbr title="Inaccuracies">?!</abbr></th><th scope="col"><abbr title="Mistakes">?</abbr></th><th scope="col"><abbr title="Blunders">??</abbr></th></tr></thead>
        <tbody></tbody>
      </table>`;
    this.graph = this.el.querySelector('.review-graph');
    this.graph.addEventListener('click', (ev) => {
      const i = ev.target.closest('[data-index]')?.dataset.index;
      if (i !== undefined) this.onSelect(Number(i));
    });
  }

  /** Forgets the review (the game changed). */
  clear() {
    this.token++;
    // A review still running is abandoned with its worker.
    this.worker?.terminate();
    this.worker = null;
    this.marks = new Map();
    this.nodes = [];
    this.el.querySelector('.review-progress').hidden = true;
    this.el.querySelector('.review-info').textContent = '';
    this.graph.replaceChildren();
    this.el.querySelector('.review-players').hidden = true;
    this.el.querySelector('.review-run').disabled = false;
    delete this.el.dataset.done;
  }

  /**
   * Reviews a game with a fresh worker: `board` (a package Board: its start
   * FEN and moves) whose moves are the tree's `nodes`. Resolves when done
   * (or replaced by another review); its marks are then set on `nodes`.
   */
  async run(newEngineWorker, board, nodes) {
    this.clear();
    const token = this.token;
    const progress = this.el.querySelector('.review-progress');
    const info = this.el.querySelector('.review-info');
    const button = this.el.querySelector('.review-run');
    const total = nodes.length + 1;
    if (!nodes.length) { info.textContent = 'There is no move to review.'; return; }
    button.disabled = true;
    progress.hidden = false;
    progress.max = total;
    progress.value = 0;
    info.textContent = `Reviewing the game: 0 of ${total} positions…`;
    // Its own worker: the continuous analysis keeps running meanwhile, and the
    // review starts from an engine that has learnt nothing (reproducible).
    // (A new worker costs no download: the engine's module is compiled once, pkg.js.)
    const worker = newEngineWorker();
    this.worker = worker;
    let review;
    try {
      review = await worker.review(board.startFen(), board.history(), {
        nodes: REVIEW_NODES,
        onProgress: (done, all) => {
          if (token !== this.token) return;
          progress.max = all;
          progress.value = done;
          info.textContent = `Reviewing the game: ${done} of ${all} positions…`;
        },
      });
    } catch {
      if (token === this.token) {
        info.textContent = 'The review stopped before the end. Press “Review the game” to try again.';
        progress.hidden = true;
        button.disabled = false;
      }
      return;
    } finally {
      if (this.worker === worker) this.worker = null;
      worker.terminate();
    }
    if (token !== this.token) return;
    progress.hidden = true;
    button.disabled = false;
    this.nodes = nodes;
    review.moves.forEach((m, i) => { if (m.judgement && nodes[i]) this.marks.set(nodes[i], m.judgement); });
    this.drawGraph(review);
    this.drawPlayers(review);
    info.textContent = `Reviewed: ${plural(review.moves.length, 'move')} at ${REVIEW_NODES.toLocaleString('en')} nodes a position.`;
    this.el.dataset.done = 'true';
  }

  drawGraph(review) {
    const w = 300;
    const h = 80;
    const n = review.moves.length;
    const x = (i) => (n <= 1 ? w / 2 : (i / n) * w);
    const y = (share) => h - share * h;
    // The first point is the start position (the first move's `before`).
    const first = review.moves[0];
    const pts = [[x(0), y(whiteShare(first.before, first.color === 'white' ? 'black' : 'white'))]];
    review.moves.forEach((m, i) => pts.push([x(i + 1), y(whiteShare(m.after, m.color))]));
    const line = pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ');
    const area = `0,${h} ${line} ${pts.at(-1)[0].toFixed(1)},${h}`;
    const dots = review.moves.map((m, i) => {
      if (!m.judgement) return '';
      const [cx, cy] = pts[i + 1];
      return `<circle class="${m.judgement}" data-index="${i}" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="3.5"><title>${m.san}${GLYPH[m.judgement]} (${m.judgement})</title></circle>`;
    }).join('');
    const last = review.moves.at(-1);
    const label = `Evaluation graph: ${plural(n, 'move')}, ending at ${scoreText(last.after)} for White`;
    this.graph.innerHTML = `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" aria-label="${label}">
      <rect class="black-side" x="0" y="0" width="${w}" height="${h}"/>
      <polygon class="white-side" points="${area}"/>
      <line class="mid" x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}"/>
      <polyline class="eval" points="${line}" vector-effect="non-scaling-stroke"/>
      ${dots}
    </svg>`;
  }

  drawPlayers(review) {
    const table = this.el.querySelector('.review-players');
    const row = (name, p) => `<tr><th scope="row">${name}</th><td>${p.accuracy === null ? '–' : `${Math.round(p.accuracy)}%`}</td><td>${p.inaccuracies}</td><td>${p.mistakes}</td><td>${p.blunders}</td></tr>`;
    table.tBodies[0].innerHTML = row('White', review.white) + row('Black', review.black);
    table.hidden = false;
  }
}
