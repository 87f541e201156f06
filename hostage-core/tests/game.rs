//! Tests of `Game`: history, undo, repetition (R12, prisons and airfields
//! included), perpetual check, the fifty-move rule, mate and stalemate.

use hostage_core::{game::Game, Color, Outcome, Position, Termination};

fn play(game: &mut Game, moves: &str) {
    for san in moves.split_whitespace().filter(|t| !t.ends_with('.')) {
        game.push_san(san)
            .unwrap_or_else(|e| panic!("{san}: {e} in {}", game.position().fen()));
    }
}

fn termination(game: &Game) -> Option<Termination> {
    game.outcome().map(|o| o.termination)
}

/// The board and side to move of a FEN, without reserves and clocks.
fn board_and_turn(pos: &Position) -> (String, String) {
    let fen = pos.fen();
    let board = fen.split('[').next().unwrap_or_default().to_string();
    let turn = fen.split(' ').nth(1).unwrap_or_default().to_string();
    (board, turn)
}

#[test]
fn r12_threefold_repetition_with_prisons() {
    // After 1.e4 d5 2.exd5 Qxd5 each prison holds a pawn. Call that position
    // P (White to move): occurrence 1 at ply 4.
    let mut game = Game::new();
    play(&mut game, "1. e4 d5 2. exd5 Qxd5");
    assert_eq!(game.repetition_count(), 1);
    // The knights go out and back: P again at ply 8 (occurrence 2).
    play(&mut game, "3. Nf3 Nf6 4. Ng1 Ng8");
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.outcome(), None);
    // Once more: occurrence 3 at ply 12, an automatic draw. No move in the
    // cycle gave check, so it is a plain threefold repetition.
    play(&mut game, "5. Nf3 Nf6 6. Ng1");
    // Black to move with the knight on f6: seen before only after 4.Ng1
    // (ply 7), so this is its second occurrence.
    assert_eq!(game.repetition_count(), 2);
    play(&mut game, "6... Ng8");
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            termination: Termination::ThreefoldRepetition,
            winner: None
        })
    );
    assert_eq!(
        game.position().fen(),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 8 7"
    );
}

#[test]
fn r12_near_repetition_differs_only_off_the_board() {
    // P = the position after 1.e4 d5 2.exd5 Qxd5 (White to move, White's
    // prison {p}, Black's prison {P}). It occurs at plies 4 and 8.
    let mut game = Game::new();
    play(&mut game, "1. e4 d5 2. exd5 Qxd5 3. Nf3 Qd8 4. Ng1 Qd5");
    let p_hash = game.position().zobrist_hash();
    assert_eq!(game.repetition_count(), 2);
    let p_board = board_and_turn(game.position());

    // White exchanges pawn for pawn (R5): the black pawn leaves White's
    // prison for Black's airfield, the white pawn is dropped on d4 and taken
    // at once (back into Black's prison). The queen needs three moves
    // (d5-d4-d6-d5) while the knight needs two, so White is to move again
    // with the very same board as P after 6 plies: ply 14.
    play(&mut game, "5. (P-P)*d4 Qxd4 6. Nf3 Qd6 7. Ng1 Qd5");
    let q = game.position().clone();
    assert_eq!(
        board_and_turn(&q),
        p_board,
        "the board and the side to move are those of P"
    );
    // Only the reserves differ: White's prison is empty and Black's airfield
    // holds the pawn. So this is a new position Q (1 occurrence), not the
    // third occurrence of P: no draw, although the board alone has now been
    // seen three times with White to move (plies 4, 8, 14).
    assert_eq!(
        q.fen(),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[p#P] w KQkq - 4 8"
    );
    assert_ne!(q.zobrist_hash(), p_hash);
    assert_eq!(game.repetition_count(), 1);
    assert_eq!(game.occurrences(p_hash), 2);
    assert_eq!(game.outcome(), None);

    // Q itself repeats: plies 18 and 22 are its 2nd and 3rd occurrences.
    play(&mut game, "8. Nf3 Qd8 9. Ng1 Qd5");
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.outcome(), None);
    play(&mut game, "10. Nf3 Qd8 11. Ng1 Qd5");
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(termination(&game), Some(Termination::ThreefoldRepetition));
    assert_eq!(game.occurrences(p_hash), 2, "P was never seen again");
}

#[test]
fn pop_restores_repetition_counts() {
    let mut game = Game::new();
    play(&mut game, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8");
    // The start position: plies 0, 4 and 8.
    let start = game.start().zobrist_hash();
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(termination(&game), Some(Termination::ThreefoldRepetition));

    let last = game.pop().expect("a move to take back");
    assert_eq!(last.to_string(), "f6g8");
    assert_eq!(game.occurrences(start), 2);
    assert_eq!(game.outcome(), None);
    // After 4.Ng1 (ply 7): Black to move with the knight on f6, as at ply 3.
    assert_eq!(game.repetition_count(), 2);

    game.push(last).expect("legal again");
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(termination(&game), Some(Termination::ThreefoldRepetition));

    while game.pop().is_some() {}
    assert_eq!(game.ply(), 0);
    assert_eq!(game.repetition_count(), 1);
    assert_eq!(game.occurrences(start), 1);
    assert_eq!(game.pop(), None);
}

#[test]
fn r12_perpetual_check() {
    // Black: king g8, pawn g7. White: queen h5, king a1. The queen checks
    // from e8 (along the 8th rank) and from h5 (along the h-file); each time
    // the black king has one square: from g8 only h7 (f7, f8 are covered by
    // the queen on e8, h8 lies behind the king on the rank), from h7 only g8
    // (g6, h6 and, behind the king, h8 are covered by the queen on h5).
    // Black has no reserves to block with.
    let start = Position::from_fen("6k1/6p1/8/7Q/8/8/8/K7[] w - - 0 1").expect("legal");
    let mut game = Game::from_position(start);
    play(&mut game, "1. Qe8+ Kh7 2. Qh5+ Kg8");
    assert_eq!(game.repetition_count(), 2);
    assert_eq!(game.outcome(), None);
    play(&mut game, "3. Qe8+ Kh7 4. Qh5+ Kg8");
    // The start position for the third time (plies 0, 4, 8); every White
    // move in the cycle gave check.
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(
        game.san_moves(),
        ["Qe8+", "Kh7", "Qh5+", "Kg8", "Qe8+", "Kh7", "Qh5+", "Kg8"]
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            termination: Termination::PerpetualCheck,
            winner: None
        })
    );
}

#[test]
fn r12_repetition_with_some_checks_is_not_perpetual() {
    // Same position; White now checks with only every other move: Qf5 is
    // quiet (it covers f8 and h7 but not g8), Kh8, then Qh5+ along the
    // h-file, Kg8 (the only square: h7 is covered and g7 is Black's pawn).
    // Back to the start after 4 plies; in the cycle one White move gave no
    // check and no Black move gave check.
    let start = Position::from_fen("6k1/6p1/8/7Q/8/8/8/K7[] w - - 0 1").expect("legal");
    let mut game = Game::from_position(start);
    play(&mut game, "1. Qf5 Kh8 2. Qh5+ Kg8 3. Qf5 Kh8 4. Qh5+ Kg8");
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(termination(&game), Some(Termination::ThreefoldRepetition));
}

#[test]
fn r12_fifty_moves_exchange_of_a_knight_does_not_reset_but_a_pawn_drop_does() {
    // White's airfield holds a pawn; White's prison a black knight; Black's
    // prison a white knight and a white pawn. The clock stands at 98.
    let start = Position::from_fen("7k/8/8/8/8/8/8/7K[P#NPn] w - - 98 80").expect("legal");
    let mut game = Game::from_position(start);
    assert_eq!(game.halfmove_clock(), 98);

    // An exchange of a knight for a knight moves no pawn and captures
    // nothing: the clock goes on (99), and Black's quiet king move makes 100
    // plies, a draw (R12).
    play(&mut game, "81. (N-N)N*c3");
    assert_eq!(game.halfmove_clock(), 99);
    assert_eq!(game.outcome(), None);
    play(&mut game, "81... Kg8");
    assert_eq!(game.halfmove_clock(), 100);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            termination: Termination::FiftyMoves,
            winner: None
        })
    );

    // Back to the start: a pawn drop from the airfield resets the clock.
    game.pop();
    game.pop();
    play(&mut game, "81. *c3");
    assert_eq!(game.halfmove_clock(), 0);
    play(&mut game, "81... Kg8");
    assert_eq!(game.halfmove_clock(), 1);
    assert_eq!(game.outcome(), None);

    // So does an exchange that rescues a pawn (R12: "exchange of a pawn").
    game.pop();
    game.pop();
    play(&mut game, "81. (N-P)*c3");
    assert_eq!(game.halfmove_clock(), 0);
}

#[test]
fn r11_mate_on_the_hundredth_ply_wins() {
    // The clock stands at 99; the rook drop R*e8 is not a zeroing move, so
    // the clock reaches 100, but it mates (g7/h7 block the king, e8 cannot
    // be taken, Black has no reserves): checkmate takes precedence.
    let start = Position::from_fen("7k/6pp/8/8/8/8/8/K7[R] w - - 99 60").expect("legal");
    let mut game = Game::from_position(start);
    play(&mut game, "60. R*e8#");
    assert_eq!(game.halfmove_clock(), 100);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            termination: Termination::Checkmate,
            winner: Some(Color::White)
        })
    );
}

#[test]
fn r11_checkmate_and_r12_stalemate() {
    let mut game = Game::new();
    play(&mut game, "1. f3 e5 2. g4 Qh4");
    assert_eq!(game.san_moves().last().map(String::as_str), Some("Qh4#"));
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            termination: Termination::Checkmate,
            winner: Some(Color::Black)
        })
    );

    // Qf7 leaves the black king on h8 no move (g8, g7, h7 are covered by the
    // queen and the king on g6) and does not attack h8.
    let start = Position::from_fen("7k/8/6K1/8/8/8/5Q2/8[] w - - 0 1").expect("legal");
    let mut game = Game::from_position(start);
    play(&mut game, "1. Qf7");
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            termination: Termination::Stalemate,
            winner: None
        })
    );
}

#[test]
fn push_rejects_illegal_moves_and_leaves_the_game_unchanged() {
    let mut game = Game::new();
    play(&mut game, "1. e4 e5");
    let fen = game.position().fen();
    assert_eq!(
        game.push_san("Ke3").map_err(|e| e.code()),
        Err("illegal_san")
    );
    assert_eq!(
        game.push_san("Nb1").map_err(|e| e.code()),
        Err("illegal_san")
    );
    assert_eq!(
        game.push_san("K?!x").map_err(|e| e.code()),
        Err("invalid_san")
    );
    assert_eq!(
        game.push_uci("e1e3").map_err(|e| e.code()),
        Err("illegal_uci")
    );
    assert_eq!(
        game.push_uci("e9e3").map_err(|e| e.code()),
        Err("invalid_uci")
    );
    let start_move = game.moves()[0];
    assert_eq!(
        game.push(start_move).map_err(|e| e.code()),
        Err("illegal_move")
    );
    assert_eq!(game.ply(), 2);
    assert_eq!(game.position().fen(), fen);
    assert_eq!(game.positions().len(), 3);

    let m = game.push_uci("g1f3").expect("legal");
    assert_eq!(game.san(2).as_deref(), Some("Nf3"));
    assert_eq!(game.moves().last(), Some(&m));
    assert_eq!(
        game.position_at(0).map(Position::fen),
        Some(Position::new().fen())
    );
}
