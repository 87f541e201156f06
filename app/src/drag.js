// Pointer gestures shared by the board and the reserves: a tap is a click
// (so keyboards and assistive tech work the same), a press that moves more
// than a few pixels is a drag with a ghost image under the finger or mouse.
// Works for mouse, pen and touch alike (pointer events, touch-action: none).

const THRESHOLD = 6;
let suppressClick = false;

/** The element under a point that accepts drops (a square or a reserve man). */
export function dropTargetAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el?.closest('[data-square], [data-drop-target]') ?? null;
}

/**
 * Makes `el` draggable. `start()` returns the ghost's image URL (or null to
 * refuse the drag); `over(target)` is called as the pointer moves; `drop(target)`
 * when it is released (target null when outside any drop target).
 */
export function draggable(el, { start, over, drop, cancel }) {
  el.addEventListener('pointerdown', (down) => {
    if (down.button !== 0 || !down.isPrimary) return;
    let ghost = null;
    let refused = false;
    const id = down.pointerId;
    const move = (ev) => {
      if (ev.pointerId !== id || refused) return;
      if (!ghost) {
        if (Math.hypot(ev.clientX - down.clientX, ev.clientY - down.clientY) < THRESHOLD) return;
        const url = start();
        if (!url) { refused = true; return; }
        ghost = document.createElement('img');
        ghost.className = 'drag-ghost';
        ghost.src = url;
        ghost.alt = '';
        const size = el.getBoundingClientRect().width;
        ghost.style.width = ghost.style.height = `${Math.max(size, 40) * 1.15}px`;
        document.body.append(ghost);
        el.classList.add('dragging');
      }
      ghost.style.transform = `translate(${ev.clientX}px, ${ev.clientY}px) translate(-50%, -50%)`;
      over?.(dropTargetAt(ev.clientX, ev.clientY));
    };
    const end = (ev) => {
      if (ev.pointerId !== id) return;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      if (!ghost) return;
      ghost.remove();
      el.classList.remove('dragging');
      // The click this pointerup produces (if any) comes before the timer.
      suppressClick = true;
      setTimeout(() => { suppressClick = false; }, 0);
      if (ev.type === 'pointercancel') cancel?.();
      else drop(dropTargetAt(ev.clientX, ev.clientY));
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  });
}

/** Adds a click handler that ignores the click a finished drag produces. */
export function onTap(el, handler) {
  el.addEventListener('click', (ev) => {
    if (suppressClick) return;
    handler(ev);
  });
}
