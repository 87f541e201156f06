//! The domain room driven by random sequences of requests from both seats,
//! a spectator and a stranger (moves legal and illegal, resent and out of
//! turn; draw offers and answers; takeback requests and answers; claims
//! after departures; aborts; resignations; joins; time passing; and a store
//! that refuses a change, which the service undoes). After every step:
//!
//! - the game equals the replay, through hostage-core, of the moves the
//!   events told the store to keep (pushed by each stored move, popped by
//!   each stored takeback);
//! - at most one result was stored, no move was stored after it, and the
//!   room's ending is that result;
//! - no clock holds more than it was ever given (the initial time and an
//!   increment per move), and a game whose flag fell is over once its
//!   deadline is checked.

use std::time::{Duration, Instant};

use hostage_core::{game::Game, ByColor, Color};
use hostage_server::domain::event::Event;
use hostage_server::domain::room::{Change, MoveOutcome, Room};
use hostage_server::domain::{ClockSpec, End, TokenHash};
use proptest::prelude::*;

/// Who sends a request.
#[derive(Copy, Clone, Debug)]
enum Actor {
    White,
    Black,
    Spectator,
    Stranger,
}

impl Actor {
    fn token(self) -> Option<&'static str> {
        match self {
            Actor::White => Some("w"),
            Actor::Black => Some("b"),
            Actor::Spectator => None,
            Actor::Stranger => Some("x"),
        }
    }
}

/// A move request: which move, at which ply.
#[derive(Copy, Clone, Debug)]
enum Pick {
    /// The n-th legal move (modulo their number).
    Legal(usize),
    /// A move text that is not a legal move here.
    Illegal(usize),
}

#[derive(Clone, Debug)]
enum Step {
    Move(Actor, Pick, i8),
    OfferDraw(Actor),
    AnswerDraw(Actor, bool),
    ProposeTakeback(Actor),
    AnswerTakeback(Actor, bool),
    Claim(Actor, bool),
    Abort(Actor),
    Resign(Actor),
    Join(Option<Color>),
    Depart(Color),
    Return(Color),
    Wait(u64),
    CheckDeadline,
}

fn actor() -> impl Strategy<Value = Actor> {
    prop_oneof![
        4 => Just(Actor::White),
        4 => Just(Actor::Black),
        1 => Just(Actor::Spectator),
        1 => Just(Actor::Stranger),
    ]
}

fn color() -> impl Strategy<Value = Color> {
    any::<bool>().prop_map(Color::from_white)
}

fn step() -> impl Strategy<Value = Step> {
    let pick = prop_oneof![4 => any::<usize>().prop_map(Pick::Legal), 1 => any::<usize>().prop_map(Pick::Illegal)];
    prop_oneof![
        12 => (actor(), pick, prop_oneof![8 => Just(0i8), 1 => Just(-1i8), 1 => Just(1i8)])
            .prop_map(|(a, p, o)| Step::Move(a, p, o)),
        1 => actor().prop_map(Step::OfferDraw),
        1 => (actor(), any::<bool>()).prop_map(|(a, y)| Step::AnswerDraw(a, y)),
        1 => actor().prop_map(Step::ProposeTakeback),
        1 => (actor(), any::<bool>()).prop_map(|(a, y)| Step::AnswerTakeback(a, y)),
        1 => (actor(), any::<bool>()).prop_map(|(a, w)| Step::Claim(a, w)),
        1 => actor().prop_map(Step::Abort),
        1 => actor().prop_map(Step::Resign),
        1 => proptest::option::of(color()).prop_map(Step::Join),
        1 => color().prop_map(Step::Depart),
        1 => color().prop_map(Step::Return),
        3 => prop_oneof![0..2_000u64, 0..200_000u64].prop_map(Step::Wait),
        1 => Just(Step::CheckDeadline),
    ]
}

/// Texts that are never a legal move in any position: bad syntax, a man
/// that is not there, a drop from an empty airfield, a king's leap.
const NOT_LEGAL: [&str; 6] = ["", "e2e9", "zz", "Q@h9", "e1e5", "a1a1"];

/// The store as the events describe it, and the time.
struct World {
    room: Room,
    spec: Option<ClockSpec>,
    stored: Vec<String>,
    results: Vec<End>,
    moved_after_end: bool,
    base: Instant,
    elapsed: Duration,
    gone: ByColor<Option<Duration>>,
}

/// How long a seat must be gone before a claim (the server's default).
const ABANDON_AFTER: Duration = Duration::from_secs(120);

impl World {
    fn new(spec: Option<ClockSpec>, joined: bool) -> World {
        let base = Instant::now();
        let (mut room, _) = Room::create(
            "propgame01".into(),
            0,
            spec,
            Color::White,
            TokenHash::of("w"),
        );
        room.limit_first_move(Duration::from_secs(30), base);
        if joined {
            room.join(Some(Color::Black), TokenHash::of("b"), base)
                .expect("the free seat");
        }
        World {
            room,
            spec,
            stored: Vec::new(),
            results: Vec::new(),
            moved_after_end: false,
            base,
            elapsed: Duration::ZERO,
            gone: ByColor::new(None, None),
        }
    }

    fn now(&self) -> Instant {
        self.base + self.elapsed
    }

    /// Keeps a change as the store would, or undoes it (`refused`), as the
    /// service does when the store refuses.
    fn keep(&mut self, change: Change, refused: bool) {
        if refused {
            self.room.undo(change.undo);
        } else {
            self.record(&change.event);
        }
    }

    fn record(&mut self, event: &Event) {
        match event {
            Event::MovePlayed(m) => {
                if !self.results.is_empty() {
                    self.moved_after_end = true;
                }
                assert_eq!(
                    m.ply as usize,
                    self.stored.len(),
                    "a move stored out of order"
                );
                self.stored.push(m.uci.clone());
                if let Some(end) = m.end {
                    self.results.push(end);
                }
            }
            Event::TakenBack { plies, .. } => {
                let left = self.stored.len().saturating_sub(*plies as usize);
                self.stored.truncate(left);
            }
            Event::GameEnded { end, .. } => self.results.push(*end),
            _ => {}
        }
    }

    fn move_text(&self, pick: Pick) -> String {
        let position = self.room.game().position();
        let legal = position.legal_moves();
        match pick {
            Pick::Legal(n) if !legal.is_empty() => legal[n % legal.len()].to_string(),
            Pick::Legal(n) | Pick::Illegal(n) => {
                let text = NOT_LEGAL[n % NOT_LEGAL.len()];
                // Each text is checked not to be legal here, so that the
                // model never mistakes a refusal for a bug.
                assert!(position.parse_uci(text).is_err(), "{text} is legal");
                text.to_owned()
            }
        }
    }

    fn apply(&mut self, step: &Step, refused: bool) {
        let now = self.now();
        let change = match *step {
            Step::Move(actor, pick, offset) => {
                let text = self.move_text(pick);
                let ply = (self.room.game().ply() as i64 + i64::from(offset)).max(0) as u64;
                match self.room.play(actor.token(), &text, ply, now) {
                    Ok(MoveOutcome::Played(c) | MoveOutcome::Flagged(c)) => Some(c),
                    _ => None,
                }
            }
            Step::OfferDraw(a) => self.room.offer_draw(a.token(), now).ok(),
            Step::AnswerDraw(a, yes) => self.room.answer_draw(a.token(), yes, now).ok(),
            Step::ProposeTakeback(a) => self.room.propose_takeback(a.token(), now).ok(),
            Step::AnswerTakeback(a, yes) => self.room.answer_takeback(a.token(), yes, now).ok(),
            Step::Claim(a, win) => {
                let gone = self.gone;
                let elapsed = self.elapsed;
                let gone_for =
                    move |c: Color| gone.get(c).map(|since| elapsed.saturating_sub(since));
                self.room
                    .claim(a.token(), win, gone_for, ABANDON_AFTER, now)
                    .ok()
            }
            Step::Abort(a) => self.room.abort(a.token(), now).ok(),
            Step::Resign(a) => self.room.resign(a.token(), now).ok(),
            Step::Join(want) => {
                let token = TokenHash::of(if want == Some(Color::White) { "w" } else { "b" });
                self.room.join(want, token, now).ok().map(|(_, c)| c)
            }
            Step::Depart(c) => {
                *self.gone.get_mut(c) = Some(self.elapsed);
                None
            }
            Step::Return(c) => {
                *self.gone.get_mut(c) = None;
                None
            }
            Step::Wait(ms) => {
                self.elapsed += Duration::from_millis(ms);
                None
            }
            Step::CheckDeadline => self.room.check_deadline(now),
        };
        if let Some(change) = change {
            self.keep(change, refused);
        }
    }

    fn check(&self) -> Result<(), TestCaseError> {
        let mut replay = Game::new();
        for text in &self.stored {
            let m = replay.position().parse_uci(text).map_err(|e| {
                TestCaseError::fail(format!("stored {text} is not legal on replay: {e}"))
            })?;
            replay
                .push(m)
                .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        }
        let game = self.room.game();
        prop_assert_eq!(game.ply(), self.stored.len(), "the room's ply");
        prop_assert_eq!(game.position().fen(), replay.position().fen());
        prop_assert!(self.results.len() <= 1, "results: {:?}", self.results);
        prop_assert!(!self.moved_after_end, "a move was stored after the result");
        prop_assert_eq!(self.room.end(), self.results.first().copied());
        if let (Some(spec), Some(reading)) = (self.spec, self.room.clocks_at(self.now())) {
            let most = spec.initial_ms + spec.increment_ms * game.ply() as u64;
            for (side, ms) in reading.remaining.iter() {
                prop_assert!(*ms <= most, "{side:?} holds {ms} ms, more than {most}");
            }
        }
        Ok(())
    }
}

fn spec() -> impl Strategy<Value = Option<ClockSpec>> {
    prop_oneof![
        1 => Just(None),
        3 => (1_000..200_000u64, 0..5_000u64).prop_map(|(i, inc)| Some(ClockSpec { initial_ms: i, increment_ms: inc })),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_room_stays_the_replay_of_its_stored_moves(
        spec in spec(),
        joined in prop_oneof![4 => Just(true), 1 => Just(false)],
        steps in proptest::collection::vec((step(), prop_oneof![19 => Just(false), 1 => Just(true)]), 1..120),
    ) {
        let mut world = World::new(spec, joined);
        world.check()?;
        for (step, refused) in &steps {
            world.apply(step, *refused);
            world.check()?;
        }
        // Time runs out for everyone in the end: a timed game that goes on
        // has a deadline, and past it the game is over.
        if spec.is_some() && world.room.end().is_none() {
            if let Some(deadline) = world.room.deadline() {
                world.elapsed = deadline.saturating_duration_since(world.base) + Duration::from_millis(1);
                if let Some(change) = world.room.check_deadline(world.now()) {
                    world.keep(change, false);
                }
                world.check()?;
                prop_assert!(world.room.end().is_some(), "past its deadline the game goes on");
            }
        }
    }
}
