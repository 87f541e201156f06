//! `hostage puzzles`: train at the terminal (the first puzzle served to a
//! new player, solved from its own record; then a wrong move), the state
//! file, and the errors of bad input.

mod common;

use common::hostage_with_input;

#[test]
fn train_solves_then_fails_and_keeps_the_rating() {
    use hostage_puzzles::selection::{next_puzzle, Difficulty};
    let dir = std::env::temp_dir().join(format!("hostage-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let state = dir.join("state.txt");
    let _ = std::fs::remove_file(&state);
    // The first puzzle a new player gets (seed 0: no puzzle seen yet).
    let set = hostage_puzzles::puzzles();
    let none = std::collections::HashSet::new();
    let first = next_puzzle(set, 1500.0, Difficulty::Normal, &none, 0).expect("a puzzle");
    let mut input: String = first
        .moves_text()
        .iter()
        .step_by(2)
        .map(|m| format!("{m}\n"))
        .collect();
    // Then "skip" the second puzzle (a failure) and quit.
    input.push_str("skip\nquit\n");
    let out = hostage_with_input(
        &[
            "puzzles",
            "train",
            "--state",
            state.to_str().expect("utf-8"),
        ],
        &input,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("Puzzle {}", first.id)), "{text}");
    assert!(text.contains("Solved!"), "{text}");
    assert!(text.contains("Wrong. The solution:"), "{text}");
    let saved = std::fs::read_to_string(&state).expect("state written");
    let mut lines = saved.lines();
    let rating: f64 = lines
        .next()
        .and_then(|l| l.split_whitespace().next())
        .and_then(|r| r.parse().ok())
        .expect("a rating");
    assert!(rating.is_finite() && rating != 1500.0);
    assert_eq!(lines.count(), 2, "two puzzles seen");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_reported_not_panicked() {
    let out = hostage_with_input(&["puzzles", "train", "--difficulty", "insane"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("insane"));
    let dir = std::env::temp_dir().join(format!("hostage-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "# header\nnot,a,puzzle\n").expect("write");
    let out = hostage_with_input(&["puzzles", "verify", bad.to_str().expect("utf-8")], "");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2") && err.contains("not,a,puzzle"),
        "{err}"
    );
    let out = hostage_with_input(&["puzzles", "generate", "--shard", "3/2"], "");
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
