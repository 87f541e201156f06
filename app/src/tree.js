// The move tree of Analyse (as lichess keeps one): every position reached
// is a node; a node's first child is its main continuation and the others
// are variations. Playing a move where one already exists follows it; a new
// move starts a variation. Positions come from the package: a node's Board
// is its start FEN with the long-form moves of its path replayed.
import { Board } from './pkg.js';

export class MoveTree {
  /** A tree at `startFen` (the start position when omitted) with `moves` (long form) as its main line. */
  constructor(startFen = null, moves = []) {
    const start = startFen ? new Board(startFen) : new Board();
    this.startFen = start.fen();
    this.startTurn = start.turn();
    this.startFull = start.fullmoveNumber();
    start.free();
    this.nextId = 1;
    this.root = { id: 0, parent: null, children: [], ply: 0, uci: null, san: null };
    this.nodes = new Map([[0, this.root]]);
    this.current = this.root;
    this.cache = null; // { id, board }
    for (const m of moves) this.play(m);
    this.current = this.root;
  }

  /** A tree from a package Board's game: its start FEN and its moves. */
  static fromBoard(board) {
    return new MoveTree(board.startFen(), board.historyMoves().map((m) => m.uci));
  }

  /** The nodes from the first move to `node`. */
  path(node = this.current) {
    const out = [];
    for (let n = node; n.parent; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The package Board at `node` (a cached one for the current node: do not change it). */
  board(node = this.current) {
    if (this.cache?.id === node.id) return this.cache.board;
    const b = new Board(this.startFen);
    for (const n of this.path(node)) b.push(n.uci);
    if (node === this.current) {
      this.cache?.board.free();
      this.cache = { id: node.id, board: b };
    }
    return b;
  }

  /** Plays a move (object or text) at the current node: follows an existing child or adds one. */
  play(move) {
    const b = this.board(this.current).clone();
    const m = b.push(move);
    b.free();
    let child = this.current.children.find((c) => c.uci === m.uci);
    if (!child) {
      child = { id: this.nextId++, parent: this.current, children: [], ply: this.current.ply + 1, uci: m.uci, san: m.san, move: m };
      this.nodes.set(child.id, child);
      this.current.children.push(child);
    }
    this.current = child;
    return m;
  }

  goTo(node) { this.current = node; }

  /** The end of the line through the current node (following main children). */
  lineEnd(node = this.current) {
    let n = node;
    while (n.children.length) [n] = n.children;
    return n;
  }

  /** Deletes `node` and everything after it; the current node moves up if it was inside. */
  delete(node = this.current) {
    if (!node.parent) return;
    const p = node.parent;
    p.children = p.children.filter((c) => c !== node);
    for (let n = this.current; n; n = n.parent) {
      if (n === node) { this.current = p; break; }
    }
  }

  /** Whether `node` lies on a variation (some node of its path is not a first child). */
  inVariation(node = this.current) {
    return this.path(node).some((n) => n.parent.children[0] !== n);
  }

  /** Promotes the variation holding `node` one level: its branch becomes the main continuation where it branched. */
  promote(node = this.current) {
    let n = node;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    if (!n.parent) return false;
    const sibs = n.parent.children;
    sibs.splice(sibs.indexOf(n), 1);
    sibs.unshift(n);
    return true;
  }

  /** The main line's long-form moves. */
  mainline() {
    const out = [];
    for (let n = this.root; n.children.length; [n] = n.children) out.push(n.children[0].uci);
    return out;
  }

  /** The move number label for a node: "3." for White's move, "3..." for Black's. */
  number(node) {
    const k = node.ply - 1 + (this.startTurn === 'b' ? 1 : 0);
    const n = this.startFull + Math.floor(k / 2);
    return k % 2 === 0 ? `${n}.` : `${n}...`;
  }

  isWhiteMove(node) {
    return (node.ply - 1 + (this.startTurn === 'b' ? 1 : 0)) % 2 === 0;
  }

  /**
   * The tree's moves as PGN movetext: the main line with every variation in
   * brackets (the SAN the package gave for each move), ending in `result`.
   */
  movetext(result = '*') {
    const out = [];
    const line = (parent, numberFirst) => {
      let n = parent;
      let num = numberFirst;
      while (n.children.length) {
        const [main, ...alts] = n.children;
        out.push(num || this.isWhiteMove(main) ? `${this.number(main)} ${main.san}` : main.san);
        num = false;
        for (const alt of alts) {
          out.push('(');
          out.push(`${this.number(alt)} ${alt.san}`);
          line(alt, false);
          out.push(')');
          num = true;
        }
        n = main;
      }
    };
    line(this.root, true);
    out.push(result);
    // Brackets hug their moves: "(2. Bc4 Nf6)".
    return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  }
}
