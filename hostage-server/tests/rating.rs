//! Ratings: the instant Glicko-2 update against figures computed
//! independently of this crate (a separate Python transcription of
//! Glickman's steps, and lichess's stated aim for its rating period), and
//! its properties over random input.

use hostage_core::{ByColor, Color};
use hostage_server::domain::rating::glicko2::Rating;
use hostage_server::domain::rating::instant::{update, Perf, LICHESS};
use proptest::prelude::*;

const DAY_MS: u64 = 86_400_000;
/// One rating period of lichess, 1 / 0.21436 days, in milliseconds.
const PERIOD_MS: u64 = 403_059_339;

fn perf(rating: f64, deviation: f64, volatility: f64, last_rated_ms: Option<u64>) -> Perf {
    Perf {
        glicko: Rating {
            rating,
            deviation,
            volatility,
        },
        games: 10,
        last_rated_ms,
    }
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// Two new players, White wins: each is one game of a rating period with
/// τ = 0.75 from 1500 / 500 / 0.09 (Glickman's steps, computed apart):
/// 1741.62 / 396.81 and 1258.38 / 396.81, volatility 0.08999830.
#[test]
fn two_new_players() {
    let new = Perf::new(&LICHESS);
    let after = update(ByColor::new(new, new), Some(Color::White), 1_000, &LICHESS);
    let (w, b) = (after.white.glicko, after.black.glicko);
    assert!(close(w.rating, 1741.62, 0.01), "{w:?}");
    assert!(close(b.rating, 1258.38, 0.01), "{b:?}");
    assert!(close(w.deviation, 396.81, 0.01) && close(b.deviation, 396.81, 0.01));
    assert!(close(w.volatility, 0.089_998_3, 0.000_000_1));
    assert_eq!((after.white.games, after.black.games), (1, 1));
    assert_eq!(after.white.last_rated_ms, Some(1_000));
}

/// A game one rating period after both players' last games is the
/// paper's rating period of one game: the underdog 1500 / 80 / 0.06 beats
/// 1800 / 60 / 0.06 → 1530.28 / 79.60 and 1782.84 / 60.44 (computed
/// apart).
#[test]
fn one_period_after_the_last_game_is_the_papers_period() {
    let now = 50 * DAY_MS;
    let last = Some(now - PERIOD_MS);
    let players = ByColor::new(
        perf(1800.0, 60.0, 0.06, last),
        perf(1500.0, 80.0, 0.06, last),
    );
    let after = update(players, Some(Color::Black), now, &LICHESS);
    let (w, b) = (after.white.glicko, after.black.glicko);
    assert!(
        close(w.rating, 1782.84, 0.01) && close(w.deviation, 60.44, 0.01),
        "{w:?}"
    );
    assert!(
        close(b.rating, 1530.28, 0.01) && close(b.deviation, 79.60, 0.01),
        "{b:?}"
    );
}

/// Games back to back: no time for the deviation to grow in step 6
/// (1783.33 / 59.56 for the favourite that lost, computed apart).
#[test]
fn back_to_back_games_grow_no_deviation() {
    let now = 50 * DAY_MS;
    let players = ByColor::new(
        perf(1800.0, 60.0, 0.06, Some(now)),
        perf(1500.0, 80.0, 0.06, Some(now)),
    );
    let w = update(players, Some(Color::Black), now, &LICHESS)
        .white
        .glicko;
    assert!(
        close(w.rating, 1783.33, 0.01) && close(w.deviation, 59.56, 0.01),
        "{w:?}"
    );
}

/// lila's comment on its rating period: "chosen so a typical player's RD
/// goes from 60 -> 110 in 1 year" (volatility 0.06).
#[test]
fn a_year_away_grows_60_to_110() {
    let p = perf(1500.0, 60.0, 0.06, Some(0));
    let d = p.deviation_at(365 * DAY_MS, &LICHESS);
    assert!(close(d, 110.0, 0.01), "{d}");
    assert!(p.is_provisional_at(366 * DAY_MS, &LICHESS));
    assert!(!p.is_provisional_at(300 * DAY_MS, &LICHESS));
    // Time never runs backwards, and a new player is provisional.
    assert!(close(p.deviation_at(0, &LICHESS), 60.0, 1e-9));
    assert!(Perf::new(&LICHESS).is_provisional_at(0, &LICHESS));
    assert_eq!(Perf::new(&LICHESS).deviation_at(u64::MAX, &LICHESS), 500.0);
}

#[test]
fn one_game_moves_a_rating_by_at_most_700() {
    // A 400 / 500 player beating a 4000 / 45 one would gain more.
    let players = ByColor::new(
        perf(400.0, 500.0, 0.1, None),
        perf(4000.0, 45.0, 0.01, Some(0)),
    );
    let after = update(players, Some(Color::White), DAY_MS, &LICHESS);
    assert!(
        after.white.glicko.rating <= 1100.0 + 1e-9,
        "{:?}",
        after.white
    );
    assert!(after.white.glicko.rating > 1000.0, "{:?}", after.white);
}

fn finite(r: Rating) -> bool {
    r.rating.is_finite() && r.deviation.is_finite() && r.volatility.is_finite()
}

fn in_bounds(r: Rating) -> bool {
    (400.0..=4000.0).contains(&r.rating)
        && (45.0..=500.0).contains(&r.deviation)
        && (0.01..=0.1).contains(&r.volatility)
}

fn sane_perf() -> impl Strategy<Value = Perf> {
    (
        400.0..4000.0f64,
        45.0..500.0f64,
        0.01..0.1f64,
        proptest::option::of(0..1_000 * DAY_MS),
    )
        .prop_map(|(r, d, v, last)| perf(r, d, v, last))
}

fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        Just(f64::MIN_POSITIVE),
        Just(f64::MAX),
        Just(f64::MIN),
        any::<f64>(),
    ]
}

fn wild_perf() -> impl Strategy<Value = Perf> {
    (
        any_f64(),
        any_f64(),
        any_f64(),
        any::<Option<u64>>(),
        any::<u32>(),
    )
        .prop_map(|(r, d, v, last, games)| Perf {
            glicko: Rating {
                rating: r,
                deviation: d,
                volatility: v,
            },
            games,
            last_rated_ms: last,
        })
}

fn winner() -> impl Strategy<Value = Option<Color>> {
    prop_oneof![
        Just(None),
        Just(Some(Color::White)),
        Just(Some(Color::Black))
    ]
}

proptest! {
    #[test]
    fn the_winner_never_falls_and_the_loser_never_rises(
        w in sane_perf(), b in sane_perf(), white_wins: bool, later in 0..1_000 * DAY_MS,
    ) {
        let now = 1_000 * DAY_MS + later;
        let win = Color::from_white(white_wins);
        let after = update(ByColor::new(w, b), Some(win), now, &LICHESS);
        let before = ByColor::new(w, b);
        prop_assert!(after.get(win).glicko.rating >= before.get(win).glicko.rating);
        prop_assert!(after.get(win.other()).glicko.rating <= before.get(win.other()).glicko.rating);
    }

    #[test]
    fn a_draw_between_equals_moves_no_rating(
        r in 400.0..4000.0f64, dw in 45.0..500.0f64, db in 45.0..500.0f64,
        vw in 0.01..0.1f64, vb in 0.01..0.1f64,
        lw in proptest::option::of(0..DAY_MS), lb in proptest::option::of(0..DAY_MS),
    ) {
        let players = ByColor::new(perf(r, dw, vw, lw), perf(r, db, vb, lb));
        let after = update(players, None, 2 * DAY_MS, &LICHESS);
        prop_assert_eq!(after.white.glicko.rating, r);
        prop_assert_eq!(after.black.glicko.rating, r);
    }

    #[test]
    fn a_decisive_game_between_equals_is_zero_sum(
        r in 1000.0..3000.0f64, d in 45.0..500.0f64, v in 0.01..0.1f64, white_wins: bool,
    ) {
        let p = perf(r, d, v, Some(0));
        let after = update(ByColor::new(p, p), Some(Color::from_white(white_wins)), DAY_MS, &LICHESS);
        let gain = after.white.glicko.rating - r;
        let loss = r - after.black.glicko.rating;
        prop_assert!((gain.abs() - loss.abs()).abs() < 1e-9, "{} {}", gain, loss);
    }

    #[test]
    fn never_nan_and_always_in_bounds(
        w in wild_perf(), b in wild_perf(), result in winner(), now: u64,
    ) {
        let after = update(ByColor::new(w, b), result, now, &LICHESS);
        for (_, p) in after.iter() {
            prop_assert!(finite(p.glicko) && in_bounds(p.glicko), "{:?}", p);
        }
        prop_assert!(w.deviation_at(now, &LICHESS).is_finite());
    }
}
