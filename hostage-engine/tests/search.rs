//! Search behaviour that a user of the engine relies on.

use hostage_core::{Game, Position};
use hostage_engine::{Engine, Limits, Score};

#[test]
fn multipv_lines_come_best_first_and_distinct() {
    let mut game = Game::new();
    for san in ["e4", "d5", "exd5", "Qxd5"] {
        game.push_san(san).expect("legal");
    }
    for depth in 1..=6 {
        let r = Engine::new().search_game(&game, &Limits::depth(depth).with_multipv(4));
        assert_eq!(r.lines.len(), 4);
        for pair in r.lines.windows(2) {
            assert!(
                pair[0].score >= pair[1].score,
                "depth {depth}: {:?}",
                r.lines
            );
            assert_ne!(pair[0].mv, pair[1].mv);
        }
        assert_eq!(r.best_move, Some(r.lines[0].mv));
        assert_eq!(r.pv.first(), Some(&r.lines[0].mv));
    }
}

#[test]
fn a_search_is_reproducible_under_a_node_limit() {
    let pos =
        Position::from_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12")
            .expect("fen");
    let a = Engine::new().search(&pos, &[], &Limits::nodes(30_000));
    let b = Engine::new().search(&pos, &[], &Limits::nodes(30_000));
    assert_eq!(a, b);
    // The limit is kept to within one node of the budget.
    assert!(a.nodes <= 30_001, "{}", a.nodes);
}

#[test]
fn every_pv_is_a_legal_line() {
    let pos =
        Position::from_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12")
            .expect("fen");
    let r = Engine::new().search(&pos, &[], &Limits::depth(6).with_multipv(3));
    for line in &r.lines {
        let mut p = pos.clone();
        for m in &line.pv {
            p = p.play(*m).expect("each PV move is legal");
        }
    }
}

#[test]
fn repetition_is_a_draw_and_the_history_counts() {
    // The knights have gone out and back once; Nf3 Nf6 Ng1 would bring the
    // start position for the third time after Black's Ng8 (R12).
    let mut game = Game::new();
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        game.push_san(san).expect("legal");
    }
    let r = Engine::new().search_game(&game, &Limits::depth(4).with_multipv(40));
    let ng8 = r
        .lines
        .iter()
        .find(|l| l.mv.to_string() == "f6g8")
        .expect("Ng8 is among the lines");
    assert_eq!(ng8.score, Score::Cp(0));
}

#[test]
fn no_legal_move_gives_no_move() {
    // Fool's mate: White is mated.
    let mut game = Game::new();
    for san in ["f3", "e5", "g4", "Qh4#"] {
        game.push_san(san).expect("legal");
    }
    let r = Engine::new().search_game(&game, &Limits::depth(3));
    assert_eq!((r.best_move, r.score), (None, Score::Mate(0)));
}
