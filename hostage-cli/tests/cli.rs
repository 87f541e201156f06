//! End-to-end tests of the `hostage` binary: arguments in, text and exit
//! codes out. The expected numbers and FENs come from docs/rules.md.

use std::process::Output;

const AFTER_QXD5: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3";

mod common;

use common::{hostage, hostage_with_input, stderr, stdout};

/// The last non-empty line of stdout, after checking the run succeeded.
fn last_line(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", stderr(out));
    stdout(out)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn perft_3_from_the_start() {
    assert_eq!(last_line(&hostage(&["perft", "3"])), "8902");
}

#[test]
fn perft_5_from_the_start_includes_exchanges() {
    // rules.md: orthodox chess's 4 865 609 plus 268 exchanges.
    assert_eq!(last_line(&hostage(&["perft", "5"])), "4865877");
}

#[test]
fn perft_2_after_qxd5() {
    assert_eq!(
        last_line(&hostage(&["perft", "2", "--fen", AFTER_QXD5])),
        "4784"
    );
}

#[test]
fn perft_with_moves_equals_perft_with_fen() {
    let out = hostage(&["perft", "2", "--moves", "1. e4 d5 2. exd5 Qxd5"]);
    assert_eq!(last_line(&out), "4784");
}

#[test]
fn fen_after_moves_with_move_numbers() {
    let out = hostage(&["fen", "--moves", "1. e4 d5 2. exd5 Qxd5"]);
    assert_eq!(last_line(&out), AFTER_QXD5);
}

#[test]
fn fen_accepts_uci_and_glued_move_numbers() {
    let out = hostage(&["fen", "--moves", "1.e2e4 d7d5 2.exd5 2...d8d5"]);
    assert_eq!(last_line(&out), AFTER_QXD5);
}

#[test]
fn fen_without_moves_is_canonical() {
    let out = hostage(&[
        "fen",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(
        last_line(&out),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
}

#[test]
fn bad_move_reports_its_ply_and_exits_1() {
    let out = hostage(&["fen", "--moves", "1. e4 d5 2. Ke3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    // The core's move-text wording, the same in every tool: the place in
    // the list, the text, the side and move number, the position.
    assert!(
        err.starts_with("error: cannot play move 3 'Ke3' (white's move 2): illegal san: 'Ke3' in "),
        "{err}"
    );
    assert!(err.trim_end().ends_with("(code: illegal_san)"), "{err}");
}

#[test]
fn malformed_move_reports_a_syntax_error() {
    let out = hostage(&["moves", "--moves", "e4 z9"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: cannot play move 2 'z9' (black's move 1): invalid san")
            && err.contains("invalid_san"),
        "{err}"
    );
}

#[test]
fn bad_fen_exits_1_with_its_code() {
    let out = hostage(&[
        "fen",
        "--fen",
        "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("invalid_board"), "{}", stderr(&out));

    let out = hostage(&["perft", "1", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing_king"), "{}", stderr(&out));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(hostage(&["perft"]).status.code(), Some(2));
    assert_eq!(hostage(&["perft", "deep"]).status.code(), Some(2));
    assert_eq!(hostage(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn divide_1_from_the_start() {
    let out = hostage(&["divide", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (moves, total) = text
        .split_once("\n\n")
        .expect("a blank line before the total");
    let lines: Vec<&str> = moves.lines().collect();
    assert_eq!(lines.len(), 20);
    assert!(lines.iter().all(|l| l.ends_with(" 1")), "{moves}");
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"g1f3 1"));
    assert_eq!(total.trim(), "20");
}

#[test]
fn divide_2_sums_to_perft_2() {
    let out = hostage(&["divide", "2", "--fen", AFTER_QXD5]);
    let text = stdout(&out);
    let sum: u64 = text
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter_map(|(_, n)| n.parse::<u64>().ok())
        .sum();
    assert_eq!(sum, 4784);
    assert_eq!(last_line(&out), "4784");
}

#[test]
fn moves_from_the_start() {
    let out = hostage(&["moves"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 20);
    assert!(text.lines().any(|l| l == "Nf3\tg1f3"), "{text}");
    assert!(text.lines().any(|l| l == "e4\te2e4"), "{text}");
}

#[test]
fn moves_show_exchanges_and_check_marks() {
    // After 1.e4 d5 2.exd5 Qxd5 both prisons hold a pawn: pawn-for-pawn exchanges exist.
    let out = hostage(&["moves", "--fen", AFTER_QXD5]);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 62);
    assert!(text.lines().any(|l| l == "(P-P)*e3\tP#P@e3"), "{text}");
    // Scholar's mate position, one move before mate.
    let out = hostage(&["moves", "--moves", "e4 e5 Qh5 Nc6 Bc4 Nf6"]);
    assert!(
        stdout(&out).lines().any(|l| l == "Qxf7#\th5f7"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn play_scholars_mate_ends_in_checkmate() {
    let out = hostage_with_input(&["play"], "e4\ne5\nQh5\nNc6\nBc4\nNf6\nQxf7\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&out), "Checkmate: White wins.");
    let text = stdout(&out);
    assert!(text.contains("Black is in check."), "{text}");
    assert!(
        text.contains("White's prison (black men White captured):"),
        "{text}"
    );
    assert!(text.contains("8 | r . b q k b . r |"), "{text}");
}

#[test]
fn play_undo_takes_back_a_move() {
    let out = hostage_with_input(&["play"], "e4\nundo\nfen\nundo\nd4\nfen\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
        "{text}"
    );
    assert!(text.contains("Nothing to undo."), "{text}");
    assert!(
        text.contains("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR[] b KQkq - 0 1"),
        "{text}"
    );
    assert_eq!(last_line(&out), "Game stopped.");
}

#[test]
fn play_reports_bad_input_and_continues() {
    let out = hostage_with_input(&["play"], "Ke2\nmoves\nhelp\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("\"Ke2\" is not a move here"), "{text}");
    assert!(text.contains("20 legal moves:"), "{text}");
    assert!(text.contains("undo"), "{text}");
    assert_eq!(last_line(&out), "Game stopped.");
}

#[test]
fn play_eof_exits_0() {
    let out = hostage_with_input(&["play", "--unicode"], "e4\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("♔"));
    assert_eq!(last_line(&out), "End of input: game stopped.");
}

#[test]
fn play_threefold_repetition_is_a_draw() {
    let out = hostage_with_input(&["play"], "Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\nquit\n");
    assert!(
        last_line(&out).starts_with("Draw by threefold repetition"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn play_announces_pseudo_check() {
    // R8a: Black's d2 pawn cannot promote (White's prison is empty), so it does not give check.
    let out = hostage_with_input(&["play", "--fen", "4k3/8/8/8/8/8/3p4/4K3[] w - - 0 1"], "");
    let text = stdout(&out);
    assert!(
        text.contains("pseudo-check (king attacked only by a frozen pawn)"),
        "{text}"
    );
    assert!(!text.contains("White is in check"), "{text}");
}

#[test]
fn play_with_a_bad_fen_exits_1() {
    let out = hostage_with_input(&["play", "--fen", "nonsense"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("invalid_board"));
}

#[test]
fn pgn_check_accepts_a_legal_file() {
    let out = hostage(&["pgn", "check", "../tests/pgn/every_move_form.pgn"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 game(s) legal, 0 with errors"));
}

#[test]
fn pgn_check_reports_game_ply_and_reason() {
    // bad_moves.pgn: game 2 plays the illegal "Ke3" as its third ply.
    let out = hostage(&["pgn", "check", "../tests/pgn/bad_moves.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 2"), "{err}");
    // The move error names the move and the position it was tried in.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2";
    assert!(
        err.contains(&format!("ply 3: illegal san: 'Ke3' in {fen}")),
        "{err}"
    );
    assert!(err.contains("pgn_illegal_move"), "{err}");
}

#[test]
fn pgn_fen_prints_each_final_position() {
    let out = hostage(&["pgn", "fen", "../tests/pgn/several.pgn"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 4);
    for line in text.lines() {
        hostage_core::Position::from_fen(line).expect("a legal FEN");
    }
}

#[test]
fn pgn_missing_file_fails_cleanly() {
    let out = hostage(&["pgn", "check", "no/such/file.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open"));
}
