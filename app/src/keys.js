// The move keys anywhere on the page, as on lichess: ← and → step back and
// forward through the moves, Home and End go to the start and to the end.
// One listener on the document serves every move list and move tree that
// registers here (Play, Puzzles, Analyse); the one on screen takes the key.
// A key is left alone while the player types (an input, a textarea, a select
// or an editable element has the focus), when a modifier is held (Alt+←
// is the browser's Back), in a dialog, and when a widget has used it
// already (the board's arrow keys move between squares and call
// preventDefault; Home and End pass through it), so each press steps once.

const NAV = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' };
const steppers = [];

/**
 * Registers a move list or tree: `el` is its element (it takes the keys
 * while it is on screen), `step(nav)` goes to 'first', 'prev', 'next' or 'last'.
 */
export function stepWith(el, step) {
  steppers.push({ el, step });
  if (steppers.length === 1) document.addEventListener('keydown', onKey);
}

/** Whether the key press belongs to something else than the move keys. */
function taken(ev) {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.isComposing) return true;
  const t = ev.target instanceof Element ? ev.target : null;
  if (!t) return false;
  if (t.isContentEditable || t.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])')) return true;
  return Boolean(t.closest('dialog, [role="dialog"], [role="slider"], [role="listbox"], [role="menu"]'));
}

/** The registered list on screen now (a hidden mode's has no layout boxes). */
function shownStepper() {
  return steppers.find(({ el }) => el.isConnected && el.getClientRects().length > 0);
}

function onKey(ev) {
  const nav = NAV[ev.key];
  if (!nav || taken(ev)) return;
  const s = shownStepper();
  if (!s) return;
  ev.preventDefault();
  s.step(nav);
}
