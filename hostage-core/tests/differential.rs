//! The fast move generator against the reference generator
//! (`tests/reference/`), which shares no code with the crate: it applies every
//! pseudo-legal candidate to a full copy of the position and tests the king
//! from scratch. Along random games from several hostage-rich starts, both
//! must list the same moves (as long-form text) and reach the same FEN.

mod reference;

use hostage_core::{Move, Position};
use reference::RefPos;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3",
    "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R[#Qn] w KQkq - 0 20",
    "4k3/8/8/8/8/8/8/4K3[RRrr] w Ee - 0 30",
];

fn sorted_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci().to_string())
        .collect();
    v.sort();
    v
}

fn compare(pos: &Position, reference: &RefPos, context: &str) {
    assert_eq!(pos.fen(), reference.fen(), "fen differs {context}");
    let mut expected = reference.legal_moves();
    expected.sort();
    let ours = sorted_moves(pos);
    if ours != expected {
        let missing: Vec<_> = expected.iter().filter(|m| !ours.contains(m)).collect();
        let extra: Vec<_> = ours.iter().filter(|m| !expected.contains(m)).collect();
        panic!(
            "moves differ at {}\n{context}\nmissing {missing:?}\nextra {extra:?}",
            pos.fen()
        );
    }
    assert_eq!(
        pos.is_check(),
        reference.is_check(),
        "check differs at {}",
        pos.fen()
    );
}

fn walk(start: &str, seed: u64, plies: usize, prefer_captures: bool) {
    let mut pos = Position::from_fen(start).expect("valid");
    let mut reference = RefPos::from_fen(start).expect("reference parses");
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut history = Vec::new();
    for _ in 0..plies {
        compare(&pos, &reference, &format!("after {history:?} from {start}"));
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let captures: Vec<Move> = moves.iter().copied().filter(Move::is_capture).collect();
        let pool = if prefer_captures && !captures.is_empty() && state % 3 != 0 {
            &captures
        } else {
            &moves
        };
        let m = pool[(state >> 17) as usize % pool.len()];
        let text = m.to_uci().to_string();
        pos.play_unchecked(m);
        reference = reference
            .play(&text)
            .unwrap_or_else(|| panic!("reference rejects {text}"));
        history.push(text);
    }
}

#[test]
fn random_games_agree_with_reference() {
    for (i, start) in STARTS.iter().enumerate() {
        for seed in 0..12 {
            walk(start, seed * 31 + i as u64, 120, seed % 2 == 0);
        }
    }
}

#[test]
fn perft_agrees_with_reference_on_hostage_positions() {
    for start in STARTS {
        let pos = Position::from_fen(start).expect("valid");
        let reference = RefPos::from_fen(start).expect("reference parses");
        for depth in 1..=2 {
            assert_eq!(
                hostage_core::perft(&pos, depth),
                reference.perft(depth),
                "{start} depth {depth}"
            );
        }
    }
}

/// Random sparse positions built to provoke the Hostage special cases: kings
/// on or near their back ranks, pawns on their 7th rank beside them, sliders,
/// and random prisons and airfields (so pawns are randomly frozen or live).
fn random_position(state: &mut u64) -> Option<String> {
    let mut next = |n: u64| {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state >> 16) % n
    };
    let mut board = [None::<char>; 64];
    let place = |board: &mut [Option<char>; 64], c: char, sq: u64| {
        if board[sq as usize].is_none() {
            board[sq as usize] = Some(c);
        }
    };
    // Kings on their back two ranks, mostly.
    place(&mut board, 'K', next(16));
    place(&mut board, 'k', 48 + next(16));
    // Pawns on their 7th rank (frozen or live), some elsewhere.
    for _ in 0..next(4) {
        place(&mut board, 'P', 48 + next(8));
        place(&mut board, 'p', 8 + next(8));
    }
    for _ in 0..next(4) {
        place(&mut board, 'P', 8 + next(48));
        place(&mut board, 'p', 8 + next(48));
    }
    for _ in 0..next(5) {
        let c = ['N', 'B', 'R', 'Q', 'n', 'b', 'r', 'q'][next(8) as usize];
        place(&mut board, c, next(64));
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let reserve = |next: &mut dyn FnMut(u64) -> u64, letters: &str| -> String {
        let letters: Vec<char> = letters.chars().collect();
        (0..next(5))
            .map(|_| letters[next(letters.len() as u64) as usize])
            .collect()
    };
    let airfields = reserve(&mut next, "NBRQPnbrqp");
    let prisons = reserve(&mut next, "NBRQPnbrqp");
    let turn = if next(2) == 0 { "w" } else { "b" };
    let castling = match (board[4], board[60]) {
        (Some('K'), Some('k')) => "Ee",
        (Some('K'), _) => "E",
        (_, Some('k')) => "e",
        _ => "-",
    };
    let fen = format!("{fen}[{airfields}#{prisons}] {turn} {castling} - 0 1");
    Position::from_fen(&fen).ok().map(|_| fen)
}

#[test]
fn random_sparse_positions_agree_with_reference() {
    let mut state = 0x5eed_1234_abcd_ef01u64;
    let mut tested = 0;
    let (mut pseudo, mut check_with_exchange) = (0, 0);
    while tested < 3000 {
        let Some(fen) = random_position(&mut state) else {
            continue;
        };
        tested += 1;
        let pos = Position::from_fen(&fen).expect("checked");
        pseudo += usize::from(pos.is_pseudo_check());
        check_with_exchange += usize::from(
            pos.is_check()
                && pos
                    .legal_moves()
                    .iter()
                    .any(|m| matches!(m, Move::Exchange { .. })),
        );
        let reference = RefPos::from_fen(&fen).expect("reference parses");
        compare(&pos, &reference, "random sparse position");
        // One ply deeper, through every move.
        for m in pos.legal_moves() {
            let text = m.to_uci().to_string();
            let mut child = pos.clone();
            child.play_unchecked(m);
            let ref_child = reference
                .play(&text)
                .unwrap_or_else(|| panic!("reference rejects {text} in {fen}"));
            compare(&child, &ref_child, &format!("after {text} from {fen}"));
        }
    }
    // The sample must actually reach the special cases.
    println!("pseudo-check roots: {pseudo}, exchanges in check: {check_with_exchange}");
    assert!(pseudo >= 50, "only {pseudo} pseudo-check positions");
    assert!(
        check_with_exchange >= 50,
        "only {check_with_exchange} exchange-in-check positions"
    );
}
