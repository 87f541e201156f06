// Scrolling a box to one of its items without moving the page: the move
// list and the analysis tree keep their current move in view inside their
// own box, while the board, clocks and reserves stay where the player left
// them (element.scrollIntoView would scroll every ancestor, the page too).

/** Scrolls `box` (and nothing else) so that `item`, inside it, is in view. */
export function scrollWithin(box, item) {
  if (!box || !item) return;
  const b = box.getBoundingClientRect();
  const i = item.getBoundingClientRect();
  if (i.top < b.top) box.scrollTop -= b.top - i.top;
  else if (i.bottom > b.bottom) box.scrollTop += i.bottom - b.bottom;
}
