//! Trains the evaluation network (`hostage_engine::nnue`) on self-play
//! positions, on the CPU, and writes its weights file.
//!
//! ```text
//! cargo run --release -p hostage-match --example nnue_train -- POSITIONS \
//!     [--epochs E] [--threads T] [--batch B] [--lr LR] [--lambda L] \
//!     [--seed S] [--out FILE]
//! ```
//!
//! POSITIONS holds `FEN;RESULT;GAME;SCORE` lines as `examples/texel_data.rs`
//! writes them (RESULT and SCORE from White's point of view, SCORE the
//! search's centipawns). The positions of every tenth game are held out for
//! validation, whole games, as in the Texel tuner.
//!
//! The network is the engine's: [`FEATURES`] inputs per perspective, one
//! shared layer of [`HIDDEN`] units clipped to `0..=1`, the side to move's
//! units and the other side's into one output, `SCALE` centipawns a unit.
//! Its prediction of the side to move's expected score is
//! `σ(cp / K)` (`σ(x) = 1 / (1 + e^−x)`); the target is
//! `λ · σ(score / K) + (1 − λ) · result`, the search's score blended with
//! the game's result, both for the side to move. `K` is fitted first to the
//! data, the one for which `σ(score / K)` predicts the results best, so that
//! the network's centipawns stay on the search's scale. The loss is the mean
//! squared error; Adam (β₁ 0.9, β₂ 0.999) at `LR` for two thirds of the
//! epochs and `LR / 10` after; the weights are clipped after every step
//! (the first layer's to ±`W1_CLIP`, the output's to ±1.98: the engine's
//! integer layers need it, `nnue/network.rs`). The
//! epoch with the lowest validation loss is kept, quantised and written.
//!
//! Deterministic: the shuffles come from `Rng::new(S)` and the threads
//! split each batch into fixed chunks whose gradients are added in order.

use hostage_core::{Color, Position};
use hostage_engine::nnue::{Features, Network, FEATURES, HIDDEN, QA, QB, SCALE, W1_CLIP};
use hostage_engine::{eval::evaluate, Rng};

/// The output weights' bound (`nnue/network.rs`).
const W2_CLIP: f32 = 1.98;

/// One labelled position: its features from the side to move's point of
/// view, then from the other side's, and its target.
struct Sample {
    start: usize,
    us: u16,
    them: u16,
    result: f32,
    score: f32,
    /// The hand-written evaluation, for comparison.
    hand: f32,
}

/// The positions, their features in one flat list.
#[derive(Default)]
struct Set {
    samples: Vec<Sample>,
    features: Vec<u16>,
}

impl Set {
    fn push(&mut self, pos: &Position, result: f32, score: f32) {
        let hand = evaluate(pos) as f32;
        let stm = pos.turn();
        let start = self.features.len();
        let us = Features::of(pos, stm);
        let them = Features::of(pos, !stm);
        self.features.extend(us.iter().map(|f| f as u16));
        self.features.extend(them.iter().map(|f| f as u16));
        self.samples.push(Sample {
            start,
            us: us.count() as u16,
            them: them.count() as u16,
            result,
            score,
            hand,
        });
    }

    fn features_of(&self, s: &Sample) -> (&[u16], &[u16]) {
        let us = &self.features[s.start..s.start + usize::from(s.us)];
        let them = &self.features[s.start + usize::from(s.us)..][..usize::from(s.them)];
        (us, them)
    }
}

/// The settings, from the command line.
struct Config {
    path: String,
    epochs: usize,
    threads: usize,
    batch: usize,
    lr: f32,
    lambda: f32,
    seed: u64,
    out: String,
}

fn parse_args() -> Config {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut c = Config {
        path: args.first().cloned().expect("the positions file"),
        epochs: 30,
        threads: 2,
        batch: 16_384,
        lr: 0.001,
        lambda: 0.75,
        seed: 1,
        out: "nnue.bin".to_owned(),
    };
    let mut i = 1;
    while i < args.len() {
        let v = args.get(i + 1).expect("a value after each option");
        match args[i].as_str() {
            "--epochs" => c.epochs = v.parse().expect("--epochs E"),
            "--threads" => c.threads = v.parse().expect("--threads T"),
            "--batch" => c.batch = v.parse().expect("--batch B"),
            "--lr" => c.lr = v.parse().expect("--lr LR"),
            "--lambda" => c.lambda = v.parse().expect("--lambda L"),
            "--seed" => c.seed = v.parse().expect("--seed S"),
            "--out" => c.out.clone_from(v),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    c
}

fn load(path: &str) -> (Set, Set) {
    let text = std::fs::read_to_string(path).expect("the positions file");
    let mut train = Set::default();
    let mut validation = Set::default();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, result, game, score] = fields[..] else {
            panic!("line {}: FEN;RESULT;GAME;SCORE expected", n + 1);
        };
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let white_result: f32 = result.parse().expect("a result 0, 0.5 or 1");
        let white_score: f32 = score.parse().expect("a score in centipawns");
        let game: u64 = game.parse().expect("a game index");
        let (result, score) = match pos.turn() {
            Color::White => (white_result, white_score),
            Color::Black => (1.0 - white_result, -white_score),
        };
        let set = if game % 10 == 0 {
            &mut validation
        } else {
            &mut train
        };
        set.push(&pos, result, score);
    }
    (train, validation)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` for which `σ(score / K)` predicts the results best (a scan).
fn fit_k(set: &Set) -> f32 {
    let error = |k: f32| -> f64 {
        set.samples
            .iter()
            .map(|s| f64::from((s.result - sigmoid(s.score / k)).powi(2)))
            .sum::<f64>()
    };
    let mut best = (f64::INFINITY, 0.0);
    for step in 1..=200 {
        let k = step as f32 * 10.0;
        let e = error(k);
        if e < best.0 {
            best = (e, k);
        }
    }
    best.1
}

/// The network in floating point, and its gradient of the same shape.
#[derive(Clone)]
struct Weights {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Weights {
    fn zero() -> Weights {
        Weights {
            w1: vec![0.0; FEATURES * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
        }
    }

    fn random(rng: &mut Rng) -> Weights {
        let mut uniform = |a: f32| (rng.below(1 << 24) as f32 / (1 << 24) as f32 * 2.0 - 1.0) * a;
        let mut w = Weights::zero();
        w.w1.iter_mut().for_each(|x| *x = uniform(0.1));
        w.b1.iter_mut().for_each(|x| *x = 0.25);
        w.w2.iter_mut().for_each(|x| *x = uniform(0.1));
        w
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(&mut self.b1)
            .chain(&mut self.w2)
            .chain(std::iter::once(&mut self.b2))
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(std::iter::once(&self.b2))
    }

    /// The hidden layer of one perspective.
    fn hidden(&self, features: &[u16]) -> [f32; HIDDEN] {
        let mut acc = [0.0f32; HIDDEN];
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[usize::from(f) * HIDDEN..][..HIDDEN];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        acc
    }

    /// The output (network units) from the two hidden layers.
    fn output(&self, us: &[f32; HIDDEN], them: &[f32; HIDDEN]) -> f32 {
        let (w_us, w_them) = self.w2.split_at(HIDDEN);
        let dot = |acc: &[f32; HIDDEN], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum()
        };
        dot(us, w_us) + dot(them, w_them) + self.b2
    }

    fn quantise(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        Network::from_parts(
            self.w1.iter().map(|&x| q(x, QA)).collect(),
            self.b1.iter().map(|&x| q(x, QA)).collect(),
            self.w2.iter().map(|&x| q(x, QB)).collect(),
            (self.b2 * (QA * QB) as f32).round() as i32,
        )
        .expect("the shapes are the network's")
    }
}

/// The loss of one sample, adding its gradient to `grad` if given.
fn sample_loss(
    w: &Weights,
    set: &Set,
    s: &Sample,
    k: f32,
    lambda: f32,
    grad: Option<&mut Weights>,
) -> f32 {
    let (fu, ft) = set.features_of(s);
    let (us, them) = (w.hidden(fu), w.hidden(ft));
    let out = w.output(&us, &them);
    let p = sigmoid(out * SCALE as f32 / k);
    let target = lambda * sigmoid(s.score / k) + (1.0 - lambda) * s.result;
    let loss = (p - target).powi(2);
    if let Some(g) = grad {
        let d = 2.0 * (p - target) * p * (1.0 - p) * SCALE as f32 / k;
        g.b2 += d;
        for (side, (acc, features)) in [(&us, fu), (&them, ft)].into_iter().enumerate() {
            let mut dacc = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = acc[j];
                g.w2[side * HIDDEN + j] += d * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    dacc[j] = d * w.w2[side * HIDDEN + j];
                }
            }
            g.b1.iter_mut().zip(&dacc).for_each(|(g, d)| *g += d);
            for &f in features {
                let row = &mut g.w1[usize::from(f) * HIDDEN..][..HIDDEN];
                row.iter_mut().zip(&dacc).for_each(|(g, d)| *g += d);
            }
        }
    }
    loss
}

/// The mean loss over `set`, on `threads` threads.
fn mean_loss(w: &Weights, set: &Set, k: f32, lambda: f32, threads: usize) -> f64 {
    let chunk = set.samples.len().div_ceil(threads).max(1);
    let sums: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = set
            .samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| f64::from(sample_loss(w, set, s, k, lambda, None)))
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker"))
            .collect()
    });
    sums.iter().sum::<f64>() / set.samples.len().max(1) as f64
}

fn main() {
    let c = parse_args();
    let start = std::time::Instant::now();
    let (train, validation) = load(&c.path);
    let k = fit_k(&train);
    // The hand-written evaluation judged by the same loss, and how far it
    // is from the search's scores: the figures the network has to beat.
    let hand = |set: &Set| -> (f64, f64) {
        let n = set.samples.len().max(1) as f64;
        let (loss, diff) = set.samples.iter().fold((0.0, 0.0), |(l, d), s| {
            let target = c.lambda * sigmoid(s.score / k) + (1.0 - c.lambda) * s.result;
            let p = sigmoid(s.hand / k);
            (
                l + f64::from((p - target).powi(2)),
                d + f64::from((s.hand - s.score).abs()),
            )
        });
        (loss / n, diff / n)
    };
    let (hand_loss, hand_diff) = hand(&validation);
    eprintln!(
        "{} training and {} validation positions, K = {k}; the hand-written \
         evaluation: validation {hand_loss:.6}, mean |evaluation − search| {hand_diff:.0} cp ({:.0} s)",
        train.samples.len(),
        validation.samples.len(),
        start.elapsed().as_secs_f64()
    );
    let mut rng = Rng::new(c.seed);
    let mut w = Weights::random(&mut rng);
    let mut m = Weights::zero();
    let mut v = Weights::zero();
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut best = (f64::INFINITY, w.clone(), 0);
    let mut order: Vec<usize> = (0..train.samples.len()).collect();
    let mut grads = vec![Weights::zero(); c.threads];
    for epoch in 1..=c.epochs {
        let lr = if epoch * 3 <= c.epochs * 2 {
            c.lr
        } else {
            c.lr / 10.0
        };
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for batch in order.chunks(c.batch) {
            let chunk = batch.len().div_ceil(c.threads);
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(batch.chunks(chunk)) {
                    let (w, train) = (&w, &train);
                    scope.spawn(move || {
                        g.params_mut().for_each(|x| *x = 0.0);
                        for &i in part {
                            sample_loss(w, train, &train.samples[i], k, c.lambda, Some(g));
                        }
                    });
                }
            });
            let used = batch.chunks(chunk).count();
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            let scale = 1.0 / batch.len() as f32;
            let mut sum = grads[0].clone();
            for g in &grads[1..used] {
                sum.params_mut().zip(g.params()).for_each(|(s, x)| *s += x);
            }
            let first_layer = (FEATURES + 1) * HIDDEN;
            for (i, (((p, g), m), v)) in w
                .params_mut()
                .zip(sum.params())
                .zip(m.params_mut())
                .zip(v.params_mut())
                .enumerate()
            {
                let g = g * scale;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *p -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                let clip = if i < first_layer { W1_CLIP } else { W2_CLIP };
                *p = p.clamp(-clip, clip);
            }
        }
        let t = mean_loss(&w, &train, k, c.lambda, c.threads);
        let val = mean_loss(&w, &validation, k, c.lambda, c.threads);
        eprintln!(
            "epoch {epoch}: lr {lr}, training {t:.6}, validation {val:.6} ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
        if val < best.0 {
            best = (val, w.clone(), epoch);
        }
    }
    let net = best.1.quantise();
    // How far the integer network is from the search's scores.
    let mut diff = 0.0f64;
    for s in &validation.samples {
        let (fu, ft) = validation.features_of(s);
        let f = best.1.output(&best.1.hidden(fu), &best.1.hidden(ft)) * SCALE as f32;
        diff += f64::from((f - s.score).abs());
    }
    let sample = validation.samples.len().max(1) as f64;
    std::fs::write(&c.out, net.to_bytes()).expect("write the network");
    eprintln!(
        "kept epoch {} (validation {:.6}); mean |network − search| {:.0} cp; wrote {}",
        best.2,
        best.0,
        diff / sample,
        c.out
    );
}
