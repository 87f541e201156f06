//! One test per rule of `docs/rules.md` (R1..R12), on small positions whose
//! move counts are worked out by hand in the comments.

use hostage_core::{
    perft, san::San, uci::UciMove, Color, Move, Outcome, Position, PositionError, Role, Square,
    Termination,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| m.to_uci().to_string())
        .collect();
    v.sort();
    v
}

fn has(p: &Position, uci: &str) -> bool {
    uci_moves(p).iter().any(|m| m == uci)
}

fn play(p: &Position, text: &str) -> Position {
    let m = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.fen()));
    p.clone().play(m).expect("parse_move returns legal moves")
}

#[test]
fn r1_start_position_is_orthodox() {
    let p = Position::new();
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
    // rules.md: the counts equal orthodox chess to depth 4.
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 2), 400);
    assert_eq!(perft(&p, 3), 8902);
    assert_eq!(perft(&p, 4), 197_281);
}

#[test]
fn r2_captured_man_enters_the_captors_prison() {
    let mut p = Position::new();
    for m in ["e4", "d5", "exd5"] {
        p = play(&p, m);
    }
    assert_eq!(
        p.prison(Color::White).count(Role::Pawn),
        1,
        "White holds the black pawn"
    );
    assert!(p.prison(Color::Black).is_empty());
    p = play(&p, "Qxd5");
    assert_eq!(
        p.prison(Color::Black).count(Role::Pawn),
        1,
        "Black holds the white pawn"
    );
    // rules.md gives this FEN for the position.
    assert_eq!(
        p.fen(),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"
    );
}

#[test]
fn r3_released_man_waits_in_its_owners_airfield() {
    // White holds a black knight and Black holds a white pawn.
    let p = pos("7k/8/8/8/8/8/8/K7[#Pn] w - - 0 1");
    let p = play(&p, "(N-P)*e4");
    assert_eq!(p.airfield(Color::Black).count(Role::Knight), 1);
    assert!(p.prison(Color::White).is_empty());
    assert!(p.prison(Color::Black).is_empty());
    assert_eq!(p.fen(), "7k/8/8/8/4P3/8/8/K7[n] b - - 0 1");
    // Black may now drop it (61 empty squares) or move the king (3 squares).
    assert_eq!(p.legal_moves().len(), 61 + 3);
}

#[test]
fn r4_kings_are_never_hostages() {
    let err = Position::from_fen("7k/8/8/8/8/8/8/K7[#K] w - - 0 1").unwrap_err();
    assert_eq!(err.code(), PositionError::KingInReserve.code());
    let err = Position::from_fen("7k/8/8/8/8/8/8/K7[k] w - - 0 1").unwrap_err();
    assert_eq!(err.code(), "king_in_reserve");
}

#[test]
fn r5_exchange_obeys_the_value_order() {
    // White holds a black knight; Black holds a white rook and a white pawn.
    // Knight (2) >= pawn (1) but < rook (3): only (N-P), on the 48 squares
    // of ranks 2-7, plus 3 king moves.
    let p = pos("7k/8/8/8/8/8/8/K7[#RPn] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 48 + 3);
    assert!(has(&p, "P#N@e4"));
    assert!(!has(&p, "R#N@e4"));
}

#[test]
fn r5_distinct_released_roles_are_distinct_moves() {
    // Releasing a knight or a bishop to rescue the same pawn: 2 x 48 + 3.
    let p = pos("7k/8/8/8/8/8/8/K7[#Pnb] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 2 * 48 + 3);
    assert!(has(&p, "P#N@c3") && has(&p, "P#B@c3"));
}

#[test]
fn r5_exchange_needs_both_prisons() {
    let p = pos("7k/8/8/8/8/8/8/K7[#n] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 3);
}

#[test]
fn r5_exchange_can_block_a_check() {
    // Rook e8 checks along the e-file. King: d1 d2 f1 f2 (e2 is on the file).
    // (N-P) blocks on e2..e7: 6 moves.
    let p = pos("4r2k/8/8/8/8/8/8/4K3[#Pn] w - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.legal_moves().len(), 4 + 6);
    assert!(has(&p, "P#N@e5"));
    assert!(!has(&p, "P#N@d5"));
}

#[test]
fn r5_exchange_freezing_the_checking_pawn() {
    // The black pawn d2 checks e1 only because White's prison holds a black
    // knight. The king cannot move (own men on d1 f1 e2 f2; d2 is guarded by
    // the bishop b4), nothing can take d2, and a pawn check cannot be
    // blocked. Releasing the knight freezes d2 (R8), so every (N-P) exchange
    // is legal: the 44 empty squares of ranks 2-7.
    let p = pos("7k/8/8/8/1b6/8/3pPP2/3NKB2[#Pn] w - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.legal_moves().len(), 44);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| matches!(m, Move::Exchange { .. })));
    let after = play(&p, "(N-P)*a7");
    assert!(!after.can_promote(Color::Black));
}

#[test]
fn r5_exchange_answering_a_double_check() {
    // Rook e8 and live pawn d2 both check. King: d1, xd2, f1, f2 (e2 on the
    // file). Releasing the only black piece in White's prison freezes the
    // pawn, and the rescued pawn then blocks the rook on e2..e7: 6 more.
    let p = pos("4r2k/8/8/8/8/8/3p4/4K3[#Pn] w - - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(p.legal_moves().len(), 4 + 6);
    // With a second black knight in prison, releasing one freezes nothing.
    let p = pos("4r2k/8/8/8/8/8/3p4/4K3[#Pnn] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 4);
}

#[test]
fn r5_exchange_can_mate() {
    // Smothered mate by exchange: (B-N)N*f7#.
    let p = pos("6rk/6pp/8/8/8/8/8/K7[#Nb] w - - 0 1");
    let m = Move::Exchange {
        released: Role::Bishop,
        rescued: Role::Knight,
        to: Square::F7,
    };
    assert_eq!(San::write(&p, &m), "(B-N)N*f7#");
    let after = p.play(m).expect("legal");
    assert!(after.is_checkmate());
    assert_eq!(
        after.outcome(),
        Some(Outcome {
            termination: Termination::Checkmate,
            winner: Some(Color::White)
        })
    );
}

#[test]
fn r6_airfield_drop_and_pawn_restriction() {
    // A pawn in White's airfield: 48 squares of ranks 2-7, plus 3 king moves.
    let p = pos("7k/8/8/8/8/8/8/K7[P] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 48 + 3);
    assert!(!has(&p, "P@e8") && !has(&p, "P@e1"));
    // A knight: all 62 empty squares.
    let p = pos("7k/8/8/8/8/8/8/K7[N] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 62 + 3);
}

#[test]
fn r6_drop_can_mate() {
    let p = pos("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1");
    let after = play(&p, "N*f7");
    assert!(after.is_checkmate());
}

#[test]
fn r6_dropped_pawn_double_steps_and_can_be_taken_en_passant() {
    let p = pos("4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1");
    let p = play(&p, "*e2");
    let p = play(&p, "Kd8");
    assert!(
        has(&p, "e2e4"),
        "a pawn dropped on its 2nd rank may double-step"
    );
    let p = play(&p, "e4");
    assert_eq!(p.ep_square(), Some(Square::E3));
    assert!(p.fen().contains(" e3 "));
    assert!(has(&p, "d4e3"));
    let p = play(&p, "dxe3");
    assert_eq!(p.prison(Color::Black).count(Role::Pawn), 1);
}

#[test]
fn r6_drop_never_creates_en_passant() {
    // Dropping a pawn on e4 beside the black pawn d4: no en passant.
    let p = pos("4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1");
    let p = play(&p, "*e4");
    assert_eq!(p.ep_square(), None);
    assert!(!has(&p, "d4e3"));
}

#[test]
fn r6_rook_dropped_on_its_corner_revives_castling() {
    // The king never moved (E) and a rook waits in the airfield.
    let p = pos("4k3/8/8/8/8/8/8/4K3[R] w E - 0 1");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K3[R] w E - 0 1");
    let p = play(&p, "R*h1");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K2R[] b K - 1 1");
    let p = play(&p, "Kd7");
    assert!(has(&p, "e1g1"));
    let p = play(&p, "O-O");
    assert_eq!(
        p.board().piece_at(Square::G1).map(|x| x.role),
        Some(Role::King)
    );
    assert_eq!(
        p.board().piece_at(Square::F1).map(|x| x.role),
        Some(Role::Rook)
    );
}

#[test]
fn r9_no_revival_once_the_king_has_moved() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1");
    let p = play(&p, "R*h1");
    assert!(p.fen().contains(" b - "));
}

#[test]
fn r7_promotion_fetches_a_man_from_the_enemy_prison() {
    // Black's prison holds a white knight and queen: e8=N and e8=Q, plus 3
    // king moves.
    let p = pos("7k/4P3/8/8/8/8/8/K7[#NQ] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 2 + 3);
    assert!(has(&p, "e7e8q") && has(&p, "e7e8n") && !has(&p, "e7e8r"));
    let p = play(&p, "e8=Q");
    // The pawn changed places with the queen: it is now in Black's prison.
    assert_eq!(p.fen(), "4Q2k/8/8/8/8/8/8/K7[#NP] b - - 0 1");
}

#[test]
fn r8_frozen_pawn_cannot_reach_the_last_rank() {
    // Black's prison holds no white piece: e7 is frozen. Only 3 king moves.
    let p = pos("7k/4P3/8/8/8/8/8/K7[] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 3);
    // A white pawn in Black's prison does not help (pawns are not promotion roles).
    let p = pos("7k/4P3/8/8/8/8/8/K7[#P] w - - 0 1");
    assert_eq!(p.legal_moves().len(), 3);
}

#[test]
fn r8_frozen_pawn_gives_no_check() {
    let frozen = pos("3k4/4P3/8/8/8/8/8/K7[] b - - 0 1");
    assert!(!frozen.is_check());
    assert!(frozen.is_pseudo_check());
    // The king may stay next to it: c8 c7 d7 e8 xe7, and nothing else.
    assert_eq!(frozen.legal_moves().len(), 5);
    let live = pos("3k4/4P3/8/8/8/8/8/K7[#N] b - - 0 1");
    assert!(live.is_check());
    assert!(!live.is_pseudo_check());
}

#[test]
fn r8a_capture_that_unfreezes_a_pawn_is_illegal() {
    // Rxa5 would put the white knight in Black's prison, unfreezing e7,
    // which attacks d8. Rook: a7 a6 b8 c8; king: c8 c7 d7 e8 xe7.
    let p = pos("r2k4/4P3/8/N7/8/8/8/K7[] b - - 0 1");
    assert!(!has(&p, "a8a5"));
    assert_eq!(p.legal_moves().len(), 4 + 5);
    // Away from the pawn the same capture is fine.
    let p = pos("r6k/4P3/8/N7/8/8/8/K7[] b - - 0 1");
    assert!(has(&p, "a8a5"));
}

#[test]
fn r8a_king_capture_that_unfreezes_a_pawn_is_illegal() {
    // Kxf8 would unfreeze e7, which attacks f8. Kxe7 is guarded by the
    // bishop. d8 (frozen pawn's diagonal), d7 and f7 remain.
    let p = pos("4kB2/4P3/8/8/8/8/8/K7[] b - - 0 1");
    assert_eq!(uci_moves(&p), ["e8d7", "e8d8", "e8f7"]);
}

#[test]
fn r8a_capturing_promotion_that_unfreezes_a_pawn_is_illegal() {
    // bxa8=Q would put the black rook in White's prison, unfreezing d2 next
    // to White's king. Legal: b8=Q and the king's d1 xd2 e2 f1 f2.
    let p = pos("r3k3/1P6/8/8/8/8/3p4/4K3[#Q] w - - 0 1");
    assert!(p.is_pseudo_check());
    assert!(!has(&p, "b7a8q"));
    assert_eq!(p.legal_moves().len(), 6);
}

#[test]
fn r9_castling_over_a_frozen_pawns_diagonal() {
    // g2 is frozen: it does not attack f1, so O-O is legal. King: d1 d2 e2
    // f1 f2; rook: f1 g1 h2..h8; castling: 1.
    let p = pos("4k3/8/8/8/8/8/6p1/4K2R[] w K - 0 1");
    assert!(has(&p, "e1g1"));
    assert_eq!(p.legal_moves().len(), 5 + 9 + 1);
    // Unfrozen (White holds a black knight): f1 is attacked, no castling, no Kf1.
    let p = pos("4k3/8/8/8/8/8/6p1/4K2R[#n] w K - 0 1");
    assert!(!has(&p, "e1g1") && !has(&p, "e1f1"));
    assert_eq!(p.legal_moves().len(), 4 + 9);
}

#[test]
fn r9_capturing_the_corner_rook_loses_the_right() {
    let p = pos("r3k3/8/8/8/8/8/8/R3K3[] b Q - 0 1");
    let p = play(&p, "Rxa1");
    assert!(p.fen().contains(" w E "), "{}", p.fen());
}

#[test]
fn r10_en_passant_only_when_legal() {
    // After d7-d5 the e5 pawn may take en passant; the FEN shows it.
    let p = pos("4k3/3p4/8/4P3/8/8/8/4K3[] b - - 0 1");
    let p = play(&p, "d5");
    assert_eq!(p.fen(), "4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 2");
    // Pinned capturer: no en-passant square is written.
    let p = pos("4k3/3p4/8/r3P2K/8/8/8/8[] b - - 0 1");
    let p = play(&p, "d5");
    assert_eq!(p.ep_square(), None);
    assert!(p.fen().contains(" - 0 2"));
}

#[test]
fn r11_drops_and_exchanges_count_as_defences() {
    // Back-rank check by the rook a8: without reserves it is mate.
    let mated = pos("R5k1/5ppp/8/8/8/8/8/K7[] b - - 0 1");
    assert!(mated.is_checkmate());
    // A knight in Black's airfield can block on b8..f8: not mate.
    let saved = pos("R5k1/5ppp/8/8/8/8/8/K7[n] b - - 0 1");
    assert!(!saved.is_checkmate());
    assert_eq!(saved.legal_moves().len(), 5);
}

#[test]
fn r12_stalemate_unless_a_drop_remains() {
    let p = pos("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1");
    assert!(p.is_stalemate());
    assert_eq!(
        p.outcome(),
        Some(Outcome {
            termination: Termination::Stalemate,
            winner: None
        })
    );
    // A knight in Black's airfield: 61 drops, no stalemate.
    let p = pos("7k/5Q2/6K1/8/8/8/8/8[n] b - - 0 1");
    assert_eq!(p.legal_moves().len(), 61);
}

#[test]
fn r12_fifty_moves_counts_pawn_drops_not_piece_exchanges() {
    let p = pos("7k/8/8/8/8/8/8/K7[#NPn] w - - 99 80");
    // A knight exchange does not reset the clock: 100 plies, a draw.
    let after = play(&p, "(N-N)N*c3");
    assert_eq!(after.halfmoves(), 100);
    assert_eq!(
        after.outcome().map(|o| o.termination),
        Some(Termination::FiftyMoves)
    );
    // A pawn rescued by exchange does.
    let after = play(&p, "(N-P)*c3");
    assert_eq!(after.halfmoves(), 0);
    assert_eq!(after.outcome(), None);
}

#[test]
fn uci_forms_round_trip() {
    let p = pos("7k/4P3/8/8/8/8/8/K7[N#NQn] w - - 0 1");
    for m in p.legal_moves() {
        let text = m.to_uci().to_string();
        let parsed: UciMove = text.parse().expect("own output parses");
        assert_eq!(parsed.to_move(&p), Ok(m), "{text}");
    }
}

#[test]
fn positions_compare_by_value() {
    let a = pos("4k3/8/8/8/8/8/8/4K3[R] w E - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3[R] w E - 0 1");
    assert_eq!(a, b);
    assert_ne!(a, pos("4k3/8/8/8/8/8/8/4K3[#R] w E - 0 1"));
    // An en-passant square that allows no legal capture is not part of it.
    assert_eq!(
        pos("4k3/8/8/3p4/8/8/8/4K3[] w - d6 0 2"),
        pos("4k3/8/8/3p4/8/8/8/4K3[] w - - 0 2")
    );
}
