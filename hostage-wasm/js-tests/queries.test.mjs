// The chess.js/chessops-depth Board methods, Setup editing, and errors that
// name their input (docs/javascript.md, "Coming from chess.js and
// chessops"). Expected values are worked out by hand from the positions.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { badInputCases, caught, hostage } from './helpers.mjs';

const { Board, Setup, isHostageError } = hostage;
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';
// White: Ke1 Ra1 Rh1, pawns b7 e5; Black: Ke8 Ra8, pawn d5 (just
// double-stepped); White's airfield: a knight; each prison: a queen.
const RICH = 'r3k3/1P6/8/3pP3/8/8/8/R3K2R[N#Qq] w KQq d6 0 1';

const sorted = (a) => [...a].sort();

test('attackers, isAttacked, attacks', () => {
  const b = new Board();
  assert.deepEqual(sorted(b.attackers('e3', 'w')), ['d2', 'f2']);
  // The side to move by default, as chess.js.
  assert.deepEqual(sorted(b.attackers('f3')), ['e2', 'g1', 'g2']);
  assert.deepEqual(sorted(b.attackers('f6', 'b')), ['e7', 'g7', 'g8']);
  assert.equal(b.isAttacked('e4', 'w'), false);
  assert.equal(b.isAttacked('f6', 'b'), true);
  assert.deepEqual(sorted(b.attacks('g1')), ['e2', 'f3', 'h3']);
  assert.deepEqual(b.attacks('e4'), []);
  // R8: a frozen pawn attacks nothing on its last rank.
  const frozen = new Board('4k3/8/8/8/8/8/6p1/7K[] w - - 0 1');
  assert.deepEqual(frozen.attackers('h1', 'b'), []);
  const live = new Board('4k3/8/8/8/8/8/6p1/7K[#n] w - - 0 1');
  assert.deepEqual(live.attackers('h1', 'b'), ['g2']);
  assert.throws(() => b.attackers('e9', 'w'), { name: 'SquareError', code: 'invalid_square' });
  assert.throws(() => b.attackers('e4', 'white'), { name: 'TypeError', code: 'invalid_argument' });
});

test('pins, king, findPiece', () => {
  const b = new Board('4k3/4r3/8/8/8/8/4N3/4K3[] w - - 0 1');
  assert.deepEqual(b.pinned(), ['e2']);
  assert.deepEqual(b.pinned('b'), []);
  assert.deepEqual(b.pinLine('e2'), ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8']);
  assert.equal(b.pinLine('e1'), null);
  assert.equal(b.pinLine('a1'), null);
  assert.equal(b.king('w'), 'e1');
  assert.equal(b.king('b'), 'e8');
  const start = new Board();
  assert.deepEqual(start.findPiece({ color: 'w', role: 'knight' }), ['b1', 'g1']);
  assert.equal(start.findPiece({ color: 'b', role: 'pawn' }).length, 8);
  assert.throws(() => start.findPiece({ color: 'w', role: 'dragon' }), { name: 'TypeError' });
});

test('what a move does', () => {
  const b = new Board(RICH);
  assert.equal(b.isEnPassant('exd6'), true);
  assert.equal(b.isCapture('exd6'), true);
  assert.equal(b.isZeroing('exd6'), true);
  assert.equal(b.givesCheck('bxa8=Q'), true);
  assert.equal(b.isCastling('O-O-O'), true);
  assert.equal(b.isCastling('e1c1'), true);
  assert.equal(b.isIrreversible('O-O-O'), true);
  assert.equal(b.isIrreversible('Ra7'), false);
  assert.equal(b.isDrop('N*c7'), true);
  assert.equal(b.isExchange('N*c7'), false);
  assert.equal(b.givesCheck('N*c7'), true);
  assert.equal(b.isZeroing('N*c7'), false);
  assert.equal(b.isExchange('(Q-Q)Q*e2'), true);
  assert.equal(b.givesCheck('(Q-Q)Q*e2'), false);
  const exchange = b.legalMoves().find((m) => m.kind === 'exchange' && m.to === 'e2');
  assert.equal(b.isDrop(exchange), true);
  assert.throws(() => b.isCapture('Ke3'), (e) => {
    assert.equal(e.name, 'IllegalMoveError');
    assert.equal(e.code, 'illegal_san');
    assert.equal(e.message, `illegal san: 'Ke3' in ${RICH}: that man does not move that way`);
    assert.equal(e.reason, 'wrong_way');
    return true;
  });
});

test('draws with the Hostage meaning (R12: automatic)', () => {
  const b = new Board();
  for (const san of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']) b.pushSan(san);
  assert.equal(b.isThreefoldRepetition(), false);
  assert.equal(b.isDraw(), false);
  b.pushSan('Ng8');
  assert.equal(b.isThreefoldRepetition(), true);
  assert.equal(b.isDraw(), true);
  const fifty = new Board('4k3/8/8/8/8/8/8/4K3[] w - - 100 90');
  assert.equal(fifty.isDrawByFiftyMoves(), true);
  assert.equal(fifty.isDraw(), true);
  const mate = new Board();
  for (const san of ['f3', 'e5', 'g4', 'Qh4#']) mate.pushSan(san);
  assert.equal(mate.isDraw(), false);
});

test('text: ascii, unicode, toString, boardFen, lan, variationSan', () => {
  const b = new Board('4k3/8/8/8/8/8/8/4K3[N#Pq] w - - 0 1');
  assert.equal(b.boardFen(), '4k3/8/8/8/8/8/8/4K3');
  const ascii = b.ascii().split('\n');
  assert.equal(ascii[0], '   +------------------------+');
  assert.equal(ascii[1], ' 8 | .  .  .  .  k  .  .  . |');
  assert.equal(ascii[8], ' 1 | .  .  .  .  K  .  .  . |');
  assert.equal(ascii[10], '     a  b  c  d  e  f  g  h');
  assert.deepEqual(ascii.slice(11), [
    'white prison:   q',
    'black prison:   P',
    'white airfield: N',
    'black airfield: -',
  ]);
  assert.equal(b.unicode().split('\n')[0], '· · · · ♚ · · ·');
  assert.equal(String(b).split('\n')[0], '. . . . k . . .');
  assert.equal(`${new Board()}`.split('\n')[7], 'R N B Q K B N R');
  const start = new Board();
  assert.equal(start.lan('Nf3'), 'Ng1-f3');
  assert.equal(new Board(RICH).lan('exd6'), 'e5xd6');
  assert.equal(new Board(RICH).lan('bxa8=Q'), 'b7xa8=Q+');
  assert.equal(start.variationSan(['e2e4', 'd7d5', 'e4d5', 'd8d5']), '1. e4 d5 2. exd5 Qxd5');
  const moved = new Board();
  const e4 = moved.pushSan('e4');
  assert.equal(start.variationSan([e4]), '1. e4');
  assert.equal(moved.variationSan(['d7d5']), '1... d5');
  assert.throws(() => moved.variationSan(['d7d5', 'd7d5']), (e) => {
    assert.equal(e.code, 'illegal_uci');
    assert.equal(e.message,
      "illegal uci: 'd7d5' in rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2: "
      + 'the side to move has no such man there');
    assert.equal(e.reason, 'no_own_man');
    return true;
  });
  assert.throws(() => start.variationSan('e2e4'), { name: 'TypeError' });
});

test('put and remove on a Board are validated', () => {
  const b = new Board();
  b.pushSan('e4');
  assert.deepEqual(b.remove('d1'), { color: 'w', role: 'queen' });
  assert.equal(b.ply(), 0);
  assert.equal(b.fen(), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNB1KBNR[] b KQkq - 0 1');
  assert.equal(b.remove('d4'), null);
  assert.equal(b.put({ color: 'w', role: 'queen' }, 'd4'), true);
  assert.equal(b.pieceAt('d4').role, 'queen');
  const before = b.fen();
  // A second white king, a pawn on the back rank: no position, no change.
  assert.equal(b.put({ color: 'w', role: 'king' }, 'a3'), false);
  assert.equal(b.put({ color: 'b', role: 'pawn' }, 'a1'), false);
  assert.throws(() => b.remove('e8'), { name: 'PositionError', code: 'missing_king' });
  assert.equal(b.fen(), before);
  // Removing a castling rook drops that right instead of failing (R9).
  const c = new Board();
  c.remove('h1');
  assert.deepEqual(c.castling().w, { kingSide: false, queenSide: true, kingUnmoved: true });
  const s = new Setup('4k3/8/8/8/8/8/8/4K2R w K - 0 1');
  s.remove('h1');
  assert.equal(s.status(), 'invalid_castling');
  s.cleanCastlingRights();
  assert.equal(s.fen(), '4k3/8/8/8/8/8/8/4K3[] w E - 0 1');
});

test('load and reset', () => {
  const b = new Board();
  b.pushSan('e4');
  b.load('4k3/8/8/8/8/8/8/4K3[N] w - - 0 1');
  assert.equal(b.ply(), 0);
  assert.equal(b.airfields().w.knight, 1);
  assert.throws(() => b.load('4k3/8/8/8/8/8/8/8[] w - - 0 1'), (e) => {
    assert.equal(e.code, 'missing_king');
    assert.equal(e.message, "illegal position: a side has no king: '4k3/8/8/8/8/8/8/8[] w - - 0 1'");
    return true;
  });
  assert.equal(b.fen(), '4k3/8/8/8/8/8/8/4K3[N] w - - 0 1');
  b.reset();
  assert.equal(b.fen(), START);
});

test('equality and mirror', () => {
  const a = new Board();
  for (const san of ['Nf3', 'Nf6', 'Ng1', 'Ng8']) a.pushSan(san);
  // Same men, but the clocks moved on (halfmove 4, fullmove 3).
  assert.equal(a.equals(new Board()), false);
  assert.equal(a.equals(new Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 4 3')), true);
  const b = new Board('4k3/8/8/8/3pP3/8/8/R3K3[N#Pq] b Qe e3 0 1');
  const m = b.mirror();
  assert.equal(m.fen(), 'r3k3/8/8/3Pp3/8/8/8/4K3[n#Qp] w Eq e6 0 1');
  assert.equal(m.airfields().b.knight, 1);
  assert.equal(m.prisons().w.pawn, 1);
  assert.equal(m.prisons().b.queen, 1);
  assert.equal(m.mirror().equals(b), true);
  assert.equal(new Board().mirror().turn(), 'b');
});

test('Setup: a board editor, validated on the way back', () => {
  const s = Setup.empty();
  assert.equal(s.status(), 'missing_king');
  assert.equal(s.isValid(), false);
  s.put({ color: 'w', role: 'king' }, 'e1');
  s.put({ color: 'b', role: 'king' }, 'e8');
  s.put({ color: 'w', role: 'rook' }, 'a7');
  assert.equal(s.isValid(), true);
  assert.equal(s.status(), null);
  s.setPrison('w', { queen: 1 });
  s.setAirfield('b', { pawn: 2 });
  s.setTurn('b');
  assert.equal(s.turn(), 'b');
  assert.equal(s.fen(), '4k3/R7/8/8/8/8/8/4K3[pp#q] b - - 0 1');
  assert.deepEqual(s.get('a7'), { color: 'w', role: 'rook' });
  const board = s.toBoard();
  assert.equal(board.prisons().w.queen, 1);
  assert.equal(Board.fromSetup(s).equals(board), true);
  assert.equal(board.setup().equals(s), true);
  assert.deepEqual(s.remove('a7'), { color: 'w', role: 'rook' });
  assert.equal(s.remove('a7'), null);
  s.put({ color: 'w', role: 'pawn' }, 'h8');
  assert.throws(() => s.toBoard(), (e) => {
    assert.equal(e.name, 'PositionError');
    assert.equal(e.code, 'pawn_on_backrank');
    assert.ok(e.message.includes("'4k2P/8/8/8/8/8/8/4K3[pp#q] b - - 0 1'"), e.message);
    return true;
  });
  const copy = s.clone();
  s.clear();
  assert.equal(s.equals(Setup.empty()), true);
  assert.equal(copy.equals(s), false);
  assert.equal(new Setup().toBoard().fen(), START);
  assert.equal(new Setup().mirror().turn(), 'b');
  assert.throws(() => new Setup('8/8/8/8/8/8/8/9[] w - - 0 1'), { name: 'FenError', code: 'invalid_board' });
  assert.throws(() => s.setPrison('w', { queen: 1.5 }), { name: 'TypeError' });
  assert.throws(() => s.put({ color: 'w', role: 'king' }, 'z9'), { name: 'SquareError' });
});

// ---- the bad-input corpus through the new entry points ---------------------

/** Short printable input is named whole in the message, quoted. */
function assertNamed(e, input) {
  assert.ok(e.message.length < 600, `message too long: ${e.message.length}`);
  // Quotes and backslashes are escaped in messages, so such input is skipped.
  if (/^[\x20-\x7e]{1,60}$/.test(input) && !/['"\\]/.test(input) && input.trim() === input) {
    assert.ok(e.message.includes(`'${input}'`), `${e.message} does not name ${input}`);
  }
}

const POSITION_CODES = new Set([
  'missing_king', 'too_many_kings', 'king_in_reserve', 'pawn_on_backrank', 'too_many_men',
  'opposite_check', 'invalid_castling', 'invalid_ep_square',
]);

for (const c of badInputCases()) {
  test(`bad-input.txt line ${c.line} through Setup / lan / variationSan: ${c.expected}`, () => {
    if (c.kind === 'fen') {
      const e = caught(() => new Setup(c.input));
      if (c.expected === 'ok') return assert.equal(e, null);
      if (POSITION_CODES.has(c.expected)) {
        // Well-formed: Setup reads it, status names the problem, toBoard throws.
        assert.equal(e, null, e?.message);
        const s = new Setup(c.input);
        assert.equal(s.status(), c.expected);
        const bad = caught(() => s.toBoard());
        assert.equal(bad?.code, c.expected);
        assert.equal(bad.name, 'PositionError');
        return;
      }
      assert.equal(e?.code, c.expected, e?.message);
      assert.equal(e.name, 'FenError');
      assert.ok(isHostageError(e));
      // The Board constructor names its input too.
      assertNamed(caught(() => new Board(c.input)), c.input);
      return;
    }
    if (c.kind !== 'san' && c.kind !== 'uci') return;
    const board = c.position === '-' ? new Board() : new Board(c.position);
    const before = board.fen();
    if (c.kind === 'uci') {
      const calls = [() => board.lan({ uci: c.input }), () => board.variationSan([c.input])];
      for (const [i, call] of calls.entries()) {
        const e = caught(call);
        if (c.expected === 'ok') {
          assert.equal(e, null, e?.message);
          continue;
        }
        assert.equal(e?.code, c.expected, e?.message);
        // variationSan names the move as read (`N@c7` for `n@c7`), lan as given.
        if (i === 0 || c.expected === 'invalid_uci') assertNamed(e, c.input);
        if (c.expected === 'illegal_uci') assert.ok(e.message.includes(board.fen()), e.message);
      }
    } else {
      // lan/givesCheck read text as push does (SAN, else long form).
      const viaPush = caught(() => { board.push(c.input); board.pop(); });
      for (const call of [() => board.lan(c.input), () => board.givesCheck(c.input)]) {
        const e = caught(call);
        assert.equal(e?.code, viaPush?.code, e?.message);
      }
      const e = caught(() => board.pushSan(c.input));
      if (e !== null) {
        assertNamed(e, c.input);
        if (c.expected.startsWith('illegal') || c.expected.startsWith('ambiguous')) {
          assert.ok(e.message.includes(board.fen()), e.message);
        }
      } else {
        board.pop();
      }
    }
    assert.equal(board.fen(), before);
  });
}

test('frozenPawns: R8 by the enemy prison, of one side or both', () => {
  // White pawns b7 (its 7th rank) and a2, Black pawns h7 (its 2nd) and g2
  // (its 7th). A white queen in Black's prison lets White promote (R7);
  // White's prison is empty, so g2 is frozen (R8).
  const b = new Board('4k3/1P5p/8/8/8/8/P5p1/4K3[#Q] w - - 0 1');
  assert.deepEqual(b.frozenPawns(), ['g2']);
  assert.deepEqual(b.frozenPawns('b'), ['g2']);
  assert.deepEqual(b.frozenPawns('w'), []);
  // Black takes a white knight; in Black's prison it thaws White's b7 pawn.
  const thaw = new Board('4k3/1P6/8/8/8/2n5/8/1N2K3[] b - - 0 1');
  assert.deepEqual(thaw.frozenPawns(), ['b7']);
  thaw.pushSan('Nxb1');
  assert.deepEqual(thaw.frozenPawns(), []);
  assert.deepEqual(new Board().frozenPawns(), []);
  assert.throws(() => b.frozenPawns('x'), { code: 'invalid_argument' });
});
