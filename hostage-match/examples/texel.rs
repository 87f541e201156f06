//! The Texel fit of the evaluation's weights to game results.
//!
//! ```text
//! cargo run --release -p hostage-match --example texel -- POSITIONS \
//!     [--iterations N] [--threads T] [--out PARAMS_FILE] [--fixed A,B,…]
//! ```
//!
//! POSITIONS holds `FEN;RESULT;GAME` lines (RESULT 1, 0.5 or 0 from White's
//! point of view), as `examples/texel_data.rs` writes them. The positions
//! of every tenth game (`GAME mod 10 == 0`) are held out for validation,
//! whole games so that neighbouring positions of one game do not sit on
//! both sides; the rest are the training set.
//!
//! Texel's method (Peter Österlund, 2014, described on the Chess
//! Programming Wiki, "Texel's Tuning Method"): the error is the mean of
//! `(result − σ(eval))²` with `σ(s) = 1 / (1 + 10^(−K·s/400))` and `eval`
//! the static evaluation from White's point of view. `K` is fitted first,
//! on the training set with the current weights (a scan, then a finer scan
//! around the best), and then held. The weights are fitted by local search:
//! each weight in turn ([`Params::weights`] order) is moved by its step
//! while the training error falls, up, else down; a weight that moves in
//! neither direction has its step halved (down to 1); the first step is an
//! eighth of the weight's size, at least 1, and a weight moves at most
//! [`MAX_STEPS`] steps in one pass (a weight that few positions touch
//! cannot run away in one go). The middlegame pawn (`piece_mg.0`) stays at
//! 100: it anchors the scale, since K and a common factor of all weights
//! trade off, and the search's margins are in centipawns (`--fixed` names
//! others to hold). A pass over every weight is an
//! iteration; the fit stops after `N` iterations or when no weight moves
//! at step 1. The weights kept are those of the pass with the lowest
//! validation error (early stopping: passes that only fit the training
//! games better are dropped). Everything is deterministic: the same file gives the same
//! weights (the threads split the positions into fixed chunks whose sums
//! are added in a fixed order).
//!
//! It prints K, the training and validation errors before and after, and
//! every weight that moved; with `--out` it writes the fitted weights as
//! `NAME=VALUE` lines (`tune --params FILE` plays with them).

use hostage_core::{Color, Position};
use hostage_engine::eval::{evaluate_with, Params};

/// The most steps a weight moves in one pass.
const MAX_STEPS: usize = 8;

/// A labelled position.
struct Sample {
    pos: Position,
    result: f64,
}

/// `σ(K·s)`: the expected score of White for a White-view evaluation `s`.
fn sigmoid(k: f64, s: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * s / 400.0))
}

/// The evaluation from White's point of view.
fn white_eval(pos: &Position, p: &Params) -> f64 {
    let v = evaluate_with(pos, p);
    f64::from(match pos.turn() {
        Color::White => v,
        Color::Black => -v,
    })
}

/// The mean squared error of `samples` under weights `p` and scale `k`,
/// over `threads` fixed chunks.
fn error(samples: &[Sample], p: &Params, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let sums: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let d = s.result - sigmoid(k, white_eval(&s.pos, p));
                            d * d
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an error thread"))
            .collect()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The `K` that minimises the error with weights `p`: a scan of 0.05
/// steps over [0.1, 3], then of 0.001 steps around the best.
fn fit_k(samples: &[Sample], p: &Params, threads: usize) -> f64 {
    let scan = |from: f64, to: f64, step: f64| {
        let mut best = (f64::INFINITY, from);
        let mut k = from;
        while k <= to + 1e-9 {
            let e = error(samples, p, k, threads);
            if e < best.0 {
                best = (e, k);
            }
            k += step;
        }
        best.1
    };
    let coarse = scan(0.1, 3.0, 0.05);
    scan((coarse - 0.05).max(0.001), coarse + 0.05, 0.001)
}

fn load(path: &str) -> (Vec<Sample>, Vec<Sample>) {
    let text = std::fs::read_to_string(path).expect("the positions file");
    let mut train = Vec::new();
    let mut validation = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split(';');
        let (Some(fen), Some(result), Some(game)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("line {}: FEN;RESULT;GAME expected", n + 1);
        };
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let result: f64 = result.parse().expect("a result 0, 0.5 or 1");
        let game: u64 = game.parse().expect("a game index");
        let sample = Sample { pos, result };
        if game % 10 == 0 {
            validation.push(sample);
        } else {
            train.push(sample);
        }
    }
    (train, validation)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: texel POSITIONS [options]")
        .clone();
    let mut iterations = 12;
    let mut threads = 2;
    let mut out = None;
    let mut fixed = vec!["piece_mg.0".to_string()];
    let mut i = 1;
    while i < args.len() {
        let v = args.get(i + 1).expect("a value after each option");
        match args[i].as_str() {
            "--iterations" => iterations = v.parse().expect("--iterations N"),
            "--threads" => threads = v.parse().expect("--threads T"),
            "--out" => out = Some(v.clone()),
            "--fixed" => fixed.extend(v.split(',').map(str::to_string)),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let start = std::time::Instant::now();
    let (train, validation) = load(&path);
    println!(
        "positions: {} training, {} validation (every tenth game)",
        train.len(),
        validation.len()
    );
    let before = Params::DEFAULT;
    let k = fit_k(&train, &before, threads);
    let train_before = error(&train, &before, k, threads);
    let val_before = error(&validation, &before, k, threads);
    println!("K = {k:.3}");
    println!("before: training {train_before:.6}, validation {val_before:.6}");

    let names: Vec<String> = before.weights().into_iter().map(|(n, _)| n).collect();
    let mut p = before;
    let mut best = train_before;
    let mut steps: Vec<i32> = before
        .weights()
        .iter()
        .map(|(_, v)| (v.abs() / 8).max(1))
        .collect();
    // The weights of the pass with the lowest validation error so far.
    let mut kept = (val_before, before, 0);
    for iteration in 1..=iterations {
        let mut moved = 0;
        for (w, name) in names.iter().enumerate() {
            if fixed.contains(name) {
                continue;
            }
            let current = p.get(name).expect("a named weight");
            let mut improved = false;
            for direction in [1, -1] {
                let mut value = current;
                for _ in 0..MAX_STEPS {
                    let mut trial = p;
                    trial
                        .set(name, value + direction * steps[w])
                        .expect("a named weight");
                    let e = error(&train, &trial, k, threads);
                    if e < best {
                        best = e;
                        p = trial;
                        value += direction * steps[w];
                        improved = true;
                    } else {
                        break;
                    }
                }
                if improved {
                    break;
                }
            }
            if improved {
                moved += 1;
            } else if steps[w] > 1 {
                steps[w] /= 2;
            }
        }
        let val = error(&validation, &p, k, threads);
        println!(
            "iteration {iteration}: training {best:.6}, validation {val:.6}, {moved} weights moved ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
        if val < kept.0 {
            kept = (val, p, iteration);
        }
        if moved == 0
            && names
                .iter()
                .zip(&steps)
                .all(|(name, &s)| s == 1 || fixed.contains(name))
        {
            break;
        }
    }
    let (val_after, p, iteration) = kept;
    println!(
        "after: training {:.6}, validation {val_after:.6} (the weights of pass {iteration})",
        error(&train, &p, k, threads)
    );
    println!("weights (before -> after):");
    for ((name, old), (_, new)) in before.weights().into_iter().zip(p.weights()) {
        let mark = if old == new { "" } else { "  *" };
        println!("  {name:<22} {old:>5} -> {new:>5}{mark}");
    }
    if let Some(file) = out {
        let text: String = p
            .weights()
            .into_iter()
            .map(|(name, v)| format!("{name}={v}\n"))
            .collect();
        std::fs::write(&file, text).expect("write the weights");
        println!("written to {file}");
    }
}
