//! Property tests over random legal games (proptest).
//!
//! After every move of a random game: the FEN round-trips, the incremental
//! hash equals the one computed from scratch, each colour's men are conserved
//! over board + own airfield + enemy prison (R1/R2), every generated move
//! passes `is_legal`, the capture-and-promotion list is the matching part
//! of the full list, the side that just moved is not in check, and a random
//! move that is not legal is rejected without changing anything.

use hostage_core::{fen::Fen, Color, Move, Position, Role, Setup, Square};
use proptest::prelude::*;

/// Hostage-rich starting points (all legal; see `tests/vectors/rules.perft`
/// for more).
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3",
    "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
];

fn men(pos: &Position, color: Color) -> [u32; 6] {
    pos.to_setup().men(color)
}

fn arbitrary_move(seed: u64) -> Move {
    let sq = |s: u64| Square::new((s % 64) as u32).unwrap_or(Square::A1);
    let role = |s: u64| Role::ALL[(s % 6) as usize];
    let opt_role = |s: u64| if s % 3 == 0 { None } else { Some(role(s / 3)) };
    match seed % 5 {
        0 => Move::Normal {
            role: role(seed >> 3),
            from: sq(seed >> 6),
            capture: opt_role(seed >> 12),
            to: sq(seed >> 18),
            promotion: opt_role(seed >> 24),
        },
        1 => Move::EnPassant {
            from: sq(seed >> 3),
            to: sq(seed >> 9),
        },
        2 => Move::Castle {
            king: sq(seed >> 3),
            rook: sq(seed >> 9),
        },
        3 => Move::Drop {
            role: role(seed >> 3),
            to: sq(seed >> 6),
        },
        _ => Move::Exchange {
            released: role(seed >> 3),
            rescued: role(seed >> 6),
            to: sq(seed >> 9),
        },
    }
}

fn check_position(pos: &Position, start_men: &[[u32; 6]; 2], probe: u64) {
    let fen = pos.fen();
    // FEN round trip: same text, same hash.
    let again = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(again.fen(), fen);
    assert_eq!(again.zobrist_hash(), pos.zobrist_hash(), "{fen}");
    let reparsed: Fen = fen.parse().expect("canonical fen parses");
    assert_eq!(reparsed.to_string(), fen);
    // Incremental hash.
    assert_eq!(pos.zobrist_hash(), pos.zobrist_hash_from_scratch(), "{fen}");
    // R1/R2 conservation.
    assert_eq!(men(pos, Color::White), start_men[0], "{fen}");
    assert_eq!(men(pos, Color::Black), start_men[1], "{fen}");
    // One king each, the side not to move not in check.
    let setup: Setup = pos.to_setup();
    assert_eq!(setup.board.by_piece(Role::King.of(Color::White)).count(), 1);
    assert_eq!(setup.board.by_piece(Role::King.of(Color::Black)).count(), 1);
    // Generated moves are legal, and listed once.
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_legal_moves(), "{fen}");
    for m in &moves {
        assert!(pos.is_legal(m), "{fen}: {m:?}");
    }
    // The quiescence generator yields exactly the captures and promotions
    // of the full list, in any order.
    let mut tactical = hostage_core::MoveList::new();
    pos.legal_captures_into(&mut tactical);
    let mut expected: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            m.is_capture()
                || matches!(
                    m,
                    Move::Normal {
                        promotion: Some(_),
                        ..
                    }
                )
        })
        .collect();
    let key = |m: &Move| format!("{m:?}");
    tactical.sort_by_key(key);
    expected.sort_by_key(key);
    assert_eq!(tactical, expected, "{fen}");
    let mut sorted = moves.clone();
    sorted.sort_by_key(|m| format!("{m:?}"));
    sorted.dedup();
    assert_eq!(sorted.len(), moves.len(), "duplicate moves in {fen}");
    check_dests(pos, &moves);
    // A random move: legal iff listed; an illegal one changes nothing.
    for k in 0..8 {
        let m =
            arbitrary_move(probe.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(k * 8) ^ k as u64);
        let listed = moves.contains(&m);
        assert_eq!(pos.is_legal(&m), listed, "{fen}: {m:?}");
        match pos.clone().play(m) {
            Ok(_) => assert!(listed),
            Err(err) => {
                assert!(!listed);
                assert_eq!(err.position.fen(), fen);
                assert_eq!(err.position.zobrist_hash(), pos.zobrist_hash());
            }
        }
    }
}

/// `Position::dests` holds exactly the destinations of the legal moves:
/// every legal move is in its group, and every destination listed is the
/// destination of a legal move of that group.
fn check_dests(pos: &Position, moves: &[Move]) {
    let fen = pos.fen();
    let dests = pos.dests();
    for m in moves {
        let listed = match *m {
            Move::Drop { role, to } => dests.drop(role).contains(to),
            Move::Exchange {
                released,
                rescued,
                to,
            } => dests.exchange(released, rescued).contains(to),
            _ => m
                .from()
                .is_some_and(|from| dests.from(from).contains(m.to())),
        };
        assert!(listed, "{fen}: {m:?} missing from dests");
    }
    for &(from, to) in &dests.board {
        assert!(to.any(), "{fen}: empty group for {from}");
        for sq in to {
            assert!(
                moves.iter().any(|m| m.from() == Some(from) && m.to() == sq),
                "{fen}: {from}{sq} listed but no legal move"
            );
        }
    }
    for &(role, to) in &dests.drops {
        for sq in to {
            assert!(
                moves.contains(&Move::Drop { role, to: sq }),
                "{fen}: drop {role:?}@{sq}"
            );
        }
    }
    for &(released, rescued, to) in &dests.exchanges {
        for sq in to {
            let m = Move::Exchange {
                released,
                rescued,
                to: sq,
            };
            assert!(moves.contains(&m), "{fen}: {m:?} listed but not legal");
        }
    }
}

fn random_game(start: &str, choices: &[u32], probe: u64) {
    let mut pos = Position::from_fen(start).expect("valid start");
    let start_men = [men(&pos, Color::White), men(&pos, Color::Black)];
    for (ply, &choice) in choices.iter().enumerate() {
        check_position(&pos, &start_men, probe ^ ply as u64);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            assert!(pos.is_checkmate() || pos.is_stalemate());
            return;
        }
        let m = moves[choice as usize % moves.len()];
        let mover = pos.turn();
        pos = pos.play(m).expect("listed moves are legal");
        // The side that just moved is not in check (R8a included):
        // revalidating the position checks exactly that (`opposite_check`).
        if let Err(e) = Position::from_setup(pos.to_setup()) {
            panic!("{} after {mover:?} moved: {e}", pos.fen());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(
        start in 0..STARTS.len(),
        choices in proptest::collection::vec(any::<u32>(), 0..160),
        probe in any::<u64>(),
    ) {
        random_game(STARTS[start], &choices, probe);
    }
}

#[test]
fn capture_heavy_games_fill_the_reserves() {
    // Deterministic games preferring captures, then exchanges and drops, so
    // that prisons and airfields are exercised deeply.
    for seed in 0..24u64 {
        let mut pos = Position::new();
        let start_men = [men(&pos, Color::White), men(&pos, Color::Black)];
        let mut state = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
        for ply in 0..220u64 {
            check_position(&pos, &start_men, state ^ ply);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let preferred: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_capture() || (m.is_drop() && state % 3 == 0))
                .collect();
            let pool = if preferred.is_empty() || state % 5 == 0 {
                &moves
            } else {
                &preferred
            };
            pos.play_unchecked(pool[(state >> 11) as usize % pool.len()]);
        }
    }
}

/// SAN and UCI of every legal move along random games parse back to the
/// same move (SAN leniently and strictly); the PGN of the whole game reads
/// back as the same game and writes identically.
fn notation_round_trips(start: &str, choices: &[u32]) {
    use hostage_core::{game::Game, pgn::PgnGame, san::San, uci::UciMove};

    let mut game = Game::from_position(Position::from_fen(start).expect("valid start"));
    for &choice in choices {
        let pos = game.position().clone();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        for m in &moves {
            let san = San::write(&pos, m);
            let parsed = San::from_ascii(san.as_bytes()).and_then(|s| s.to_move(&pos));
            assert_eq!(parsed, Ok(*m), "{san} in {}", pos.fen());
            let strict =
                San::from_ascii_strict(san.as_bytes()).and_then(|s| s.to_move_strict(&pos));
            assert_eq!(strict, Ok(*m), "strict {san} in {}", pos.fen());
            // The mark is right: `#` exactly for mate, `+` for other checks.
            let mut after = pos.clone();
            after.play_unchecked(*m);
            assert_eq!(san.ends_with('#'), after.is_checkmate(), "{san}");
            assert_eq!(
                san.ends_with('+'),
                after.is_check() && !after.is_checkmate(),
                "{san}"
            );
            let uci = m.to_uci().to_string();
            let back = uci
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok());
            assert_eq!(back, Some(*m), "{uci} in {}", pos.fen());
        }
        game.push(moves[choice as usize % moves.len()])
            .expect("legal");
    }
    let written = PgnGame::from_game(&game).write();
    let read = PgnGame::read(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(read.mainline_moves(), game.moves(), "{written}");
    assert_eq!(read.write(), written);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn san_uci_and_pgn_round_trip(
        start in 0..STARTS.len(),
        choices in proptest::collection::vec(any::<u32>(), 0..80),
    ) {
        notation_round_trips(STARTS[start], &choices);
    }
}
