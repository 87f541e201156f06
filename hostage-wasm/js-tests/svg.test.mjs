// board.svg(options): well-formed XML with the FEN in <desc>, options that
// change the drawing, typed errors for bad squares and wrong types, unsafe
// colours replaced without an exception. (The browser test parses it with
// DOMParser and renders it; this checks well-formedness without a DOM.)
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { hostage } from './helpers.mjs';

const { Board, isHostageError } = hostage;
const AFTER_EXD5 = 'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3';

const NAME = '[A-Za-z_][\\w.:-]*';
const ATTR = new RegExp(`^\\s+(${NAME})="([^"<&]|&(amp|lt|gt|quot|apos|#\\d+);)*"`);

/**
 * A minimal well-formedness check: balanced tags, quoted attributes without
 * `<` or a bare `&`, no duplicate attribute, one root element. Returns the
 * elements as [{ name, attrs }] in document order.
 */
export function parseXml(text) {
  const elements = [];
  const stack = [];
  let rest = text.trim();
  let roots = 0;
  while (rest) {
    if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      assert.ok(end > 0, 'unterminated comment');
      rest = rest.slice(end + 3);
    } else if (rest.startsWith('</')) {
      const m = rest.match(new RegExp(`^</(${NAME})\\s*>`));
      assert.ok(m, `bad end tag: ${rest.slice(0, 40)}`);
      assert.equal(stack.pop(), m[1], `mismatched </${m[1]}>`);
      rest = rest.slice(m[0].length);
    } else if (rest.startsWith('<')) {
      const m = rest.match(new RegExp(`^<(${NAME})`));
      assert.ok(m, `bad start tag: ${rest.slice(0, 40)}`);
      if (stack.length === 0) roots++;
      rest = rest.slice(m[0].length);
      const attrs = {};
      for (let a = rest.match(ATTR); a; a = rest.match(ATTR)) {
        assert.ok(!(a[1] in attrs), `duplicate attribute ${a[1]}`);
        attrs[a[1]] = a[0].slice(a[0].indexOf('"') + 1, -1);
        rest = rest.slice(a[0].length);
      }
      elements.push({ name: m[1], attrs });
      const close = rest.match(/^\s*(\/?)>/);
      assert.ok(close, `bad tag <${m[1]}: ${rest.slice(0, 40)}`);
      if (!close[1]) stack.push(m[1]);
      rest = rest.slice(close[0].length);
    } else {
      const end = rest.indexOf('<');
      const chars = end < 0 ? rest : rest.slice(0, end);
      assert.ok(stack.length > 0, 'text outside the root element');
      assert.ok(!/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(chars), `bare & in text: ${chars}`);
      rest = end < 0 ? '' : rest.slice(end);
    }
  }
  assert.deepEqual(stack, [], 'unclosed elements');
  assert.equal(roots, 1, 'one root element');
  return elements;
}

const withClass = (elements, name, cls) =>
  elements.filter((e) => e.name === name && (cls === undefined || (e.attrs.class ?? '').split(' ').includes(cls)));

function throwsCode(fn, code, name) {
  let caught = null;
  try { fn(); } catch (e) { caught = e; }
  assert.ok(caught instanceof Error && !(caught instanceof WebAssembly.RuntimeError), `${caught}`);
  assert.ok(isHostageError(caught));
  assert.equal(caught.code, code, caught.message);
  if (name) assert.equal(caught.name, name);
}

test('svg(): well-formed SVG with the FEN in <desc>', () => {
  const board = new Board(AFTER_EXD5);
  const image = board.svg();
  assert.equal(typeof image, 'string');
  const elements = parseXml(image);
  assert.equal(elements[0].name, 'svg');
  assert.equal(elements[0].attrs.xmlns, 'http://www.w3.org/2000/svg');
  assert.ok(image.includes(`<desc>${AFTER_EXD5}</desc>`));
  assert.ok(image.includes("White's prison"));
  assert.equal(board.svg({}), image);
  assert.equal(board.svg(undefined), image);
  assert.equal(board.svg(null), image);
});

test('svg(options): each option changes the drawing', () => {
  const board = new Board(AFTER_EXD5);
  const plain = board.svg();
  for (const opts of [{ flipped: true }, { coordinates: false }, { reserves: false }, { size: 300 }]) {
    const image = board.svg(opts);
    parseXml(image);
    assert.notEqual(image, plain, JSON.stringify(opts));
  }
  assert.ok(board.svg({ size: 300 }).includes('width="300"'));
  assert.ok(!board.svg({ reserves: false }).includes("White's prison"));

  const arrows = board.svg({
    arrows: [{ from: 'e2', to: 'e4' }, { from: 'g1', to: 'f3', color: 'red' }, { from: 'e4', to: 'e4', color: '#882020' }],
  });
  const els = parseXml(arrows);
  assert.equal(withClass(els, 'g', 'arrow').length, 2);
  assert.equal(withClass(els, 'circle', 'arrow').length, 1);
  assert.ok(arrows.includes('stroke="red"') && arrows.includes('#882020'));
  assert.equal(withClass(parseXml(plain), 'g', 'arrow').length, 0);

  const marks = parseXml(board.svg({ marks: [{ square: 'e4', color: 'yellow' }, { square: 'd4' }] }));
  assert.equal(withClass(marks, 'rect', 'mark').length, 2);
});

test('svg({ lastMove }): a move object, its long form, or true for the last move played', () => {
  const board = new Board();
  const lastMoves = (opts) => withClass(parseXml(board.svg(opts)), 'rect', 'last-move').length;
  assert.equal(lastMoves({ lastMove: true }), 0);
  const played = board.pushSan('e4');
  assert.equal(lastMoves({}), 0);
  assert.equal(lastMoves({ lastMove: true }), 2);
  assert.equal(lastMoves({ lastMove: false }), 0);
  assert.equal(board.svg({ lastMove: played }), board.svg({ lastMove: true }));
  assert.equal(board.svg({ lastMove: 'e2e4' }), board.svg({ lastMove: true }));
  assert.equal(lastMoves({ lastMove: 'P@e6' }), 1); // a drop: only its square
  assert.equal(lastMoves({ lastMove: 'P#N@e6' }), 1);
});

test('svg(): check, pseudo-check and frozen marks', () => {
  const check = new Board('4k3/8/8/8/8/8/8/4K2r[] w - - 0 1');
  assert.equal(withClass(parseXml(check.svg()), 'rect', 'check').length, 1);
  assert.equal(withClass(parseXml(check.svg({ check: false })), 'rect', 'check').length, 0);
  const frozen = new Board('4k3/8/8/8/8/8/6p1/7K[] w - - 0 1');
  assert.ok(frozen.isPseudoCheck());
  assert.equal(withClass(parseXml(frozen.svg()), 'rect', 'ice').length, 1);
  assert.equal(withClass(parseXml(frozen.svg({ frozen: false })), 'rect', 'ice').length, 0);
});

test('svg(): bad squares and wrong types throw typed errors', () => {
  const board = new Board();
  throwsCode(() => board.svg({ arrows: [{ from: 'e2', to: 'e9' }] }), 'invalid_square', 'SquareError');
  throwsCode(() => board.svg({ arrows: [{ from: 'x', to: 'e4' }] }), 'invalid_square', 'SquareError');
  throwsCode(() => board.svg({ marks: [{ square: 'i1', color: 'red' }] }), 'invalid_square', 'SquareError');
  throwsCode(() => board.svg({ lastMove: 'e2' }), 'invalid_uci', 'InvalidMoveError');
  for (const bad of [
    42, 'flipped', true,
    { size: -1 }, { size: 0 }, { size: 1.5 }, { size: '400' }, { size: NaN },
    { flipped: 'yes' }, { coordinates: 1 }, { reserves: {} }, { check: 'no' }, { frozen: 0 },
    { arrows: 'e2e4' }, { arrows: ['e2e4'] }, { arrows: [{ from: 'e2' }] }, { arrows: [{ from: 12, to: 28 }] },
    { arrows: [{ from: 'e2', to: 'e4', color: 42 }] }, { marks: {} }, { marks: [{ color: 'red' }] },
    { lastMove: 42 }, { lastMove: {} },
  ]) {
    throwsCode(() => board.svg(bad), 'invalid_argument', 'TypeError');
  }
});

test('svg(): unsafe colours fall back, the output stays well-formed', () => {
  const board = new Board();
  for (const color of ['"/><script>alert(1)</script>', '</svg>', '', 'x'.repeat(1000), '\0', 'red; fill: url(x)', 'é', '&amp;']) {
    const image = board.svg({ arrows: [{ from: 'e2', to: 'e4', color }], marks: [{ square: 'd4', color }] });
    const els = parseXml(image);
    assert.equal(els.filter((e) => e.name === 'script').length, 0);
    assert.ok(image.includes('#15781b'), JSON.stringify(color));
  }
});
