//! Search behaviour that a user of the engine relies on.

use hostage_core::{Game, Position};
use hostage_engine::{Engine, Limits, Options, Score};

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

/// Every search switch, each flipped from the default: the search still
/// proves short mates (a switch must never prune or mis-score a forced
/// line) and still gives legal principal variations in a middlegame deep
/// enough for singular extensions and the deeper pruning to act.
#[test]
fn every_switch_either_way_keeps_mates_and_legal_lines() {
    // Mates in 2 from the engine's proved mate set (data/mates.txt),
    // each with the first moves that mate.
    let mates = [
        (
            "rn1qk1nr/ppp2pb1/2p3pp/8/4b3/P1p1K1P1/8/6N1[#QRRBBNPPPPPP] b kq - 1 21",
            &["d8d2"][..],
        ),
        (
            "rn1qk1nr/ppp2pb1/2p4p/6p1/4K3/P1p2NP1/8/7b[N#QRRBBPPPPPP] b kq - 2 23",
            &["d8d4", "d8d5"][..],
        ),
        (
            "b1R5/P1PN2k1/b1pP2n1/pP1Pp1Pp/P1rr3n/1p1pP2R/1p1B2qQ/1N2KB2[#p] b - - 0 68",
            &["c4c1"][..],
        ),
    ];
    let middlegame =
        Position::from_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12")
            .expect("fen");
    type Flip = fn(&mut Options);
    let flips: [(&str, Flip); 30] = [
        ("null_move", |o| o.null_move ^= true),
        ("lmr", |o| o.lmr ^= true),
        ("leaf_pruning", |o| o.leaf_pruning ^= true),
        ("reverse_futility", |o| o.reverse_futility ^= true),
        ("aspiration", |o| o.aspiration ^= true),
        ("check_extension", |o| o.check_extension ^= true),
        ("continuation", |o| o.continuation ^= true),
        ("history_lmr", |o| o.history_lmr ^= true),
        ("improving", |o| o.improving ^= true),
        ("iir", |o| o.iir ^= true),
        ("correction", |o| o.correction ^= true),
        ("qs_store", |o| o.qs_store ^= true),
        ("capture_history", |o| o.capture_history ^= true),
        ("deep_pruning", |o| o.deep_pruning ^= true),
        ("singular", |o| o.singular ^= true),
        ("see_pruning", |o| o.see_pruning ^= true),
        ("reduced_depth_pruning", |o| o.reduced_depth_pruning ^= true),
        ("cut_node_reduction", |o| o.cut_node_reduction ^= true),
        ("king_zone_drops", |o| o.king_zone_drops ^= true),
        ("qs_evasion_pruning", |o| o.qs_evasion_pruning ^= true),
        ("checks_first", |o| o.checks_first ^= true),
        ("far_drop_pruning", |o| o.far_drop_pruning ^= true),
        ("qs_recaptures", |o| o.qs_recaptures ^= true),
        ("history_pruning", |o| o.history_pruning ^= true),
        ("deep_check_extension", |o| o.deep_check_extension ^= true),
        ("check_reductions", |o| o.check_reductions ^= true),
        ("shallow_check_extension", |o| {
            o.shallow_check_extension ^= true
        }),
        ("extension_ply_limit", |o| o.extension_ply_limit ^= true),
        ("evasion_reductions", |o| o.evasion_reductions ^= true),
        ("none", |_| {}),
    ];
    for (name, flip) in flips {
        let mut options = Options::default();
        flip(&mut options);
        for (fen, firsts) in mates {
            let pos = Position::from_fen(fen).expect("fen");
            let mut engine = Engine::new();
            engine.set_options(options);
            let r = engine.search(&pos, &[], &Limits::depth(5));
            assert_eq!(r.score, Score::Mate(2), "{name}: {fen}");
            let best = r.best_move.expect("a move").to_string();
            assert!(firsts.contains(&best.as_str()), "{name}: {fen}: {best}");
        }
        let mut engine = Engine::new();
        engine.set_options(options);
        let r = engine.search(&middlegame, &[], &Limits::nodes(60_000).with_multipv(2));
        assert!(r.depth >= 3, "{name}: depth {}", r.depth);
        for line in &r.lines {
            let mut p = middlegame.clone();
            for m in &line.pv {
                p = p
                    .play(*m)
                    .unwrap_or_else(|_| panic!("{name}: {m} in {:?}", line.pv));
            }
        }
    }
}

#[test]
fn a_node_limit_keeps_two_threads_to_one_and_reproducible() {
    let pos = Position::from_fen(
        "r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7",
    )
    .expect("fen");
    let one = Engine::new().search(&pos, &[], &Limits::nodes(40_000));
    let mut two = Engine::new();
    two.set_threads(2);
    assert_eq!(two.search(&pos, &[], &Limits::nodes(40_000)), one);
}

#[test]
fn two_threads_play_a_legal_line_they_report() {
    let pos =
        Position::from_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12")
            .expect("fen");
    for vote in [false, true] {
        let mut engine = Engine::new();
        engine.set_threads(2);
        let mut options = Options::default();
        options.smp_vote = vote;
        engine.set_options(options);
        let mut last = None;
        let r = engine.search_with_info(
            &pos,
            &[],
            &Limits::movetime(std::time::Duration::from_millis(300)),
            &mut |info| last = Some(info.clone()),
        );
        let best = r.best_move.expect("a move");
        assert_eq!(r.pv.first(), Some(&best));
        assert_eq!(r.lines.first().map(|l| l.mv), Some(best));
        let mut p = pos.clone();
        for m in &r.pv {
            p = p.play(*m).expect("each PV move is legal");
        }
        // Whichever thread's move is played, the last report is its line.
        let last = last.expect("at least one iteration reported");
        assert_eq!(last.lines.first().map(|l| l.mv), Some(best), "{vote}");
        assert_eq!(last.depth, r.depth, "{vote}");
    }
}
