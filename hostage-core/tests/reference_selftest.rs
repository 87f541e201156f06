//! Tests of the reference move generator itself (tests/reference/mod.rs):
//! known perft counts, Hostage FEN round trips and small positions whose
//! move counts are worked out by hand in the comments.

mod reference;

use reference::RefPos;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
const AFTER_QXD5: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3";

fn pos(fen: &str) -> RefPos {
    RefPos::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted_moves(fen: &str) -> Vec<String> {
    let mut m = pos(fen).legal_moves();
    m.sort();
    m
}

fn count_prefix(moves: &[String], prefix: &str) -> usize {
    moves.iter().filter(|m| m.starts_with(prefix)).count()
}

/// Plays a sequence of long-form moves, panicking on an illegal one.
fn play_all(fen: &str, moves: &[&str]) -> RefPos {
    let mut p = pos(fen);
    for m in moves {
        p = p
            .play(m)
            .unwrap_or_else(|| panic!("{m} illegal in {}", p.fen()));
    }
    p
}

// ----------------------------------------------------------------------
// Known counts (rules.md)
// ----------------------------------------------------------------------

#[test]
fn perft_start_shallow() {
    let p = pos(START);
    assert_eq!(p.perft(1), 20);
    assert_eq!(p.perft(2), 400);
    assert_eq!(p.perft(3), 8902);
    assert_eq!(p.perft(4), 197_281);
}

/// About 1 s in the optimized test profile: not ignored.
#[test]
fn perft_start_depth5() {
    assert_eq!(pos(START).perft(5), 4_865_877);
}

#[test]
fn perft_after_qxd5() {
    let p = pos(AFTER_QXD5);
    assert_eq!(p.perft(1), 62);
    assert_eq!(p.perft(2), 4784);
    assert_eq!(p.perft(3), 199_491);
}

/// 12 million nodes, about 2 s in the optimized test profile.
#[test]
fn perft_after_qxd5_depth4() {
    assert_eq!(pos(AFTER_QXD5).perft(4), 12_036_623);
}

/// 119 million nodes, about 20 s in a release build.
#[test]
#[ignore]
fn perft_start_depth6() {
    assert_eq!(pos(START).perft(6), 119_111_367);
}

// ----------------------------------------------------------------------
// The vector files
// ----------------------------------------------------------------------

struct Entry {
    id: String,
    epd: String,
    perft: Vec<(u32, u64)>,
}

fn parse_vectors(text: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key and value");
        match key {
            "id" => out.push(Entry {
                id: rest.to_string(),
                epd: String::new(),
                perft: Vec::new(),
            }),
            "epd" => out.last_mut().expect("id first").epd = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth and count");
                out.last_mut()
                    .expect("id first")
                    .perft
                    .push((d.parse().expect("depth"), n.parse().expect("count")));
            }
            _ => panic!("unknown line {line}"),
        }
    }
    out
}

fn check_vectors(text: &str, max_nodes: u64) {
    let entries = parse_vectors(text);
    assert!(!entries.is_empty());
    for e in entries {
        let p = pos(&e.epd);
        assert_eq!(p.fen(), e.epd, "{}: epd is not canonical", e.id);
        let m = p.mirror();
        for &(d, n) in &e.perft {
            if n <= max_nodes {
                assert_eq!(p.perft(d), n, "{} perft {d}", e.id);
            }
            if d <= 2 {
                assert_eq!(m.perft(d), n, "{} mirrored perft {d}", e.id);
            }
        }
    }
}

#[test]
fn vectors_rules_perft() {
    check_vectors(include_str!("../../tests/vectors/rules.perft"), 3_000_000);
}

#[test]
fn vectors_start_perft() {
    check_vectors(include_str!("../../tests/vectors/start.perft"), 300_000);
}

// ----------------------------------------------------------------------
// Hostage FEN
// ----------------------------------------------------------------------

#[test]
fn fen_round_trips() {
    for fen in [
        START,
        AFTER_QXD5,
        "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1",
        "r3k3/8/8/8/8/8/8/4K2R[] w Kq - 5 20",
        "4k3/8/8/8/8/8/8/4K3[Rr] w Ee - 0 1",
        "r3k3/8/8/8/8/8/8/4K3[R] b Eq - 12 40",
        "4k3/8/8/8/8/8/8/4K3[QNn] b - - 3 7",
        "4k3/8/8/8/8/8/8/4K3[#QRBNPqrbnp] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/6K1[QNPqnp#RBNPrbp] w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/6K1[#p] b - - 99 60",
        "6k1/8/8/8/3pP3/8/8/7K[] b - e3 0 2",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR[] w KQkq f6 0 3",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
}

#[test]
fn fen_lenient_input_is_written_canonically() {
    let cases = [
        // No bracket: empty prisons and airfields.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            START,
        ),
        // Any order inside the brackets.
        (
            "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#pP] w KQkq - 0 3",
            AFTER_QXD5,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[nPqNrQ#pnPR] w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3[QNPqrn#RPnp] w - - 0 1",
        ),
        // An empty prison part is not written.
        (
            "4k3/8/8/8/8/8/8/4K3[N#] w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[#] w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        ),
        // Missing clocks default to 0 1.
        (
            "4k3/8/8/8/8/8/8/4K3[] b -",
            "4k3/8/8/8/8/8/8/4K3[] b - - 0 1",
        ),
        // Castling letters in any order; a K with no rook becomes E.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R[] w qkQK - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[] w Kk - 0 1",
            "4k3/8/8/8/8/8/8/4K3[] w Ee - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R[] w EK - 0 1",
            "4k3/8/8/8/8/8/8/4K2R[] w K - 0 1",
        ),
        // A king off its home square has no castling state at all.
        (
            "4k3/8/8/8/8/8/8/3K3R[] w K - 0 1",
            "4k3/8/8/8/8/8/8/3K3R[] w - - 0 1",
        ),
        // En passant written only when the capture is legal: here dxe3 would
        // expose the black king on a4 to the rook on h4.
        (
            "8/8/8/8/k2pP2R/8/8/4K3[] b - e3 0 1",
            "8/8/8/8/k2pP2R/8/8/4K3[] b - - 0 1",
        ),
        // ... and here no black pawn can take at all.
        (
            "4k3/8/8/8/4P3/8/8/4K3[] b - e3 0 1",
            "4k3/8/8/8/4P3/8/8/4K3[] b - - 0 1",
        ),
    ];
    for (input, canonical) in cases {
        assert_eq!(pos(input).fen(), canonical, "input {input}");
    }
}

#[test]
fn fen_rejects_illegal_positions() {
    for fen in [
        "",
        "8/8/8/8/8/8/8/8[] w - - 0 1",                // no kings
        "4k3/8/8/8/8/8/8/4K2K[] w - - 0 1",           // two white kings
        "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1",           // king in an airfield
        "4k3/8/8/8/8/8/8/4K3[#k] w - - 0 1",          // king in a prison
        "4k3/8/8/8/8/8/8/P3K3[] w - - 0 1",           // pawn on rank 1
        "p3k3/8/8/8/8/8/8/4K3[] w - - 0 1",           // pawn on rank 8
        "4k3/8/8/8/8/8/8/4K3[QQ] w - - 0 1",          // two white queens
        "4k3/8/8/8/8/8/8/Q3K3[#Q] w - - 0 1",         // two white queens
        "4k3/8/8/8/8/8/8/4K3[NN#N] w - - 0 1",        // three white knights
        "4k3/8/8/8/8/8/8/4K3[#pppppppppp] w - - 0 1", // ten black pawns
        "4k3/4R3/8/8/8/8/8/4K3[] w - - 0 1",          // side not to move in check
        "4k3/8/8/8/8/8/8/4K3[] x - - 0 1",            // bad side to move
        "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1",           // bad bracket letter
        "4k3/8/8/8/8/8/8/4K4[] w - - 0 1",            // rank too long
        "4k3/8/8/8/8/8/4K3[] w - - 0 1",              // seven ranks
    ] {
        assert!(RefPos::from_fen(fen).is_err(), "accepted {fen:?}");
    }
    // R8: a frozen pawn gives no check, so this is legal: d7 is White's
    // pawn, Black's prison holds no white Q/R/B/N.
    assert!(RefPos::from_fen("4k3/3P4/8/8/8/8/8/4K3[] w - - 0 1").is_ok());
    // ... but with a white rook in Black's prison the black king is in check
    // with White to move: illegal.
    assert!(RefPos::from_fen("4k3/3P4/8/8/8/8/8/4K3[#R] w - - 0 1").is_err());
}

// ----------------------------------------------------------------------
// Hand-countable positions, one or more per rule
// ----------------------------------------------------------------------

/// R6: lone kings, one knight in White's airfield.
/// Ke1: d1 d2 e2 f1 f2 = 5; N@ any of the 62 empty squares = 62; total 67.
#[test]
fn r6_knight_drop_lone_kings() {
    let m = sorted_moves("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    assert_eq!(m.len(), 67);
    assert_eq!(count_prefix(&m, "N@"), 62);
    assert!(m.contains(&"N@d6".to_string()));
}

/// R6: pawn drops never on rank 1 or 8 (either colour).
/// Black: Ke8 d8 d7 e7 f7 f8 = 5; P@ 48 squares of ranks 2-7 = 48; total 53.
#[test]
fn r6_pawn_drop_not_on_first_or_last_rank() {
    let m = sorted_moves("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1");
    assert_eq!(m.len(), 53);
    assert_eq!(count_prefix(&m, "P@"), 48);
    assert!(!m.iter().any(|x| x.ends_with('1') && x.starts_with("P@")));
    assert!(!m.iter().any(|x| x.ends_with('8') && x.starts_with("P@")));
}

/// R5: exchanges need value(X) >= value(Y). White's prison holds a black
/// knight (X, value 2); Black's prison holds a white rook (3), bishop (2)
/// and pawn (1). Rook: not rescuable. Bishop: B#N@ on 62 squares. Pawn:
/// P#N@ on the 48 squares of ranks 2-7. Kings: Ke1 5 moves. Total 115.
#[test]
fn r5_exchange_values() {
    let m = sorted_moves("4k3/8/8/8/8/8/8/4K3[#RBPn] w - - 0 1");
    assert_eq!(count_prefix(&m, "R#"), 0);
    assert_eq!(count_prefix(&m, "B#N@"), 62);
    assert_eq!(count_prefix(&m, "P#N@"), 48);
    assert_eq!(m.len(), 115);
    // The exchange moves the released man to the opponent's airfield.
    let p = play_all("4k3/8/8/8/8/8/8/4K3[#RBPn] w - - 0 1", &["B#N@c4"]);
    assert_eq!(p.fen(), "4k3/8/8/8/2B5/8/8/4K3[n#RP] b - - 1 1");
    // A pawn exchange resets the halfmove clock (R12).
    let p = play_all("4k3/8/8/8/8/8/8/4K3[#RBPn] w - - 7 9", &["P#N@c4"]);
    assert_eq!(p.fen(), "4k3/8/8/8/2P5/8/8/4K3[n#RB] b - - 0 9");
}

/// R5: an exchange needs both prisons non-empty. White's prison is empty:
/// only Ke1's 5 moves.
#[test]
fn r5_no_exchange_with_one_empty_prison() {
    assert_eq!(pos("4k3/8/8/8/8/8/8/4K3[#QRBNP] w - - 0 1").perft(1), 5);
}

/// R5/R8: check by a pawn on its 7th (rules.md "A check can be answered by
/// freezing the checker"). See tests/vectors/rules.perft `freeze-checker`:
/// N#R@ 59 + P#R@ 44 = 103, and nothing else.
#[test]
fn r5_r8_freeze_the_checker() {
    let fen = "8/8/8/8/8/5k2/4n1pP/7K[#NPrp] w - - 0 1";
    assert!(pos(fen).is_check());
    let m = sorted_moves(fen);
    assert_eq!(m.len(), 103);
    assert_eq!(count_prefix(&m, "N#R@"), 59);
    assert_eq!(count_prefix(&m, "P#R@"), 44);
    // After releasing the rook the g2 pawn is frozen: no check for White.
    let p = play_all(fen, &["N#R@a8"]);
    assert_eq!(p.fen(), "N7/8/8/8/8/5k2/4n1pP/7K[r#Pp] b - - 1 1");
    // Black's g2 pawn cannot promote now (White's prison holds only a pawn),
    // so g1 and gxh1 are not among Black's moves.
    let m = p.legal_moves();
    assert!(!m.iter().any(|x| x.starts_with("g2")));
}

/// R7: promotion choices come from the opponent's prison, and the pawn goes
/// into that prison. See rules.perft `promotion-choice`: 3 + 4 + 4 = 11.
#[test]
fn r7_promotion() {
    let fen = "2r4k/1P6/8/8/8/8/8/K7[#QRBN] w - - 0 1";
    let m = sorted_moves(fen);
    assert_eq!(m.len(), 11);
    for r in ["q", "r", "b", "n"] {
        assert!(m.contains(&format!("b7b8{r}")));
        assert!(m.contains(&format!("b7c8{r}")));
    }
    // The pawn enters Black's prison, the knight leaves it; the captured rook
    // enters White's prison.
    let p = play_all(fen, &["b7c8n"]);
    assert_eq!(p.fen(), "2N4k/8/8/8/8/8/8/K7[#QRBPr] b - - 0 1");
    // A captured promoted man is just that man: the queen enters Black's
    // prison as a queen, next to the pawn it replaced.
    let p = play_all("8/1kP5/8/8/8/8/8/K7[#Q] w - - 0 1", &["c7c8q", "b7c8"]);
    assert_eq!(p.fen(), "2k5/8/8/8/8/8/8/K7[#QP] w - - 0 2");
}

/// R8: a pawn on its 7th with nothing to promote to cannot move to the last
/// rank at all. Here Black's prison is empty: only Ka1's 3 moves (a2 b1 b2);
/// neither b8 nor bxc8.
#[test]
fn r8_frozen_pawn_cannot_move() {
    assert_eq!(
        sorted_moves("2r4k/1P6/8/8/8/8/8/K7[] w - - 0 1"),
        ["a1a2", "a1b1", "a1b2"]
    );
    // With a white knight in Black's prison: b8=N and bxc8=N added.
    let m = sorted_moves("2r4k/1P6/8/8/8/8/8/K7[#N] w - - 0 1");
    assert_eq!(m, ["a1a2", "a1b1", "a1b2", "b7b8n", "b7c8n"]);
}

/// R8: a frozen pawn gives no check; an unfrozen one does.
#[test]
fn r8_frozen_pawn_gives_no_check() {
    // Black pawn d2 next to Ke1; White's prison empty: not check.
    assert!(!pos("4k3/8/8/8/8/8/3p4/4K3[] w - - 0 1").is_check());
    // White's prison holds a black bishop: check.
    assert!(pos("4k3/8/8/8/8/8/3p4/4K3[#b] w - - 0 1").is_check());
    // A pawn in White's prison does not unfreeze.
    assert!(!pos("4k3/8/8/8/8/8/3p4/4K3[#p] w - - 0 1").is_check());
}

/// R8a: see rules.perft `pseudo-check-capture`: Nxe5 is illegal.
/// Kg1 Kxg2 h3 h4 + 7 knight moves = 11.
#[test]
fn r8a_capture_that_unfreezes_is_illegal() {
    let m = sorted_moves("k7/8/8/4n3/8/3N4/6pP/7K[#p] w - - 0 1");
    assert_eq!(m.len(), 11);
    assert!(!m.contains(&"d3e5".to_string()));
    assert!(m.contains(&"h1g2".to_string()));
}

/// R8a: the king's own capture. Kxg1 illegal, Nxg1 and Kh2 legal.
#[test]
fn r8a_king_capture_that_unfreezes_is_illegal() {
    assert_eq!(
        sorted_moves("k7/8/8/8/8/8/4Np2/6rK[] w - - 0 1"),
        ["e2g1", "h1h2"]
    );
}

/// R8a: capturing promotion illegal, plain promotion legal.
/// Kb1 Kb2 Kc2 Kd1 Kxd2 + b8=Q = 6.
#[test]
fn r8a_capturing_promotion_that_unfreezes_is_illegal() {
    let m = sorted_moves("r6k/1P6/8/8/8/8/3p4/2K5[#Q] w - - 0 1");
    assert_eq!(m, ["b7b8q", "c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]);
}

/// R9/R8: castling over f1, which only a frozen pawn attacks, is legal; the
/// same with the pawn unfrozen is not.
#[test]
fn r9_castling_and_frozen_pawns() {
    let frozen = sorted_moves("4k3/8/8/8/8/8/6p1/4K2R[] w K - 0 1");
    assert_eq!(frozen.len(), 15);
    assert!(frozen.contains(&"e1g1".to_string()));
    let unfrozen = sorted_moves("4k3/8/8/8/8/8/6p1/4K2R[#n] w K - 0 1");
    assert_eq!(unfrozen.len(), 13);
    assert!(!unfrozen.contains(&"e1g1".to_string()));
    assert!(!unfrozen.contains(&"e1f1".to_string()));
    // Castling moves the rook too.
    let p = play_all("4k3/8/8/8/8/8/6p1/4K2R[] w K - 0 1", &["e1g1"]);
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/6p1/5RK1[] b - - 1 1");
}

/// R9: the castling right comes back when a rook is dropped (airfield drop or
/// exchange) on its home corner while the king has never moved; it goes
/// again when the rook or the king moves.
#[test]
fn r9_castling_revived_by_drops() {
    let fen = "4k3/8/8/8/8/8/8/4K3[Rr] w Ee - 0 1";
    let p = play_all(fen, &["R@h1"]);
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K2R[r] b Ke - 1 1");
    let p = play_all(fen, &["R@h1", "R@a8"]);
    assert_eq!(p.fen(), "r3k3/8/8/8/8/8/8/4K2R[] w Kq - 2 2");
    let p = play_all(fen, &["R@h1", "R@a8", "e1g1", "e8c8"]);
    assert_eq!(p.fen(), "2kr4/8/8/8/8/8/8/5RK1[] w - - 4 3");
    // A rook dropped elsewhere then moved to the corner is not unmoved.
    let p = play_all(fen, &["R@h2", "e8d8", "h2h1"]);
    assert_eq!(p.fen(), "3k4/8/8/8/8/8/8/4K2R[r] b E - 3 2");
    // Rescued in an exchange.
    let p = play_all(
        "4k3/8/8/8/8/8/8/4K3[#Rq] w E - 0 1",
        &["R#Q@a1", "e8d8", "e1c1"],
    );
    assert_eq!(p.fen(), "3k4/8/8/8/8/8/8/2KR4[q] b - - 3 2");
    // A king that moved never gets the right back.
    let p = play_all(
        "4k3/8/8/8/8/8/8/4K3[R] w E - 0 1",
        &["e1d1", "e8d8", "d1e1", "d8e8", "R@h1"],
    );
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K2R[] b - - 5 3");
}

/// R9: orthodox castling conditions; e1 in check, d1 attacked.
#[test]
fn r9_castling_conditions() {
    // Queen-side: b1 may be attacked (only the rook crosses it), d1 not.
    let m = sorted_moves("1r2k3/8/8/8/8/8/8/R3K3[] w Q - 0 1");
    assert!(m.contains(&"e1c1".to_string()));
    let m = sorted_moves("3rk3/8/8/8/8/8/8/R3K3[] w Q - 0 1");
    assert!(!m.contains(&"e1c1".to_string()));
    // In check: no castling.
    let m = sorted_moves("4r1k1/8/8/8/8/8/8/R3K2R[] w KQ - 0 1");
    assert!(!m.contains(&"e1c1".to_string()) && !m.contains(&"e1g1".to_string()));
}

/// R6/R10: a dropped pawn may double step and be taken en passant; a pawn
/// dropped on its 4th rank cannot.
#[test]
fn r10_en_passant_and_drops() {
    let fen = "7k/8/8/8/3p4/8/8/7K[P] w - - 0 1";
    let p = play_all(fen, &["P@e2", "h8g8", "e2e4"]);
    assert_eq!(p.fen(), "6k1/8/8/8/3pP3/8/8/7K[] b - e3 0 2");
    assert!(p.legal_moves().contains(&"d4e3".to_string()));
    let p = play_all(fen, &["P@e2", "h8g8", "e2e4", "d4e3"]);
    assert_eq!(p.fen(), "6k1/8/8/8/8/4p3/8/7K[#P] w - - 0 3");
    let p = play_all(fen, &["P@e4"]);
    assert_eq!(p.fen(), "7k/8/8/8/3pP3/8/8/7K[] b - - 0 1");
    assert!(!p.legal_moves().contains(&"d4e3".to_string()));
}

/// R11: mates by a drop and by an exchange have no replies.
#[test]
fn r11_mates() {
    let p = play_all("6k1/5ppp/8/8/8/8/8/K7[R] w - - 0 1", &["R@d8"]);
    assert!(p.is_check());
    assert_eq!(p.perft(1), 0);
    let p = play_all("6rk/6pp/8/8/8/8/8/K7[#Nb] w - - 0 1", &["N#B@f7"]);
    assert!(p.is_check());
    assert_eq!(p.fen(), "6rk/5Npp/8/8/8/8/8/K7[b] b - - 1 1");
    assert_eq!(p.perft(1), 0);
}

/// R11: drops and exchanges are defences: the same back-rank "mate" with a
/// knight in Black's airfield is answered by N@ e8 or f8 (blocks) = 2 moves
/// after R@d8 (the king's squares f8/h8 stay covered, f7 g7 h7 are pawns).
#[test]
fn r11_drop_defends() {
    let p = play_all("6k1/5ppp/8/8/8/8/8/K7[Rn] w - - 0 1", &["R@d8"]);
    assert_eq!(sorted_moves(&p.fen()), ["N@e8", "N@f8"]);
}

/// R12: stalemate (no move of any kind, not in check).
#[test]
fn r12_stalemate() {
    let p = pos("k7/8/1Q6/8/8/8/8/7K[#Pq] b - - 0 1");
    assert!(!p.is_check());
    assert_eq!(p.perft(1), 0);
}

/// R12: the halfmove clock: captures, pawn moves and pawn drops reset it,
/// other drops increment it.
#[test]
fn r12_halfmove_clock() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3[NP] w - - 10 5";
    assert!(play_all(fen, &["N@a3"]).fen().ends_with(" 11 5"));
    assert!(play_all(fen, &["P@a3"]).fen().ends_with(" 0 5"));
    assert!(play_all(fen, &["e2e3"]).fen().ends_with(" 0 5"));
    assert!(play_all(fen, &["e1d1"]).fen().ends_with(" 11 5"));
}

// ----------------------------------------------------------------------
// Invariants along deterministic pseudo-random games
// ----------------------------------------------------------------------

/// R4 invariant (material per colour over board + own airfield + enemy
/// prison never changes), FEN round trip and `play` of every listed move,
/// along pseudo-random games from positions rich in prisons and airfields.
#[test]
fn invariants_along_random_games() {
    let starts = [
        START,
        AFTER_QXD5,
        "6k1/5ppp/8/8/8/8/5PPP/6K1[QNPqnp#RBNPrbp] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[Rr] w Ee - 0 1",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[#QNBqnb] w KQkq - 0 1",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for start in starts {
        for _game in 0..6 {
            let mut p = pos(start);
            let material = p.material();
            for _ply in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for m in &moves {
                    let next = p.play(m).expect("listed move is playable");
                    assert_eq!(next.material(), material, "{m} from {}", p.fen());
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = &moves[(seed % moves.len() as u64) as usize];
                p = p.play(m).expect("legal");
                assert_eq!(pos(&p.fen()), p, "round trip of {}", p.fen());
                assert_eq!(pos(&p.fen()).fen(), p.fen());
                assert!(p.play("a1a1").is_none());
            }
        }
    }
}
