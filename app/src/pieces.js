// Piece images. The drawings are the package's own (board.svg() draws each
// man as a <g class="piece white knight">); we take them out of one rendered
// diagram so the app and the course diagrams show the same men.
import { Board } from './pkg.js';

export const ROLES = ['queen', 'rook', 'bishop', 'knight', 'pawn'];
export const ROLE_LETTER = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };
export const COLOR_NAME = { w: 'White', b: 'Black' };
export const other = (c) => (c === 'w' ? 'b' : 'w');

const URLS = new Map();

function extract() {
  // Every man once on the board, reserves off: 12 <g class="piece ..."> groups.
  const svg = new Board('kqrbn3/p7/8/8/8/8/P7/KQRBN3[] w - - 0 1').svg({ reserves: false, coordinates: false, check: false });
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  for (const g of doc.querySelectorAll('g.piece')) {
    const color = g.classList.contains('white') ? 'w' : 'b';
    const role = [...g.classList].find((c) => c in ROLE_LETTER);
    g.removeAttribute('transform');
    const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">${new XMLSerializer().serializeToString(g)}</svg>`;
    URLS.set(`${color}${role}`, `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`);
  }
}

/** A data: URL of the drawing of a man (color 'w' | 'b', role 'knight'...). */
export function pieceUrl(color, role) {
  if (URLS.size === 0) extract();
  return URLS.get(`${color}${role}`);
}

/** An <img> of a man, with its name as alt text. */
export function pieceImg(color, role, className = 'piece') {
  const img = document.createElement('img');
  img.className = className;
  img.src = pieceUrl(color, role);
  img.alt = `${COLOR_NAME[color]} ${role}`;
  img.draggable = false;
  return img;
}
