// Moves and results said to screen readers: one polite live region for the
// whole page (#announce in index.html), so every mode speaks the same way.
let last = '';

/** Says `text` (again, even when it is the same as the previous one). */
export function announce(text) {
  const el = document.getElementById('announce');
  if (!el) return;
  // The same words twice in a row are only read when the text changes.
  el.textContent = text === last ? `${text}\u00a0` : text;
  last = text;
}

const ROLE = { king: 'king', queen: 'queen', rook: 'rook', bishop: 'bishop', knight: 'knight', pawn: 'pawn' };
const NAME = { w: 'White', b: 'Black' };

/** A move object in words: "White: knight f3", "Black: drop pawn on e5", "White: exchange ...". */
export function moveWords(m) {
  const who = NAME[m.color];
  if (m.kind === 'drop') return `${who} drops a ${ROLE[m.role]} on ${m.to} (${m.san})`;
  if (m.kind === 'exchange') return `${who} releases a ${m.released} and rescues a ${m.rescued} onto ${m.to} (${m.san})`;
  if (m.kind === 'castle') return `${who} castles (${m.san})`;
  const takes = m.capture ? ` takes the ${m.capture} on ${m.to}` : ` to ${m.to}`;
  const promo = m.promotion ? `, becomes a ${m.promotion}` : '';
  return `${who}: ${ROLE[m.role]} ${m.from}${takes}${promo} (${m.san})`;
}
