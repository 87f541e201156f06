// One reserve beside the board: a prison (enemy men its owner captured) or an
// airfield (its owner's men given back). Draws the men with their counts and
// reports taps and drags; the table decides what they mean.
import { draggable, onTap } from './drag.js';
import { COLOR_NAME, ROLES, other, pieceImg, pieceUrl } from './pieces.js';

export class ReserveView {
  /** kind 'prison' | 'airfield'; owner 'w' | 'b'; handlers { tap, dragStart, dragDrop }. */
  constructor(kind, owner, handlers) {
    this.kind = kind;
    this.owner = owner;
    this.handlers = handlers;
    // A prison holds the other colour's men; an airfield its owner's.
    this.menColor = kind === 'prison' ? other(owner) : owner;
    this.el = document.createElement('section');
    this.el.className = `reserve ${kind}`;
    this.el.dataset.kind = kind;
    this.el.dataset.owner = owner;
    const what = kind === 'prison'
      ? `${COLOR_NAME[owner]}'s prison: ${COLOR_NAME[this.menColor].toLowerCase()} men it has taken`
      : `${COLOR_NAME[owner]}'s airfield: ${COLOR_NAME[owner].toLowerCase()} men to drop`;
    this.el.setAttribute('aria-label', what);
    this.el.title = what;
    const h = document.createElement('h3');
    h.textContent = `${COLOR_NAME[owner]}'s ${kind}`;
    this.men = document.createElement('div');
    this.men.className = 'men';
    this.el.append(h, this.men);
  }

  /** counts: { queen, rook, ... }; marks: { selected: role, active: Set(role), targets: Set(role) }. */
  render(counts, marks = {}) {
    this.men.replaceChildren();
    let any = false;
    for (const role of ROLES) {
      const n = counts[role] ?? 0;
      if (!n) continue;
      any = true;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'man';
      b.dataset.role = role;
      b.dataset.color = this.menColor;
      b.dataset.dropTarget = `${this.kind}-${this.owner}`;
      b.append(pieceImg(this.menColor, role));
      if (n > 1) b.insertAdjacentHTML('beforeend', `<span class="count" aria-hidden="true">${n}</span>`);
      const selected = marks.selected === role;
      b.classList.toggle('selected', selected);
      b.classList.toggle('active', Boolean(marks.active?.has(role)));
      b.classList.toggle('target', Boolean(marks.targets?.has(role)));
      b.setAttribute('aria-pressed', String(selected));
      b.setAttribute('aria-label', `${COLOR_NAME[this.menColor]} ${role}${n > 1 ? ` (${n})` : ''} in ${COLOR_NAME[this.owner]}'s ${this.kind}`);
      onTap(b, () => this.handlers.tap(this, role));
      draggable(b, {
        start: () => (this.handlers.dragStart(this, role) ? pieceUrl(this.menColor, role) : null),
        over: () => {},
        drop: (target) => this.handlers.dragDrop(this, role, target),
      });
      this.men.append(b);
    }
    if (!any) this.men.insertAdjacentHTML('beforeend', '<span class="empty">empty</span>');
  }
}
