// Words for people: the package's errors (which carry a stable `code`, and
// for moves the FEN of the position) turned into sentences a player reads,
// never code names or FEN. One table per kind of error; anything unknown
// falls back to a plain "could not" sentence without the raw message.

const MOVE = {
  invalid_san: (t) => `“${t}” is not a move the app can read. Write moves like e4, Nf3, exd5, N*c7 (a drop) or (P-P)*e3 (an exchange).`,
  invalid_uci: (t) => `“${t}” is not a move the app can read.`,
  illegal_san: (t) => `${t} is not legal here.`,
  illegal_uci: (t) => `${t} is not legal here.`,
  illegal_move: (t) => `${t} is not legal here.`,
  ambiguous_san: (t) => `${t} could mean more than one man: add the file or rank it starts from (for example Nbd2).`,
};

const FEN = {
  invalid_fen: 'it does not have the fields of a Hostage FEN (board[reserves] side castling en-passant halfmoves moves).',
  invalid_board: 'the board part is not eight ranks of men and digits.',
  invalid_reserves: 'the prisons and airfields in [brackets] cannot be read.',
  invalid_turn: 'the side to move must be w or b.',
  invalid_castling_field: 'the castling field must be “-” or letters from KQkq.',
  invalid_ep_field: 'the en-passant field must be “-” or a square.',
  invalid_halfmove_clock: 'the halfmove clock must be a number.',
  invalid_fullmoves: 'the move number must be a number from 1.',
  missing_king: 'each side needs a king on the board.',
  too_many_kings: 'each side has exactly one king.',
  king_in_reserve: 'a king can never be in a prison or an airfield.',
  pawn_on_backrank: 'a pawn cannot stand on the first or last rank.',
  too_many_men: 'a side has more men than the game starts with.',
  opposite_check: 'the side that just moved is left in check.',
  invalid_castling: 'a castling right is given without its king and rook at home.',
  invalid_ep_square: 'the en-passant square does not follow a double pawn step.',
};

const PGN = {
  pgn_syntax: 'the text is not PGN the app can read.',
  pgn_limit: 'the game is too long.',
  pgn_illegal_move: 'one of its moves is not legal where it is played.',
  pgn_fen: 'its FEN tag is not a legal position.',
  pgn_variant: 'it is a game of another variant.',
  pgn_io: 'it could not be read.',
};

// Why an illegal move is illegal: the package's `reason` (its
// IllegalReason code) as a clause, e.g. "Ke5 is not legal here: the king
// would be in check."
const WHY = {
  no_own_man: 'you have no man that can make that move',
  mismatch: 'the move does not match the men on the board',
  wrong_way: 'that man does not move that way',
  path_blocked: 'another man is in the way',
  own_man_on_target: 'one of your own men stands on that square',
  no_en_passant: 'en passant is only possible just after the enemy pawn’s double step',
  frozen_pawn: 'the pawn is frozen, because no piece of yours is in the enemy prison for it to promote to',
  promotion_required: 'a pawn reaching the last rank must promote to a man of yours from the enemy prison',
  promotion_unavailable: 'a pawn can only promote to a man of yours held in the enemy prison',
  no_castling_right: 'the king or that rook has already moved',
  castling_through_check: 'the king cannot castle out of check or through an attacked square',
  not_in_airfield: 'no man of that kind waits in your airfield',
  released_not_held: 'your prison holds no such man to give back',
  rescued_not_held: 'the enemy prison holds no such man of yours to rescue',
  exchange_value: 'the man you give back must be worth at least as much as the one you rescue',
  square_occupied: 'a man can only be dropped on an empty square',
  pawn_on_back_rank: 'a pawn cannot be dropped on the first or last rank',
  leaves_king_in_check: 'the king would be in check',
  unfreezes_pawn: 'taking that piece would unfreeze an enemy pawn that attacks your king',
};

/** A sentence for a move (SAN or long form, as typed) the package refused. */
export function moveError(e, text) {
  const reason = e?.reason;
  const illegal = String(e?.code ?? '').startsWith('illegal_');
  const why = illegal && typeof reason === 'string' && Object.hasOwn(WHY, reason) ? WHY[reason] : undefined;
  if (why) return `${text} is not legal here: ${why}.`;
  const f = MOVE[e?.code];
  return f ? f(text) : `${text} cannot be played here.`;
}

/** A sentence for a position (FEN or set-up) the package refused. */
export function positionError(e, what = 'This position') {
  const why = FEN[e?.code];
  return why ? `${what} cannot be used: ${why}` : `${what} cannot be used.`;
}

/** A sentence for a PGN the package refused (the failing move named when the message gives it). */
export function pgnError(e) {
  const why = PGN[e?.code];
  const at = e?.code === 'pgn_illegal_move' ? String(e.message ?? '').match(/'([^']{1,20})'/) : null;
  if (at) return `This PGN cannot be loaded: ${at[1]} is not legal where it is played.`;
  return why ? `This PGN cannot be loaded: ${why}` : 'This PGN cannot be loaded.';
}

const NAME = { w: 'White', b: 'Black' };
const TERMINATION = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  fifty_moves: 'the fifty-move rule',
  threefold_repetition: 'threefold repetition',
  perpetual_check: 'perpetual check',
  resignation: 'resignation',
  agreement: 'agreement',
  timeout: 'time',
  abandoned: 'abandonment',
};

/** The result as words: { termination, winner: 'w' | 'b' | null } (package or server). */
export function resultText({ termination, winner }) {
  if (termination === 'aborted') return 'Game aborted: no result';
  const how = TERMINATION[termination] ?? String(termination).replace(/_/g, ' ');
  return winner ? `${NAME[winner]} wins by ${how}` : `Draw by ${how}`;
}

/** The PGN result token: 1-0, 0-1 or 1/2-1/2 (* for an aborted game). */
export function resultToken({ winner, termination }) {
  if (termination === 'aborted') return '*';
  return winner === 'w' ? '1-0' : winner === 'b' ? '0-1' : '1/2-1/2';
}


/**
 * A start-up failure in a sentence (what did not work and what to try),
 * never the package's code names: the package's modules are loaded by the
 * modes, so a failed download or an old browser ends up here.
 */
export function startError(e) {
  if (typeof WebAssembly !== 'object') return 'This browser cannot run WebAssembly, which the app needs. Try a recent Chrome, Firefox, Safari or Edge.';
  if (/fetch|import|module|network|load/i.test(String(e?.message ?? e))) return 'A part of the app could not be downloaded. Check your connection and reload the page.';
  return 'Something went wrong while starting. Reload the page to try again.';
}
