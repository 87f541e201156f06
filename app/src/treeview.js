// The move tree drawn as lichess draws it: the main line with move numbers,
// each variation in brackets after the move it replaces, every move a
// button (click or Enter to go there). The move keys anywhere on the page
// while it is shown (keys.js): ← and → step back and forward, Home and End
// go to the start and to the end of the line.
import { stepWith } from './keys.js';
import { GLYPH } from './review.js';
import { scrollWithin } from './scroll.js';

export class TreeView {
  /** onSelect(node): go to that node. */
  constructor({ onSelect }) {
    this.onSelect = onSelect;
    this.el = document.createElement('div');
    this.el.className = 'tree';
    this.el.setAttribute('role', 'group');
    this.el.setAttribute('aria-label', 'Moves and variations');
    this.el.tabIndex = 0;
    this.el.addEventListener('click', (ev) => {
      const id = ev.target.closest('[data-node]')?.dataset.node;
      if (id !== undefined) this.onSelect(this.tree.nodes.get(Number(id)));
    });
    stepWith(this.el, (nav) => {
      const t = this.tree;
      if (!t) return;
      const n = { first: () => t.root, prev: () => t.current.parent, next: () => t.current.children[0], last: () => t.lineEnd() }[nav]();
      if (n) this.onSelect(n);
    });
  }

  /**
   * Draws `tree`; `marks` (node -> 'inaccuracy' | 'mistake' | 'blunder', from
   * the game review) adds ?!, ? or ?? to those moves, and the word to their names.
   */
  render(tree, marks = new Map()) {
    this.tree = tree;
    const out = document.createDocumentFragment();
    const move = (node, withNumber) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mv';
      b.dataset.node = String(node.id);
      const num = withNumber || tree.isWhiteMove(node) ? `${tree.number(node)} ` : '';
      b.textContent = `${num}${node.san}`;
      const judged = marks.get(node);
      if (judged) {
        const g = document.createElement('span');
        g.className = 'glyph';
        g.textContent = GLYPH[judged];
        g.setAttribute('aria-hidden', 'true');
        b.append(g);
        b.classList.add(judged);
        b.setAttribute('aria-label', `${num}${node.san}, ${judged}`);
        b.title = judged[0].toUpperCase() + judged.slice(1);
      }
      if (node === tree.current) b.setAttribute('aria-current', 'step');
      return b;
    };
    // One line from `node`'s children on; variations nest inside brackets.
    const line = (parent, container, forceNumber) => {
      let n = parent;
      let numberNext = forceNumber;
      while (n.children.length) {
        const [main, ...alts] = n.children;
        container.append(move(main, numberNext), ' ');
        numberNext = false;
        for (const alt of alts) {
          const v = document.createElement('span');
          v.className = 'variation';
          v.append('(');
          v.append(move(alt, true), ' ');
          line(alt, v, false);
          v.lastChild.remove(); // the space after the variation's last move
          v.append(')');
          container.append(v, ' ');
          numberNext = true; // the main line resumes: number its next move
        }
        n = main;
      }
    };
    line(tree.root, out, true);
    this.el.replaceChildren(out);
    if (!tree.root.children.length) this.el.innerHTML = '<p class="none">No moves yet: play one on the board.</p>';
    scrollWithin(this.el, this.el.querySelector('[aria-current]'));
  }
}
