//! Why a move is illegal: `Position::illegal_reason`, and the reasons SAN
//! and long-form errors carry.
//!
//! One hand-made position per reason, each with the rule that forbids the
//! move in a comment (worked out from docs/rules.md, not from the code);
//! then the property that `illegal_reason(m)` is `None` exactly for the
//! moves of the legal move list, over every board move of every man, every
//! drop, exchange, castling and en-passant capture, in the rule-exercising
//! positions of tests/vectors/rules.perft and along random games from them.

use hostage_core::{
    game::Game, san::SanError, uci::UciError, Bitboard, CastlingSide, IllegalReason, Move,
    Position, Rank, Role, Square,
};

use IllegalReason::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The reason SAN `text` is refused in `fen`.
fn san_reason(fen: &str, text: &str) -> Option<IllegalReason> {
    match pos(fen).parse_san(text) {
        Err(e @ SanError::Illegal { .. }) => e.reason(),
        other => panic!("{text} in {fen}: expected an illegal move, got {other:?}"),
    }
}

/// The reason long-form `text` is refused in `fen`.
fn uci_reason(fen: &str, text: &str) -> Option<IllegalReason> {
    match pos(fen).parse_uci(text) {
        Err(e @ UciError::Illegal { .. }) => e.reason(),
        other => panic!("{text} in {fen}: expected an illegal move, got {other:?}"),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

#[test]
fn r1_no_own_man() {
    // R1: e3 is empty; e7 holds a black pawn and White is to move.
    assert_eq!(uci_reason(START, "e3e4"), Some(NoOwnMan));
    assert_eq!(uci_reason(START, "e7e5"), Some(NoOwnMan));
    // White has no bishop at all.
    assert_eq!(
        san_reason("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", "Bc4"),
        Some(NoOwnMan)
    );
    // Only a hand-built move can name the wrong man.
    let knight_e2 = Move::Normal {
        role: Role::Knight,
        from: Square::E2,
        capture: None,
        to: Square::D4,
        promotion: None,
    };
    assert_eq!(pos(START).illegal_reason(&knight_e2), Some(Mismatch));
}

#[test]
fn r1_wrong_way_blocked_and_own_target() {
    // R1: a pawn steps one square, two from its 2nd rank; the king one.
    assert_eq!(uci_reason(START, "e2e5"), Some(WrongWay));
    assert_eq!(san_reason(START, "Ke3"), Some(WrongWay));
    // The d1-h5 diagonal passes e2, where White's pawn stands.
    assert_eq!(san_reason(START, "Qh5"), Some(PathBlocked));
    // The e-pawn cannot advance through or onto a man.
    let blocked = "4k3/8/8/8/8/4n3/4P3/4K3[] w - - 0 1";
    assert_eq!(uci_reason(blocked, "e2e3"), Some(PathBlocked));
    assert_eq!(uci_reason(blocked, "e2e4"), Some(PathBlocked));
    // g1-e2 is a knight's move, but White's own pawn stands on e2.
    assert_eq!(san_reason(START, "Ne2"), Some(OwnManOnTarget));
    // A pawn moves diagonally only to capture.
    assert_eq!(uci_reason(START, "e2d3"), Some(WrongWay));
}

#[test]
fn r10_en_passant() {
    // R10: Black's d-pawn stands beside e5, but no double step was just
    // made (no en-passant square), so exd6 is not available.
    let fen = "4k3/8/8/3pP3/8/8/8/4K3[] w - - 0 1";
    assert_eq!(uci_reason(fen, "e5d6"), Some(NoEnPassant));
    assert_eq!(san_reason(fen, "exd6"), Some(NoEnPassant));
    // With the double step just made, the capture is legal ...
    let fen = "4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 2";
    assert!(pos(fen).parse_san("exd6").is_ok());
    // ... unless it uncovers the king: rook a5, pawns d5/e5, king h5.
    let pinned = "4k3/8/8/r2pP2K/8/8/8/8[] w - d6 0 2";
    assert_eq!(uci_reason(pinned, "e5d6"), Some(LeavesKingInCheck));
    assert_eq!(san_reason(pinned, "exd6"), Some(LeavesKingInCheck));
}

#[test]
fn r7_r8_frozen_pawn_and_promotion() {
    // R8: Black's prison holds no white piece, so the a7 pawn is frozen.
    let frozen = "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1";
    assert_eq!(uci_reason(frozen, "a7a8q"), Some(FrozenPawn));
    assert_eq!(san_reason(frozen, "a8=Q"), Some(FrozenPawn));
    assert_eq!(san_reason(frozen, "a8"), Some(FrozenPawn));
    // R7: a white queen is in Black's prison; the pawn must fetch it.
    let queen = "4k3/P7/8/8/8/8/8/4K3[#Q] w - - 0 1";
    assert_eq!(uci_reason(queen, "a7a8"), Some(PromotionRequired));
    assert_eq!(uci_reason(queen, "a7a8r"), Some(PromotionUnavailable));
    assert_eq!(san_reason(queen, "a8=R"), Some(PromotionUnavailable));
    assert!(pos(queen).parse_san("a8").is_ok());
}

#[test]
fn r9_castling() {
    // R9: only the queen-side right is left.
    let rights = "4k3/8/8/8/8/8/8/R3K2R[] w Q - 0 1";
    assert_eq!(san_reason(rights, "O-O"), Some(NoCastlingRight));
    assert_eq!(uci_reason(rights, "e1g1"), Some(NoCastlingRight));
    // R9: b1 must be empty for O-O-O.
    let blocked = "4k3/8/8/8/8/8/8/RN2K2R[] w KQ - 0 1";
    assert_eq!(san_reason(blocked, "O-O-O"), Some(PathBlocked));
    // R9: the rook on f2 attacks f1, which the king crosses; the rook on
    // e7 gives check; the rook on g2 attacks g1, where the king lands.
    let through = "4k3/8/8/8/8/8/5r2/R3K2R[] w KQ - 0 1";
    assert_eq!(san_reason(through, "O-O"), Some(CastlingThroughCheck));
    assert!(pos(through).parse_san("O-O-O").is_ok());
    let in_check = "4k3/4r3/8/8/8/8/8/R3K2R[] w KQ - 0 1";
    assert_eq!(san_reason(in_check, "O-O-O"), Some(CastlingThroughCheck));
    let landing = "4k3/8/8/8/8/8/6r1/R3K2R[] w KQ - 0 1";
    assert_eq!(san_reason(landing, "O-O"), Some(LeavesKingInCheck));
    // R8/R9: Black's f2 pawn is frozen (White's prison holds no black
    // piece), so it attacks neither e1 nor f1 nor g1 and White may castle;
    // with a black queen in White's prison it is live and gives check.
    assert!(pos("4k3/8/8/8/8/8/5p2/R3K2R[] w KQ - 0 1")
        .parse_san("O-O")
        .is_ok());
    assert_eq!(
        san_reason("4k3/8/8/8/8/8/5p2/R3K2R[#q] w KQ - 0 1", "O-O"),
        Some(CastlingThroughCheck)
    );
}

#[test]
fn r6_drops() {
    // R6: White's airfield is empty at the start.
    assert_eq!(san_reason(START, "N*e4"), Some(NotInAirfield));
    assert_eq!(uci_reason(START, "N@e4"), Some(NotInAirfield));
    // R6: a dropped man needs an empty square; the king stands on e1.
    assert_eq!(
        san_reason("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "N*e1"),
        Some(SquareOccupied)
    );
    // R6: never a pawn on rank 1 or 8.
    let pawn = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1";
    assert_eq!(san_reason(pawn, "*a8"), Some(PawnOnBackRank));
    assert_eq!(san_reason(pawn, "*a1"), Some(PawnOnBackRank));
    assert!(pos(pawn).parse_san("*a2").is_ok());
    // R11/R6: in check from e7, a drop must block on the e-file.
    let check = "4k3/4r3/8/8/8/8/8/4K3[N] w - - 0 1";
    assert_eq!(san_reason(check, "N*a3"), Some(LeavesKingInCheck));
    assert!(pos(check).parse_san("N*e4").is_ok());
}

#[test]
fn r5_exchanges() {
    // After 1.e4 d5 2.exd5 Qxd5: White's prison holds a black pawn, Black's
    // a white pawn (R2).
    let fen = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3";
    // R5: White holds no black knight to release ...
    assert_eq!(san_reason(fen, "(N-P)*e4"), Some(ReleasedNotHeld));
    // ... and Black holds no white knight to rescue.
    assert_eq!(san_reason(fen, "(P-N)N*e4"), Some(RescuedNotHeld));
    assert_eq!(uci_reason(fen, "N#P@e4"), Some(RescuedNotHeld));
    // R5: a pawn (1) cannot pay for a knight (2).
    let value = "4k3/8/8/8/8/8/8/4K3[#Np] w - - 0 1";
    assert_eq!(san_reason(value, "(P-N)N*e4"), Some(ExchangeValue));
    // R5 with R6: the rescued man is dropped on an empty square, a pawn
    // never on rank 1 or 8.
    assert_eq!(san_reason(fen, "(P-P)*d2"), Some(SquareOccupied));
    assert_eq!(san_reason(fen, "(P-P)*e8"), Some(SquareOccupied));
    assert_eq!(
        san_reason("4k3/8/8/8/8/8/8/4K3[#Pp] w - - 0 1", "(P-P)*a8"),
        Some(PawnOnBackRank)
    );
}

#[test]
fn r8a_king_safety() {
    // The rook on e3 attacks e2 (the "Ke5 is not legal here").
    let fen = "4k3/8/8/8/8/4r3/8/4K3[] w - - 0 1";
    assert_eq!(san_reason(fen, "Ke2"), Some(LeavesKingInCheck));
    // Kings never stand side by side.
    assert_eq!(
        san_reason("8/8/8/3k4/8/4K3/8/8[] w - - 0 1", "Ke4"),
        Some(LeavesKingInCheck)
    );
    // The e2 bishop is pinned by the rook on e7.
    let pinned = "4k3/4r3/8/8/8/8/4B3/4K3[] w - - 0 1";
    assert_eq!(san_reason(pinned, "Bd3"), Some(LeavesKingInCheck));
    // SAN names the knight that got furthest: e2-d4 is a knight's move
    // but uncovers the king; b1 cannot reach d4 at all.
    let two = "4k3/4r3/8/8/8/8/4N3/1N2K3[] w - - 0 1";
    assert_eq!(san_reason(two, "Nd4"), Some(LeavesKingInCheck));
}

#[test]
fn r8a_pseudo_check() {
    // R8a: Black's e2 pawn is frozen (White's prison is empty) and attacks
    // f1, so White's king there is not in check. Taking the knight puts a
    // black piece in White's prison: the pawn could then promote, and it
    // attacks the king.
    let fen = "4k3/8/8/n7/8/8/4p3/R4K2[] w - - 0 1";
    assert!(!pos(fen).is_check());
    assert_eq!(san_reason(fen, "Rxa5"), Some(UnfreezesPawn));
    // Taking a pawn unfreezes nothing.
    assert!(pos("4k3/8/8/p7/8/8/4p3/R4K2[] w - - 0 1")
        .parse_san("Rxa5")
        .is_ok());
    // The king's own capture: Kxf1 puts the bishop in White's prison, and
    // the e2 pawn, now able to promote, attacks f1.
    let king = "4k3/8/8/8/8/8/4p3/4Kb2[] w - - 0 1";
    assert_eq!(san_reason(king, "Kxf1"), Some(UnfreezesPawn));
    // Frozen, the pawn guards nothing on rank 1.
    assert!(pos(king).parse_san("Kd1").is_ok());
}

#[test]
fn messages_codes_and_errors() {
    let fen = "4k3/8/8/8/8/4r3/8/4K3[] w - - 0 1";
    let err = pos(fen).parse_san("Ke2").unwrap_err();
    assert_eq!(err.code(), "illegal_san");
    assert_eq!(
        err.to_string(),
        format!("illegal san: 'Ke2' in {fen}: the mover's king would be in check")
    );
    let m = pos(fen).parse_uci("e1d1").expect("legal");
    let e1e2 = Move::Normal {
        role: Role::King,
        from: Square::E1,
        capture: None,
        to: Square::E2,
        promotion: None,
    };
    let err = pos(fen).play(e1e2).unwrap_err();
    assert_eq!(err.reason(), Some(LeavesKingInCheck));
    assert!(err
        .to_string()
        .ends_with(": the mover's king would be in check"));
    let mut game = Game::from_position(pos(fen));
    let err = game.push(e1e2).unwrap_err();
    assert_eq!(err.reason(), Some(LeavesKingInCheck));
    assert!(game.push(m).is_ok());
    // Text that is not a move, or an ambiguous one, has no reason.
    assert_eq!(pos(START).parse_san("Zz9").unwrap_err().reason(), None);
    // Codes are distinct and round-trip.
    for (i, r) in IllegalReason::ALL.iter().enumerate() {
        assert_eq!(IllegalReason::from_code(r.code()), Some(*r));
        assert!(IllegalReason::ALL[..i].iter().all(|o| o.code() != r.code()));
        assert!(!r.to_string().is_empty());
    }
    assert_eq!(IllegalReason::from_code("nonsense"), None);
}

#[test]
fn docs_list_every_reason() {
    // docs/rules.md, "Why a move is illegal": one row per reason, with its
    // code; the bindings' docs and types are checked against that table.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules.md");
    let text = std::fs::read_to_string(path).expect("docs/rules.md");
    let rows = text.lines().filter(|l| l.starts_with("| `")).count();
    for r in IllegalReason::ALL {
        let row = format!("| `{r:?}` (`{}`) |", r.code());
        assert!(text.contains(&row), "docs/rules.md lacks {row}");
    }
    assert!(rows >= IllegalReason::ALL.len());
}

/// Every move a player could try: each man of the side to move to each
/// square (with each promotion on the last rank, and as the position
/// would read it, en passant included), castling both ways, and every
/// drop and exchange of every role on every square.
fn tries(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let mut tries = Vec::new();
    for from in pos.board().by_color(us) {
        let role = pos.board().role_at(from).expect("a man stands there");
        for to in Bitboard::FULL {
            tries.push(Move::Normal {
                role,
                from,
                capture: pos.board().role_at(to),
                to,
                promotion: None,
            });
            if role == Role::Pawn {
                tries.push(Move::EnPassant { from, to });
                if to.rank() == Rank::EIGHTH.relative_to(us) {
                    for p in Role::ALL {
                        tries.push(Move::Normal {
                            role,
                            from,
                            capture: pos.board().role_at(to),
                            to,
                            promotion: Some(p),
                        });
                    }
                }
            }
        }
    }
    for side in CastlingSide::ALL {
        tries.push(Move::Castle {
            king: hostage_core::king_home(us),
            rook: side.rook_square(us),
        });
    }
    for to in Bitboard::FULL {
        for role in Role::ALL {
            tries.push(Move::Drop { role, to });
            for rescued in Role::ALL {
                tries.push(Move::Exchange {
                    released: role,
                    rescued,
                    to,
                });
            }
        }
    }
    tries
}

fn check_agreement(pos: &Position) {
    let legal = pos.legal_moves();
    for m in tries(pos) {
        let reason = pos.illegal_reason(&m);
        assert_eq!(
            reason.is_none(),
            legal.contains(&m),
            "{m:?} in {}: {reason:?}",
            pos.fen()
        );
    }
    for m in &legal {
        assert_eq!(pos.illegal_reason(m), None, "{m:?} in {}", pos.fen());
    }
}

fn rules_positions() -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/rules.perft");
    let text = std::fs::read_to_string(path).expect("rules.perft");
    let mut positions: Vec<Position> = text
        .lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .map(pos)
        .collect();
    positions.push(Position::new());
    positions
}

#[test]
fn reason_is_none_exactly_for_legal_moves() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    for start in rules_positions() {
        // The position itself, then a few short random games from it.
        for _ in 0..6 {
            let mut pos = start.clone();
            for _ in 0..16 {
                check_agreement(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.play_unchecked(moves[(state >> 11) as usize % moves.len()]);
            }
        }
    }
}
