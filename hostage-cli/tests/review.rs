//! `hostage review`: the annotated PGN on stdout reads back, the summary
//! names each player, and the output is the same twice.

mod common;

use common::{hostage, stderr, stdout};
use hostage_core::pgn::PgnGame;

const GAME: &str = "[Event \"review test\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n\n\
                    1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

#[test]
fn review_annotates_the_blunder_and_summarises_each_player() {
    let dir = std::env::temp_dir().join(format!("hostage-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("game.pgn");
    std::fs::write(&path, GAME).expect("write");
    let path = path.to_str().expect("utf-8 path");
    let out = hostage(&["review", path, "--nodes", "3000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let pgn = PgnGame::read(&text).expect("the output is PGN");
    let main = pgn.mainline();
    assert_eq!(main.len(), 7);
    // 3...Nf6?? ($4), with the better move as a variation.
    let nf6 = pgn.node(main[5]);
    assert_eq!(nf6.nags, [4]);
    assert!(nf6.comments.join(" ").contains("Blunder."), "{text}");
    let parent = pgn.node(nf6.parent().expect("a move"));
    assert_eq!(parent.children().len(), 2, "{text}");
    // Every move but the mate carries an evaluation.
    for &id in &main[..6] {
        assert!(
            pgn.node(id).comments.join(" ").contains("[%eval "),
            "{text}"
        );
    }
    assert!(pgn.tag("WhiteAccuracy").is_some() && pgn.tag("BlackAccuracy").is_some());
    let summary = stderr(&out);
    assert!(summary.contains("White (Alice): accuracy "), "{summary}");
    assert!(summary.contains("Black (Bob): accuracy "), "{summary}");
    assert!(summary.contains("1 blunder"), "{summary}");
    // Reproducible at a node budget.
    let again = hostage(&["review", path, "--nodes", "3000"]);
    assert_eq!(stdout(&again), text);
    // A missing file is a one-line error.
    let missing = hostage(&["review", "/nonexistent/game.pgn"]);
    assert_eq!(missing.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}
