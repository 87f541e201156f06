//! The TypeScript types of the values the bindings pass: unions that
//! wasm-bindgen cannot derive, appended to the generated `.d.ts`.
//!
//! The rules module (`index.d.ts`) declares them all. The engine and puzzles
//! modules' declarations import the ones they name from it instead of
//! declaring copies, so a `Move` is one type wherever it comes from. The
//! import names `./index.js`, the rules declarations beside `engine.d.ts`
//! and `puzzles.d.ts` at the package root; build.sh rewrites the path for
//! the copies elsewhere (`index.cjs` for `.d.cts`, `../index.js` in `web/`).

// The puzzles module declares no shared type.
#[cfg(any(feature = "rules", feature = "engine"))]
use wasm_bindgen::prelude::*;

/// The rules module's types that the engine module's declarations name.
#[cfg(all(feature = "engine", not(feature = "rules")))]
#[wasm_bindgen(typescript_custom_section)]
const TS_ENGINE_IMPORTS: &'static str = "import type { Board, Move } from './index.js';";

#[cfg(feature = "rules")]
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A side: White `'w'` or Black `'b'`, as in FEN. */
export type Color = 'w' | 'b';

/** The kind of a man. */
export type Role = 'pawn' | 'knight' | 'bishop' | 'rook' | 'queen' | 'king';

/** The roles a man can have in a prison or an airfield (never the king, R4). */
export type HostageRole = Exclude<Role, 'king'>;

export type File = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h';
export type Rank = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8';
/** A square name such as `'e4'`. */
export type Square = `${File}${Rank}`;

/** A value per side. */
export interface ByColor<T> { w: T; b: T }

/** A man of some colour. */
export interface Piece { color: Color; role: Role }

/** A man and where it stands. */
export interface PlacedPiece extends Piece { square: Square }

/** Counts of men by role, in a prison or an airfield. */
export type Reserve = Record<HostageRole, number>;

/** The castling rights of one side (R9). */
export interface CastlingRights {
  kingSide: boolean;
  queenSide: boolean;
  /** The king has never moved: a rook dropped on its corner restores a right. */
  kingUnmoved: boolean;
}

/** What every move object has. */
interface MoveBase {
  /** Long form: `e2e4`, `e7e8q`, `N@c7`, `N#B@c7` (rescued#released@square). */
  uci: string;
  /** Standard algebraic notation with the Hostage extensions: `N*c7`, `(B-N)N*c7`. */
  san: string;
  /** The side making the move. */
  color: Color;
  /** Where the man lands (for castling, the king's square). */
  to: Square;
}

/** A board move, perhaps a capture, perhaps a promotion by swap (R7). */
export interface NormalMove extends MoveBase {
  kind: 'normal';
  from: Square;
  role: Role;
  capture: Role | null;
  promotion: HostageRole | null;
  released: null;
  rescued: null;
}

/** An en-passant capture (R10). */
export interface EnPassantMove extends MoveBase {
  kind: 'en_passant';
  from: Square;
  role: 'pawn';
  capture: 'pawn';
  promotion: null;
  released: null;
  rescued: null;
}

/** Castling (R9), given by the king's move. */
export interface CastleMove extends MoveBase {
  kind: 'castle';
  from: Square;
  role: 'king';
  capture: null;
  promotion: null;
  released: null;
  rescued: null;
}

/** A drop from the mover's airfield (R6). */
export interface DropMove extends MoveBase {
  kind: 'drop';
  from: null;
  role: HostageRole;
  capture: null;
  promotion: null;
  released: null;
  rescued: null;
}

/** An exchange (R5): `released` goes to the opponent's airfield, `rescued` is dropped on `to`. */
export interface ExchangeMove extends MoveBase {
  kind: 'exchange';
  from: null;
  /** The rescued man's role. */
  role: HostageRole;
  capture: null;
  promotion: null;
  released: HostageRole;
  rescued: HostageRole;
}

/** A legal move, discriminated by `kind`. */
export type Move = NormalMove | EnPassantMove | CastleMove | DropMove | ExchangeMove;

export type MoveKind = Move['kind'];

/** How a game ended (R11, R12). */
export type Termination =
  | 'checkmate'
  | 'stalemate'
  | 'fifty_moves'
  | 'threefold_repetition'
  | 'perpetual_check';

/** The end of a game; `winner` is `null` for a draw. */
export interface Outcome { termination: Termination; winner: Color | null }

/** A PGN result: White won, Black won, a draw, or unknown / still going on. */
export type PgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/**
 * Why a game ended away from the board: written as the PGN `Termination`
 * tag (`Normal` for a resignation or an agreement, `Time forfeit`,
 * `Abandoned`).
 */
export type EndReason = 'resignation' | 'time_forfeit' | 'agreement' | 'abandonment';

/**
 * A result decided off the board, for `board.pgn(tags, end)`. `result`
 * defaults to the board's (or the `Result` tag's). A resignation is a win,
 * an agreement a draw, a time forfeit a win or a draw, an abandonment any
 * result; a game the board has ended keeps its own result.
 */
export interface PgnEnd { result?: PgnResult; reason?: EndReason }

/**
 * What `Board.pgnTags` reads from a PGN text: the tags in order, and the
 * end (the result, and the off-board reason read back from the
 * `Termination` tag when there is one).
 */
export interface PgnTags { headers: Record<string, string>; end: PgnEnd }

/** The legal squares of one exchange pair. */
export interface ExchangeDests { released: HostageRole; rescued: HostageRole; to: Square[] }

/** The `code` of a thrown error: the core's error code. */
export type FenErrorCode =
  | 'invalid_fen' | 'invalid_board' | 'invalid_reserves' | 'invalid_turn'
  | 'invalid_castling_field' | 'invalid_ep_field' | 'invalid_halfmove_clock'
  | 'invalid_fullmoves';
export type PositionErrorCode =
  | 'missing_king' | 'too_many_kings' | 'king_in_reserve' | 'pawn_on_backrank'
  | 'too_many_men' | 'opposite_check' | 'invalid_castling' | 'invalid_ep_square';
export type MoveErrorCode =
  | 'invalid_san' | 'illegal_san' | 'ambiguous_san' | 'invalid_uci' | 'illegal_uci'
  | 'illegal_move' | 'invalid_move_text';
export type PgnErrorCode =
  | 'pgn_syntax' | 'pgn_limit' | 'pgn_illegal_move' | 'pgn_fen' | 'pgn_variant' | 'pgn_io';
export type ResultErrorCode =
  | 'invalid_result' | 'invalid_end_reason' | 'result_contradicts_board' | 'result_mismatch';
export type PuzzleErrorCode =
  | 'invalid_puzzle_fields' | 'invalid_puzzle_id' | 'invalid_puzzle_fen' | 'invalid_puzzle_move'
  | 'invalid_puzzle_move_count' | 'invalid_puzzle_number' | 'invalid_puzzle_theme'
  | 'invalid_puzzle_solvers' | 'invalid_puzzle_lead_in' | 'unknown_puzzle';
export type ErrorCode =
  | FenErrorCode | PositionErrorCode | MoveErrorCode | PgnErrorCode | ResultErrorCode
  | PuzzleErrorCode | 'invalid_square' | 'invalid_argument' | 'invalid_level'
  | 'invalid_difficulty';

/**
 * The `reason` of an `IllegalMoveError`: why the move is illegal, the code
 * of the core's `IllegalReason` (docs/rules.md, "Why a move is illegal").
 */
export type IllegalReason =
  | 'no_own_man' | 'mismatch' | 'wrong_way' | 'path_blocked' | 'own_man_on_target'
  | 'no_en_passant' | 'frozen_pawn' | 'promotion_required' | 'promotion_unavailable'
  | 'no_castling_right' | 'castling_through_check' | 'not_in_airfield'
  | 'released_not_held' | 'rescued_not_held' | 'exchange_value' | 'square_occupied'
  | 'pawn_on_back_rank' | 'leaves_king_in_check' | 'unfreezes_pawn';

/** The `name` of a thrown error. */
export type ErrorName =
  | 'FenError' | 'PositionError' | 'InvalidMoveError' | 'IllegalMoveError'
  | 'AmbiguousMoveError' | 'PgnError' | 'ResultError' | 'SquareError' | 'TypeError'
  | 'LevelError' | 'PuzzleError' | 'DifficultyError';

/** An arrow of an SVG diagram; from a square to itself it is a circle. */
export interface SvgArrow { from: Square; to: Square; /** A CSS colour; default `#15781b`. */ color?: string }

/** A tinted square of an SVG diagram. */
export interface SvgMark { square: Square; /** A CSS colour; default `#15781b`. */ color?: string }

/**
 * Options of `board.svg()`; every field is optional. Colours are CSS colours
 * (`'red'`, `'#882020'`); an unsafe one falls back to the default colour.
 */
export interface SvgOptions {
  /** Width in pixels (the height follows); default: 45 pixels a square. */
  size?: number;
  /** Black at the bottom. Default `false`. */
  flipped?: boolean;
  /** File letters and rank digits around the board. Default `true`. */
  coordinates?: boolean;
  /** Both prisons and both airfields beside the board. Default `true`. */
  reserves?: boolean;
  /**
   * The move to highlight: a move object or its long form, or `true` for
   * the last move played on this board. Default: none.
   */
  lastMove?: Move | string | boolean | null;
  /** Mark a check (red) or a pseudo-check (dashed amber ring). Default `true`. */
  check?: boolean;
  /** Mark frozen pawns (R8) with an icy tint and a snowflake. Default `true`. */
  frozen?: boolean;
  arrows?: SvgArrow[];
  marks?: SvgMark[];
}

/**
 * Every error thrown by this package (`hostage-chess/engine` and
 * `hostage-chess/puzzles` included): an `Error` with `name` and `code`.
 */
export interface HostageError extends Error {
  name: ErrorName;
  code: ErrorCode;
  /** For a bad move in a list (`board.pushMoves`): its place in the list, from 1. */
  ply?: number;
  /** For an `IllegalMoveError`: why the move is illegal. */
  reason?: IllegalReason;
}
"#;
