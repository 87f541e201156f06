//! Game review: the annotated PGN read back by the core's reader, and the
//! review reproducible under a node limit.

use hostage_core::{pgn::PgnGame, Color, Game};
use hostage_engine::{Engine, Judgement, Limits};

/// Scholar's mate with Black's blunder 3...Nf6?? (Qxf7# follows), then a
/// second game where White hangs the queen: 1.e4 e5 2.Qh5 Nc6 3.Qxe5+?? Nxe5.
fn games() -> Vec<Game> {
    [
        "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7",
        "e2e4 e7e5 d1h5 b8c6 h5e5 c6e5 g1f3 e5f3 g2f3 d7d5",
    ]
    .iter()
    .map(|line| {
        let mut game = Game::new();
        for m in line.split(' ') {
            game.push_uci(m).expect("legal");
        }
        game
    })
    .collect()
}

#[test]
fn blunders_are_found_and_the_annotated_pgn_reads_back() {
    let limits = Limits::nodes(3_000);
    for (g, game) in games().into_iter().enumerate() {
        let mut calls = Vec::new();
        let review = Engine::new().review(&game, &limits, &mut |done, total| {
            calls.push((done, total));
        });
        // One call per position searched, in order, the last at the total.
        let total = game.moves().len() + 1;
        assert_eq!(calls, (1..=total).map(|d| (d, total)).collect::<Vec<_>>());
        let blunder = if g == 0 { 5 } else { 4 };
        let m = &review.moves[blunder];
        assert_eq!(m.judgement, Some(Judgement::Blunder), "{m:?}");
        assert_ne!(m.best, Some(m.mv));
        assert!(m.accuracy < 50.0, "{m:?}");

        let mut pgn = PgnGame::from_game(&game);
        review.annotate(&mut pgn);
        let text = pgn.write();
        let back = PgnGame::read(&text).expect("the annotated PGN reads back");
        assert_eq!(back.mainline_moves(), game.moves());
        let main = back.mainline();
        for (r, &id) in review.moves.iter().zip(&main) {
            let node = back.node(id);
            // The NAG of the judgement, and nothing for a good move.
            let nags: Vec<u8> = r.judgement.map(Judgement::nag).into_iter().collect();
            assert_eq!(node.nags, nags, "ply {}", r.ply);
            let comments = node.comments.join(" ");
            match hostage_engine::review::eval_text(r.after) {
                Some(eval) => assert!(comments.contains(&format!("[%eval {eval}]")), "{comments}"),
                None => assert!(!comments.contains("[%eval"), "{comments}"),
            }
            // A judged move has the engine's best line beside it.
            let parent = back.node(node.parent().expect("a move"));
            if r.judgement.is_some() {
                assert_eq!(parent.children().len(), 2, "ply {}: {text}", r.ply);
                let alt = back.node(parent.children()[1]);
                assert_eq!(alt.mv(), r.best);
            } else {
                assert_eq!(parent.children().len(), 1, "ply {}", r.ply);
            }
        }
        // The summary counts the judgements of each side.
        for (color, summary) in [(Color::White, &review.white), (Color::Black, &review.black)] {
            let count = |j| {
                review
                    .moves
                    .iter()
                    .filter(|m| m.color == color && m.judgement == Some(j))
                    .count()
            };
            assert_eq!(summary.blunders, count(Judgement::Blunder));
            assert_eq!(summary.mistakes, count(Judgement::Mistake));
            assert_eq!(summary.inaccuracies, count(Judgement::Inaccuracy));
            let acc = summary.accuracy.expect("both sides moved");
            assert!((0.0..=100.0).contains(&acc));
        }
        // The side that blundered is the less accurate.
        let (bad, good) = if g == 0 {
            (&review.black, &review.white)
        } else {
            (&review.white, &review.black)
        };
        assert!(bad.accuracy < good.accuracy, "{bad:?} {good:?}");
        let tag = if g == 0 {
            "BlackAccuracy"
        } else {
            "WhiteAccuracy"
        };
        let written: f64 = back
            .tag(tag)
            .expect("accuracy tag")
            .parse()
            .expect("a number");
        assert!((written - bad.accuracy.expect("moves")).abs() < 0.051);
    }
}

#[test]
fn a_review_under_a_node_limit_is_reproducible() {
    let game = &games()[1];
    let limits = Limits::nodes(2_000);
    let mut engine = Engine::new();
    let a = engine.review(game, &limits, &mut |_, _| {});
    // The same engine after other work, and a fresh one, agree.
    let _ = engine.search(game.position(), &[], &Limits::nodes(5_000));
    let b = engine.review(game, &limits, &mut |_, _| {});
    let c = Engine::new().review(game, &limits, &mut |_, _| {});
    assert_eq!(a, b);
    assert_eq!(a, c);
}
