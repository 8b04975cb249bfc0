//! Time controls: every clock a host keeps for a game, as one pure model.
//!
//! The game never reads the wall clock; the host (server, CLI) keeps its
//! clocks. A [`TimeControl`], part of a game's settings, says which clocks
//! the seats have; [`Clocks`] keeps them, together with the round clock a
//! game asks for itself ([`crate::Game::deadline`]). `Clocks` reads no
//! clock either: it is driven by the times passed in (milliseconds since
//! the Unix epoch, as the host stores them with every action), so the same
//! start time and the same timed actions give the same clocks, in a
//! restart or in another process. [`Clocks::replay`] is exactly that.
//!
//! # What runs, and when
//!
//! The host reports the start of play ([`Clocks::start`]) and every
//! accepted action ([`Clocks::on_action`]), each with who is to act after
//! it and the game's deadline then. From those:
//!
//! - **Who runs.** A seat's clocks run while it is to act: the seat of
//!   [`ToAct::One`], or every seat listed by [`ToAct::Simultaneous`] (each on
//!   its own). Nobody runs before the start, during [`ToAct::Chance`], or
//!   once the game is [`ToAct::Over`]. A seat's *turn* begins when it enters
//!   the seats to act, and again at each of its own actions after which it
//!   is still to act.
//! - **Bank.** When a seat to act acts after `elapsed` ms of its turn, its
//!   bank loses `max(0, elapsed - delay)` and then gains the increment.
//!   Each action counts: a seat that stays to act (several actions in one
//!   turn, a simultaneous phase) gains an increment per action and starts a
//!   fresh delay. A seat that stops being to act without acting (another
//!   seat or the referee ended its turn) loses its elapsed time the same way
//!   but gains no increment: it did not move. An actor that was not to act
//!   (Word Sprout's out-of-turn play, [`Actor::Referee`]) changes no bank:
//!   its clock was not running, so there is nothing to charge or reward.
//! - **Flag.** A running bank reaches zero at `turn start + delay + bank`;
//!   the seat's flag has then fallen, and stays fallen: its bank stays at
//!   zero and gains no more increments. Why: an action that arrives after
//!   the flag fell (before the host reacted) must not save the seat, and a
//!   replay must find the same flag whatever the host did in between. A
//!   fallen seat that is to act again runs out again `delay` after its turn
//!   begins, once per turn, so a host that lets a bot move for it is not
//!   woken in a loop. A bank is never below zero.
//! - **Turn clock.** A seat runs out `turn_seconds` after its turn began.
//!   Another seat's action does not restart it (the server so far restarted
//!   it at every accepted action): the seat still has the same turn to play.
//! - **Absent countdown.** A seat to act that no connection holds runs out
//!   `absent_seconds` after the later of its turn's start and its leaving,
//!   so a player who leaves during someone else's turn is not counted down
//!   for it. Who is away is the host's knowledge, not an action: it is
//!   passed to each question ([`Clocks::next_expiry`], [`Clocks::view`])
//!   instead of being kept, so the replay needs only the stored actions.
//! - **Round.** The game's deadline: a key seen for the first time starts
//!   its clock; the same key in the next state keeps that start (entering a
//!   word does not restart Gobble's round); a new key restarts it; none
//!   stops it. Its length is the latest state's `seconds`.
//! - **Over.** When the game is over every clock stops: banks are frozen as
//!   they were at the last action and the round is dropped.
//!
//! # Time
//!
//! Settings are seconds (what people type); each is turned once into whole
//! milliseconds, rounded, and the clocks count in whole milliseconds, so a
//! replay is exact. Times passed in never run backwards: an action stamped
//! earlier than the one before it (two processes' clocks a few ms apart)
//! counts as happening at the same moment as that one, so no seat gains
//! time from skew and the result depends on the times alone. Questions
//! about a moment before a turn began see that turn at its start.
//!
//! # Running out
//!
//! [`Clocks::next_expiry`] says what runs out first and when; what to do
//! then is the host's rule, not this model's (a flag or an absent seat: the
//! game's [`crate::Game::forfeit`] or a claim of the win; a turn: a bot
//! moves for the seat; the round: the deadline's referee action). Expiries
//! at the same millisecond come in the order of [`Expiry`]: flag, turn,
//! absent, round, then by seat. The flag first because it is the strictest
//! rule; turn before absent as the server already does.
//!
//! # Accepted settings
//!
//! Every duration is at most a week; the bank, turn and absent clocks at
//! least 0.1 s (a shorter one cannot be played over a network), increment
//! and delay at least 0. An increment or a delay without a bank has nothing
//! to act on, so it is refused rather than ignored.

use crate::{Actor, ConfigError, Seat, ToAct};
use serde::{Deserialize, Serialize};

/// The longest duration any setting accepts, in seconds: a week.
const MAX_SECONDS: f64 = 604_800.0;
/// The shortest bank, turn or absent clock accepted, in seconds.
const MIN_SECONDS: f64 = 0.1;

/// Time controls a host keeps for a game: part of the game's settings,
/// never read by the game. All fields are seconds; the default is no clock
/// at all.
///
/// The JSON form leaves out what is not used:
/// `{"bank_seconds": 300, "increment_seconds": 2}` is five minutes per seat
/// plus two seconds a move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimeControl {
    /// A chess-style bank per seat: it runs while the seat is to act, and
    /// the seat's flag falls when it is empty. `None`: no bank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank_seconds: Option<f64>,
    /// Added to a seat's bank after each of that seat's own actions
    /// (Fischer increment). Needs a bank.
    #[serde(skip_serializing_if = "is_zero")]
    pub increment_seconds: f64,
    /// Each turn, a seat's bank starts running only after this long (simple
    /// or US delay). Needs a bank.
    #[serde(skip_serializing_if = "is_zero")]
    pub delay_seconds: f64,
    /// The turn clock: a seat to act that has not acted this long after its
    /// turn began runs out. `None`: no turn clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_seconds: Option<f64>,
    /// The absent countdown: a seat to act that no connection holds runs out
    /// this long after the later of its turn's start and its leaving.
    /// `None`: no countdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absent_seconds: Option<f64>,
}

impl TimeControl {
    /// Checks every field: finite, in range (at most a week; bank, turn and
    /// absent at least 0.1 s), increment and delay only with a bank. The error names the field, what
    /// is accepted and what was found, in one line.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (field, value, none) in [
            ("bank_seconds", self.bank_seconds, "no bank"),
            ("turn_seconds", self.turn_seconds, "no turn clock"),
            ("absent_seconds", self.absent_seconds, "no absent countdown"),
        ] {
            if let Some(v) = value.filter(|v| !(MIN_SECONDS..=MAX_SECONDS).contains(v)) {
                return Err(ConfigError::new(format!(
                    "{field}: from 0.1 to 604800 (a week), or leave it out for {none}; got {v}"
                )));
            }
        }
        for (field, value) in [
            ("increment_seconds", self.increment_seconds),
            ("delay_seconds", self.delay_seconds),
        ] {
            if !(0.0..=MAX_SECONDS).contains(&value) {
                return Err(ConfigError::new(format!(
                    "{field}: from 0 to 604800 (a week); got {value}"
                )));
            }
            if value > 0.0 && self.bank_seconds.is_none() {
                return Err(ConfigError::new(format!(
                    "{field}: needs bank_seconds (it acts on a bank), or 0; got {value} without a bank"
                )));
            }
        }
        Ok(())
    }

    /// Whether no clock at all is kept for the seats: no bank, no turn
    /// clock, no absent countdown. (A game's own round clock still runs.)
    pub fn is_untimed(&self) -> bool {
        self.bank_seconds.is_none() && self.turn_seconds.is_none() && self.absent_seconds.is_none()
    }
}

fn is_zero(seconds: &f64) -> bool {
    *seconds == 0.0
}

/// Whole milliseconds in `seconds`, rounded; anything but a positive finite
/// number is none.
fn millis(seconds: f64) -> i64 {
    if seconds.is_finite() && seconds > 0.0 {
        (seconds * 1000.0).round() as i64
    } else {
        0
    }
}

/// A validated [`TimeControl`] in whole milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Limits {
    bank: Option<i64>,
    increment: i64,
    delay: i64,
    turn: Option<i64>,
    absent: Option<i64>,
}

impl Limits {
    /// What a turn that began at `start` has taken from the bank by `now`.
    fn used(&self, start: i64, now: i64) -> i64 {
        now.saturating_sub(start).saturating_sub(self.delay).max(0)
    }
}

/// One seat's clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SeatClock {
    /// The bank as it was when the current turn began, or as it stopped.
    /// `None` without a bank; `Some(0)`: the flag has fallen (for good).
    bank: Option<i64>,
    /// When the seat's current turn began; `None` while it is not to act.
    turn_start: Option<i64>,
}

/// The game's round clock.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RoundClock {
    key: String,
    start: i64,
    length: i64,
}

/// What runs out. The order is the order of expiries at the same
/// millisecond: flag, turn, absent, round, then by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expiry {
    /// The seat's bank is empty: its flag falls.
    Flag(Seat),
    /// The seat's turn clock ran out.
    Turn(Seat),
    /// The seat, away, ran out of its absent countdown.
    Absent(Seat),
    /// The game's round clock ran out: apply its deadline's action.
    Round,
}

/// The clocks a host keeps for one game, under one [`TimeControl`] plus
/// the game's round clock: a pure model driven by the times passed in
/// (milliseconds since the Unix epoch).
///
/// In short: the banks, turn clocks and absent countdowns of the seats to
/// act run; an action charges its actor's bank the time it took past the
/// delay and adds the increment; a bank that reaches zero stays there (the
/// flag has fallen); the game's deadline keeps its start while its key
/// stays the same; nothing runs once the game is over. The full rules, with
/// the reason for each, open this module's source, `crates/core/src/clock.rs`.
///
/// # Example
///
/// ```
/// use parlor_core::{Actor, Clocks, Expiry, Seat, TimeControl, ToAct};
/// let control = TimeControl {
///     bank_seconds: Some(60.0),
///     increment_seconds: 2.0,
///     ..TimeControl::default()
/// };
/// let mut clocks = Clocks::new(control, 2).unwrap();
/// clocks.start(1_000, &ToAct::One(Seat(0)), None);
/// // Seat 0 takes 10 s over its move: 60 - 10 + 2 left.
/// clocks.on_action(11_000, Actor::Seat(Seat(0)), &ToAct::One(Seat(1)), None);
/// let view = clocks.view(11_000, &[]);
/// assert_eq!(view.seats[0].bank_ms, Some(52_000));
/// // Seat 1's bank runs out 60 s from now, unless it moves.
/// assert_eq!(clocks.next_expiry(&[]), Some((71_000, Expiry::Flag(Seat(1)))));
/// assert_eq!(clocks.flagged(71_000), vec![Seat(1)]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Clocks {
    control: TimeControl,
    limits: Limits,
    seats: Vec<SeatClock>,
    round: Option<RoundClock>,
    /// The latest time passed in: times never run backwards.
    latest: Option<i64>,
}

/// One accepted action as the clocks see it, for [`Clocks::replay`]: when,
/// by whom, and the state after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// When the action was accepted, ms since the Unix epoch.
    pub at_ms: i64,
    /// Who acted.
    pub actor: Actor,
    /// Who is to act after it.
    pub to_act: ToAct,
    /// The game's deadline after it, as (key, seconds).
    pub round: Option<(String, f64)>,
}

impl Clocks {
    /// Clocks for `seats` seats under `control`, nothing running yet (every
    /// bank full). Refuses a control that [`TimeControl::validate`] refuses.
    pub fn new(control: TimeControl, seats: usize) -> Result<Clocks, ConfigError> {
        control.validate()?;
        let limits = Limits {
            bank: control.bank_seconds.map(millis),
            increment: millis(control.increment_seconds),
            delay: millis(control.delay_seconds),
            turn: control.turn_seconds.map(millis),
            absent: control.absent_seconds.map(millis),
        };
        let seat = SeatClock {
            bank: limits.bank,
            turn_start: None,
        };
        Ok(Clocks {
            control,
            limits,
            seats: vec![seat; seats],
            round: None,
            latest: None,
        })
    }

    /// The time control these clocks keep.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Play starts at `at_ms` (every seat filled): `to_act` and the game's
    /// deadline `round` (key, seconds) are the state's at that moment.
    pub fn start(&mut self, at_ms: i64, to_act: &ToAct, round: Option<(&str, f64)>) {
        self.advance(at_ms, None, to_act, round);
    }

    /// An accepted action by `actor` at `at_ms`; `to_act` and `round` are
    /// the state's after it. Seats beyond the clocks' count are ignored.
    pub fn on_action(
        &mut self,
        at_ms: i64,
        actor: Actor,
        to_act: &ToAct,
        round: Option<(&str, f64)>,
    ) {
        self.advance(at_ms, Some(actor), to_act, round);
    }

    /// Clocks rebuilt from the start of play and every action since, as
    /// [`Clocks::start`] and then [`Clocks::on_action`] for each step would
    /// leave them.
    pub fn replay(
        control: TimeControl,
        seats: usize,
        start_ms: i64,
        start_to_act: &ToAct,
        start_round: Option<(&str, f64)>,
        steps: impl IntoIterator<Item = Step>,
    ) -> Result<Clocks, ConfigError> {
        let mut clocks = Clocks::new(control, seats)?;
        clocks.start(start_ms, start_to_act, start_round);
        for step in steps {
            let round = step.round.as_ref().map(|(key, s)| (key.as_str(), *s));
            clocks.on_action(step.at_ms, step.actor, &step.to_act, round);
        }
        Ok(clocks)
    }

    fn advance(
        &mut self,
        at_ms: i64,
        actor: Option<Actor>,
        to_act: &ToAct,
        round: Option<(&str, f64)>,
    ) {
        let at = self.latest.map_or(at_ms, |latest| at_ms.max(latest));
        self.latest = Some(at);
        let actor = match actor {
            Some(Actor::Seat(seat)) => Some(seat),
            Some(Actor::Referee) | None => None,
        };
        let limits = &self.limits;
        for (i, clock) in self.seats.iter_mut().enumerate() {
            let seat = Seat(i);
            let stays = to_act.includes(seat);
            let Some(start) = clock.turn_start else {
                // Not running: an out-of-turn actor is not charged; a seat
                // entering the seats to act begins its turn.
                clock.turn_start = stays.then_some(at);
                continue;
            };
            let acted = actor == Some(seat);
            if !acted && stays {
                // Still on the same turn.
                continue;
            }
            if let Some(bank) = clock.bank {
                let left = (bank - limits.used(start, at)).max(0);
                clock.bank = Some(if acted && left > 0 {
                    left.saturating_add(limits.increment)
                } else {
                    left
                });
            }
            clock.turn_start = stays.then_some(at);
        }
        self.round = match (round, to_act) {
            (None, _) | (_, ToAct::Over) => None,
            (Some((key, seconds)), _) => {
                let length = millis(seconds);
                Some(match self.round.take() {
                    Some(same) if same.key == key => RoundClock { length, ..same },
                    _ => RoundClock {
                        key: key.to_owned(),
                        start: at,
                        length,
                    },
                })
            }
        };
    }

    /// The seat's bank left at `now_ms`, if it has one.
    fn bank_at(&self, clock: &SeatClock, now_ms: i64) -> Option<i64> {
        let bank = clock.bank?;
        Some(match clock.turn_start {
            Some(start) => (bank - self.limits.used(start, now_ms)).max(0),
            None => bank,
        })
    }

    /// When the seat's absent countdown ends, if it is running.
    fn absent_end(&self, seat: usize, start: i64, away_since: &[Option<i64>]) -> Option<i64> {
        let away = (*away_since.get(seat)?)?;
        Some(start.max(away).saturating_add(self.limits.absent?))
    }

    /// Everything that is running, with when it runs out, earliest first
    /// (ties in the order of [`Expiry`]). Times already past are included:
    /// what ran out while the host was not looking is still owed.
    /// `away_since[seat]` is when the seat's last connection closed (`None`:
    /// present; a seat past the slice's end counts as present).
    pub fn expiries(&self, away_since: &[Option<i64>]) -> Vec<(i64, Expiry)> {
        let mut out = Vec::new();
        for (i, clock) in self.seats.iter().enumerate() {
            let Some(start) = clock.turn_start else {
                continue;
            };
            let seat = Seat(i);
            if let Some(bank) = clock.bank {
                let ends = start.saturating_add(self.limits.delay).saturating_add(bank);
                out.push((ends, Expiry::Flag(seat)));
            }
            if let Some(turn) = self.limits.turn {
                out.push((start.saturating_add(turn), Expiry::Turn(seat)));
            }
            if let Some(ends) = self.absent_end(i, start, away_since) {
                out.push((ends, Expiry::Absent(seat)));
            }
        }
        if let Some(round) = &self.round {
            out.push((round.start.saturating_add(round.length), Expiry::Round));
        }
        out.sort();
        out
    }

    /// The first of [`Clocks::expiries`]: what runs out next and when (ms
    /// since the Unix epoch), or `None` when nothing runs.
    pub fn next_expiry(&self, away_since: &[Option<i64>]) -> Option<(i64, Expiry)> {
        self.expiries(away_since).into_iter().next()
    }

    /// The seats whose flag has fallen by `now_ms` (their bank is empty),
    /// for a claim of the win. Empty without a bank.
    pub fn flagged(&self, now_ms: i64) -> Vec<Seat> {
        (self.seats.iter().enumerate())
            .filter(|(_, clock)| self.bank_at(clock, now_ms) == Some(0))
            .map(|(i, _)| Seat(i))
            .collect()
    }

    /// What clients are shown at `now_ms`, given who is away (as for
    /// [`Clocks::expiries`]).
    pub fn view(&self, now_ms: i64, away_since: &[Option<i64>]) -> ClockView {
        let timer = |ends_ms: i64| Timer {
            ends_ms,
            remaining_ms: ends_ms.saturating_sub(now_ms).max(0),
        };
        let seats = (self.seats.iter().enumerate())
            .map(|(i, clock)| {
                let start = clock.turn_start;
                SeatClockView {
                    running: start.is_some(),
                    bank_ms: self.bank_at(clock, now_ms),
                    delay_ms: match (start, clock.bank) {
                        (Some(start), Some(_)) => {
                            let ends = start.saturating_add(self.limits.delay);
                            ends.saturating_sub(now_ms.max(start)).max(0)
                        }
                        _ => 0,
                    },
                    turn: start
                        .zip(self.limits.turn)
                        .map(|(start, turn)| timer(start.saturating_add(turn))),
                    absent: start
                        .and_then(|start| self.absent_end(i, start, away_since))
                        .map(timer),
                }
            })
            .collect();
        let round = self.round.as_ref().map(|round| {
            let ends = timer(round.start.saturating_add(round.length));
            RoundView {
                key: round.key.clone(),
                started_ms: round.start,
                ends_ms: ends.ends_ms,
                remaining_ms: ends.remaining_ms,
            }
        });
        ClockView {
            at_ms: now_ms,
            seats,
            round,
        }
    }
}

/// The clocks as clients are shown them at one moment ([`Clocks::view`]).
/// Durations are what is left at `at_ms`, so a client can count down from
/// when it receives the view without trusting its own clock; ends are ms
/// since the Unix epoch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The moment shown, ms since the Unix epoch.
    pub at_ms: i64,
    /// Per seat, indexed by seat.
    pub seats: Vec<SeatClockView>,
    /// The game's round clock, if one runs.
    pub round: Option<RoundView>,
}

/// One seat's clocks in a [`ClockView`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClockView {
    /// Whether the seat is to act, so its clocks run.
    pub running: bool,
    /// The bank left, ms; 0 once its flag has fallen. `None`: no bank.
    pub bank_ms: Option<i64>,
    /// Of this turn's delay, what is left before the bank runs, ms.
    pub delay_ms: i64,
    /// The turn clock, while it runs.
    pub turn: Option<Timer>,
    /// The absent countdown, while it runs (the seat is to act and away).
    pub absent: Option<Timer>,
}

/// A clock that ends at a fixed time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timer {
    /// When it ends, ms since the Unix epoch.
    pub ends_ms: i64,
    /// What is left at the view's moment, ms (0 once it ended).
    pub remaining_ms: i64,
}

/// The game's round clock in a [`ClockView`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundView {
    /// The deadline's key (the same key is the same clock).
    pub key: String,
    /// When the key first appeared, ms since the Unix epoch.
    pub started_ms: i64,
    /// When it ends, ms since the Unix epoch.
    pub ends_ms: i64,
    /// What is left at the view's moment, ms (0 once it ended).
    pub remaining_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank(seconds: f64) -> TimeControl {
        TimeControl {
            bank_seconds: Some(seconds),
            ..TimeControl::default()
        }
    }

    const S0: Seat = Seat(0);
    const S1: Seat = Seat(1);
    const S2: Seat = Seat(2);

    fn by(seat: Seat) -> Actor {
        Actor::Seat(seat)
    }

    fn both(seats: &[Seat]) -> ToAct {
        ToAct::Simultaneous(seats.to_vec())
    }

    fn clocks(control: TimeControl, seats: usize) -> Clocks {
        Clocks::new(control, seats).unwrap()
    }

    fn banks(clocks: &Clocks, now: i64) -> Vec<Option<i64>> {
        let view = clocks.view(now, &[]);
        view.seats.iter().map(|s| s.bank_ms).collect()
    }

    fn running(clocks: &Clocks) -> Vec<bool> {
        let view = clocks.view(0, &[]);
        view.seats.iter().map(|s| s.running).collect()
    }

    #[test]
    fn validate_accepts_the_ranges() {
        for ok in [
            TimeControl::default(),
            TimeControl {
                bank_seconds: Some(0.1),
                increment_seconds: 0.0,
                delay_seconds: 604_800.0,
                turn_seconds: Some(604_800.0),
                absent_seconds: Some(0.1),
            },
            TimeControl {
                increment_seconds: 2.5,
                ..bank(300.0)
            },
        ] {
            assert_eq!(ok.validate(), Ok(()), "{ok:?}");
        }
    }

    #[test]
    fn validate_says_what_is_accepted() {
        let err = |c: TimeControl| c.validate().unwrap_err().message;
        assert_eq!(
            err(bank(0.0)),
            "bank_seconds: from 0.1 to 604800 (a week), or leave it out for no bank; got 0"
        );
        assert_eq!(
            err(TimeControl {
                turn_seconds: Some(f64::NAN),
                ..TimeControl::default()
            }),
            "turn_seconds: from 0.1 to 604800 (a week), or leave it out for no turn clock; got NaN"
        );
        assert_eq!(
            err(TimeControl {
                absent_seconds: Some(604_801.0),
                ..TimeControl::default()
            }),
            "absent_seconds: from 0.1 to 604800 (a week), or leave it out for no absent countdown; got 604801"
        );
        assert_eq!(
            err(TimeControl {
                increment_seconds: -1.0,
                ..bank(60.0)
            }),
            "increment_seconds: from 0 to 604800 (a week); got -1"
        );
        assert_eq!(
            err(TimeControl {
                delay_seconds: f64::INFINITY,
                ..bank(60.0)
            }),
            "delay_seconds: from 0 to 604800 (a week); got inf"
        );
        assert_eq!(
            err(TimeControl {
                increment_seconds: 2.0,
                ..TimeControl::default()
            }),
            "increment_seconds: needs bank_seconds (it acts on a bank), or 0; got 2 without a bank"
        );
        assert_eq!(
            err(TimeControl {
                delay_seconds: 3.0,
                turn_seconds: Some(30.0),
                ..TimeControl::default()
            }),
            "delay_seconds: needs bank_seconds (it acts on a bank), or 0; got 3 without a bank"
        );
        for e in [
            err(bank(-5.0)),
            err(TimeControl {
                delay_seconds: 1.0,
                ..TimeControl::default()
            }),
        ] {
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn untimed_means_no_seat_clock() {
        assert!(TimeControl::default().is_untimed());
        assert!(!bank(60.0).is_untimed());
        assert!(!TimeControl {
            turn_seconds: Some(30.0),
            ..TimeControl::default()
        }
        .is_untimed());
        assert!(!TimeControl {
            absent_seconds: Some(30.0),
            ..TimeControl::default()
        }
        .is_untimed());
    }

    #[test]
    fn time_control_serde_round_trip() {
        let c = TimeControl {
            bank_seconds: Some(300.0),
            increment_seconds: 2.0,
            delay_seconds: 0.0,
            turn_seconds: None,
            absent_seconds: Some(45.5),
        };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"bank_seconds":300.0,"increment_seconds":2.0,"absent_seconds":45.5}"#
        );
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), c);
        assert_eq!(
            serde_json::from_str::<TimeControl>("{}").unwrap(),
            TimeControl::default()
        );
        assert_eq!(
            serde_json::to_string(&TimeControl::default()).unwrap(),
            "{}"
        );
        let unknown = serde_json::from_str::<TimeControl>(r#"{"bank":300}"#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown field `bank`"),
            "{unknown}"
        );
    }

    #[test]
    fn bank_with_increment() {
        let mut c = clocks(
            TimeControl {
                increment_seconds: 2.0,
                ..bank(60.0)
            },
            2,
        );
        assert_eq!(
            banks(&c, 0),
            [Some(60_000), Some(60_000)],
            "full before the start"
        );
        assert_eq!(running(&c), [false, false]);
        c.start(0, &ToAct::One(S0), None);
        assert_eq!(banks(&c, 4_000), [Some(56_000), Some(60_000)]);
        c.on_action(10_000, by(S0), &ToAct::One(S1), None);
        assert_eq!(running(&c), [false, true]);
        assert_eq!(banks(&c, 15_000), [Some(52_000), Some(55_000)]);
        c.on_action(20_000, by(S1), &ToAct::One(S0), None);
        assert_eq!(banks(&c, 20_000), [Some(52_000), Some(52_000)]);
        // An action after which the seat is still to act: charged, credited,
        // and its turn starts again.
        c.on_action(25_000, by(S0), &ToAct::One(S0), None);
        assert_eq!(banks(&c, 25_000), [Some(49_000), Some(52_000)]);
        assert_eq!(banks(&c, 26_000), [Some(48_000), Some(52_000)]);
    }

    #[test]
    fn bank_with_delay() {
        let mut c = clocks(
            TimeControl {
                delay_seconds: 5.0,
                ..bank(60.0)
            },
            2,
        );
        c.start(0, &ToAct::One(S0), None);
        let v = c.view(3_000, &[]);
        assert_eq!(
            (v.seats[0].bank_ms, v.seats[0].delay_ms),
            (Some(60_000), 2_000)
        );
        assert_eq!(v.seats[1].delay_ms, 0, "not running: no delay shown");
        let v = c.view(8_000, &[]);
        assert_eq!((v.seats[0].bank_ms, v.seats[0].delay_ms), (Some(57_000), 0));
        // Moving within the delay costs nothing.
        c.on_action(4_000, by(S0), &ToAct::One(S1), None);
        assert_eq!(banks(&c, 4_000), [Some(60_000), Some(60_000)]);
        c.on_action(16_000, by(S1), &ToAct::One(S0), None);
        assert_eq!(banks(&c, 16_000), [Some(60_000), Some(53_000)]);
        // Each turn has a fresh delay.
        assert_eq!(banks(&c, 20_000), [Some(60_000), Some(53_000)]);
        assert_eq!(c.view(20_000, &[]).seats[0].delay_ms, 1_000);
        assert_eq!(c.next_expiry(&[]), Some((81_000, Expiry::Flag(S0))));

        // In a simultaneous phase, an actor still to act gets a fresh delay;
        // the others run on from their own turn's start.
        let mut c = clocks(
            TimeControl {
                delay_seconds: 5.0,
                ..bank(60.0)
            },
            2,
        );
        c.start(0, &both(&[S0, S1]), None);
        c.on_action(7_000, by(S0), &both(&[S0, S1]), None);
        assert_eq!(banks(&c, 11_000), [Some(58_000), Some(54_000)]);
    }

    #[test]
    fn flag_falls_at_start_plus_delay_plus_bank_and_stays_fallen() {
        let mut c = clocks(
            TimeControl {
                increment_seconds: 5.0,
                delay_seconds: 1.0,
                ..bank(10.0)
            },
            2,
        );
        c.start(1_000, &ToAct::One(S0), None);
        assert_eq!(c.next_expiry(&[]), Some((12_000, Expiry::Flag(S0))));
        assert_eq!(c.flagged(11_999), []);
        assert_eq!(banks(&c, 11_999), [Some(1), Some(10_000)]);
        assert_eq!(c.flagged(12_000), [S0]);
        assert_eq!(
            banks(&c, 50_000),
            [Some(0), Some(10_000)],
            "never below zero"
        );
        // Moving after the flag fell does not save the seat: no increment.
        c.on_action(13_000, by(S0), &ToAct::One(S1), None);
        assert_eq!(banks(&c, 13_000), [Some(0), Some(10_000)]);
        assert_eq!(c.flagged(13_000), [S0]);
        assert_eq!(c.next_expiry(&[]), Some((24_000, Expiry::Flag(S1))));
        // Its next turn runs out as soon as the delay is over, once.
        c.on_action(14_000, by(S1), &ToAct::One(S0), None);
        assert_eq!(banks(&c, 14_000), [Some(0), Some(15_000)]);
        assert_eq!(c.next_expiry(&[]), Some((15_000, Expiry::Flag(S0))));

        // Moving at the very millisecond the bank empties is too late.
        let mut c = clocks(
            TimeControl {
                increment_seconds: 5.0,
                ..bank(10.0)
            },
            2,
        );
        c.start(0, &ToAct::One(S0), None);
        c.on_action(10_000, by(S0), &ToAct::One(S1), None);
        assert_eq!(c.flagged(10_000), [S0]);
        assert_eq!(banks(&c, 10_000), [Some(0), Some(10_000)]);
    }

    #[test]
    fn simultaneous_seats_each_run_their_own_bank() {
        let mut c = clocks(
            TimeControl {
                increment_seconds: 1.0,
                ..bank(60.0)
            },
            3,
        );
        c.start(0, &both(&[S0, S1, S2]), None);
        assert_eq!(running(&c), [true, true, true]);
        c.on_action(5_000, by(S1), &both(&[S0, S2]), None);
        assert_eq!(running(&c), [true, false, true]);
        assert_eq!(banks(&c, 8_000), [Some(52_000), Some(56_000), Some(52_000)]);
        c.on_action(10_000, by(S0), &both(&[S0, S2]), None);
        assert_eq!(
            banks(&c, 10_000),
            [Some(51_000), Some(56_000), Some(50_000)]
        );
        assert_eq!(
            c.expiries(&[]),
            [(60_000, Expiry::Flag(S2)), (61_000, Expiry::Flag(S0))]
        );
        // The referee ends the phase: whoever was still to act is charged,
        // without increment.
        c.on_action(20_000, Actor::Referee, &ToAct::One(S1), None);
        assert_eq!(running(&c), [false, true, false]);
        assert_eq!(
            banks(&c, 20_000),
            [Some(41_000), Some(56_000), Some(40_000)]
        );
        assert_eq!(c.next_expiry(&[]), Some((76_000, Expiry::Flag(S1))));
    }

    #[test]
    fn out_of_turn_actor_changes_no_bank() {
        let control = TimeControl {
            increment_seconds: 2.0,
            turn_seconds: Some(30.0),
            ..bank(60.0)
        };
        let mut c = clocks(control, 2);
        c.start(0, &ToAct::One(S0), None);
        c.on_action(5_000, by(S1), &ToAct::One(S0), None);
        c.on_action(6_000, Actor::Referee, &ToAct::One(S0), None);
        assert_eq!(banks(&c, 6_000), [Some(54_000), Some(60_000)]);
        assert_eq!(
            c.view(6_000, &[]).seats[0].turn,
            Some(Timer {
                ends_ms: 30_000,
                remaining_ms: 24_000
            }),
            "the same turn goes on"
        );
        // An out-of-turn play that takes the turn: the actor's turn begins,
        // with neither charge nor increment; the seat that lost the turn is
        // charged without increment.
        c.on_action(7_000, by(S1), &ToAct::One(S1), None);
        assert_eq!(banks(&c, 7_000), [Some(53_000), Some(60_000)]);
        assert_eq!(c.next_expiry(&[]), Some((37_000, Expiry::Turn(S1))));
    }

    #[test]
    fn turn_clock_starts_when_the_seat_enters() {
        let mut c = clocks(
            TimeControl {
                turn_seconds: Some(30.0),
                ..TimeControl::default()
            },
            2,
        );
        c.start(1_000, &ToAct::One(S0), None);
        assert_eq!(c.expiries(&[]), [(31_000, Expiry::Turn(S0))]);
        c.on_action(5_000, by(S0), &both(&[S0, S1]), None);
        assert_eq!(
            c.expiries(&[]),
            [(35_000, Expiry::Turn(S0)), (35_000, Expiry::Turn(S1))]
        );
        // Seat 1's own action restarts its turn, not seat 0's.
        c.on_action(9_000, by(S1), &both(&[S0, S1]), None);
        assert_eq!(
            c.expiries(&[]),
            [(35_000, Expiry::Turn(S0)), (39_000, Expiry::Turn(S1))]
        );
        let v = c.view(10_000, &[]);
        assert_eq!(v.seats[1].bank_ms, None, "no bank");
        assert_eq!(
            v.seats[1].turn,
            Some(Timer {
                ends_ms: 39_000,
                remaining_ms: 29_000
            })
        );
        assert_eq!(c.flagged(1_000_000), [], "no bank, no flag");
    }

    #[test]
    fn absent_countdown_from_the_later_of_turn_start_and_leaving() {
        let control = TimeControl {
            turn_seconds: Some(60.0),
            absent_seconds: Some(20.0),
            ..TimeControl::default()
        };
        let mut c = clocks(control, 2);
        c.start(1_000, &ToAct::One(S0), None);
        // Away since before the turn began: counted from the turn's start.
        assert_eq!(
            c.next_expiry(&[Some(500), None]),
            Some((21_000, Expiry::Absent(S0)))
        );
        // Left during the turn: counted from the leaving.
        assert_eq!(
            c.next_expiry(&[Some(4_000), Some(0)]),
            Some((24_000, Expiry::Absent(S0))),
            "seat 1 is away but not to act: no countdown"
        );
        let v = c.view(10_000, &[Some(4_000), Some(0)]);
        assert_eq!(
            v.seats[0].absent,
            Some(Timer {
                ends_ms: 24_000,
                remaining_ms: 14_000
            })
        );
        assert_eq!(v.seats[1].absent, None);
        // Present (or beyond the slice): no countdown.
        assert_eq!(c.next_expiry(&[]), Some((61_000, Expiry::Turn(S0))));
        assert_eq!(c.view(10_000, &[]).seats[0].absent, None);

        // At the same millisecond the turn clock comes first.
        let mut c = clocks(
            TimeControl {
                turn_seconds: Some(20.0),
                absent_seconds: Some(20.0),
                ..TimeControl::default()
            },
            2,
        );
        c.start(1_000, &ToAct::One(S0), None);
        assert_eq!(
            c.expiries(&[Some(0), None]),
            [(21_000, Expiry::Turn(S0)), (21_000, Expiry::Absent(S0))]
        );
    }

    #[test]
    fn round_key_kept_restarted_cleared() {
        let mut c = clocks(TimeControl::default(), 2);
        assert_eq!(c.next_expiry(&[]), None, "nothing runs before the start");
        c.start(1_000, &both(&[S0, S1]), Some(("round 1", 180.0)));
        c.on_action(5_000, by(S0), &both(&[S1]), Some(("round 1", 180.0)));
        assert_eq!(c.next_expiry(&[]), Some((181_000, Expiry::Round)));
        let round = c.view(61_000, &[]).round.unwrap();
        assert_eq!(
            round,
            RoundView {
                key: "round 1".into(),
                started_ms: 1_000,
                ends_ms: 181_000,
                remaining_ms: 120_000
            }
        );
        // The same key with another length: the latest length counts.
        c.on_action(6_000, by(S1), &both(&[S1]), Some(("round 1", 120.5)));
        assert_eq!(c.next_expiry(&[]), Some((121_500, Expiry::Round)));
        // A new key starts again.
        c.on_action(
            121_500,
            Actor::Referee,
            &both(&[S0, S1]),
            Some(("round 2", 180.0)),
        );
        assert_eq!(c.next_expiry(&[]), Some((301_500, Expiry::Round)));
        assert_eq!(c.view(121_500, &[]).round.unwrap().started_ms, 121_500);
        // None stops it.
        c.on_action(130_000, by(S0), &both(&[S1]), None);
        assert_eq!(c.next_expiry(&[]), None);
        assert_eq!(c.view(130_000, &[]).round, None);
        // A key that comes back is a new clock.
        c.on_action(140_000, by(S1), &both(&[S0, S1]), Some(("round 2", 180.0)));
        assert_eq!(c.next_expiry(&[]), Some((320_000, Expiry::Round)));
        // Over stops it whatever the game says.
        c.on_action(
            150_000,
            Actor::Referee,
            &ToAct::Over,
            Some(("round 2", 180.0)),
        );
        assert_eq!(c.next_expiry(&[]), None);
    }

    #[test]
    fn over_stops_every_clock() {
        let control = TimeControl {
            increment_seconds: 2.0,
            turn_seconds: Some(30.0),
            absent_seconds: Some(10.0),
            ..bank(60.0)
        };
        let mut c = clocks(control, 2);
        c.start(0, &ToAct::One(S0), Some(("r", 100.0)));
        c.on_action(10_000, by(S0), &ToAct::One(S1), Some(("r", 100.0)));
        c.on_action(25_000, by(S1), &ToAct::Over, None);
        let away = [Some(0), Some(0)];
        let at_end = c.view(25_000, &away);
        assert_eq!(banks(&c, 25_000), [Some(52_000), Some(47_000)]);
        assert_eq!(at_end.seats.iter().filter(|s| s.running).count(), 0);
        assert_eq!(
            (&at_end.seats[1].turn, &at_end.seats[1].absent),
            (&None, &None)
        );
        assert_eq!(at_end.round, None);
        let later = c.view(10_000_000, &away);
        assert_eq!(later.seats, at_end.seats, "frozen");
        assert_eq!(c.next_expiry(&away), None);
        assert_eq!(c.flagged(10_000_000), []);

        // Chance: nobody's clock runs either.
        let mut c = clocks(bank(60.0), 2);
        c.start(0, &ToAct::Chance, None);
        assert_eq!(running(&c), [false, false]);
        assert_eq!(c.next_expiry(&[]), None);
    }

    #[test]
    fn times_never_run_backwards() {
        let mut c = clocks(bank(60.0), 2);
        c.start(10_000, &ToAct::One(S0), None);
        // Stamped before the start (another process's clock): taken as the
        // start, so nobody gains time.
        c.on_action(9_000, by(S0), &ToAct::One(S1), None);
        assert_eq!(banks(&c, 10_000), [Some(60_000), Some(60_000)]);
        assert_eq!(c.next_expiry(&[]), Some((70_000, Expiry::Flag(S1))));
        // A question about a moment before the turn began sees its start.
        assert_eq!(banks(&c, 5_000), [Some(60_000), Some(60_000)]);
    }

    fn script() -> (i64, ToAct, Option<(String, f64)>, Vec<Step>) {
        let step = |at_ms, actor, to_act, round: Option<&str>| Step {
            at_ms,
            actor,
            to_act,
            round: round.map(|k| (k.to_string(), 90.0)),
        };
        let steps = vec![
            step(4_000, by(S0), both(&[S1, S2]), Some("a")),
            step(6_500, by(S2), both(&[S1, S2]), Some("a")),
            step(7_000, by(S0), both(&[S1, S2]), Some("a")),
            step(9_000, Actor::Referee, ToAct::One(S1), Some("b")),
            step(8_000, by(S1), ToAct::Chance, None),
            step(12_345, Actor::Referee, ToAct::One(S2), None),
            step(20_000, by(S2), ToAct::One(S0), Some("c")),
            step(30_000, by(S0), ToAct::Over, None),
        ];
        (1_000, ToAct::One(S0), Some(("a".to_string(), 90.0)), steps)
    }

    fn full_control() -> TimeControl {
        TimeControl {
            bank_seconds: Some(10.0),
            increment_seconds: 1.5,
            delay_seconds: 0.75,
            turn_seconds: Some(8.0),
            absent_seconds: Some(3.0),
        }
    }

    #[test]
    fn replay_equals_step_by_step() {
        let (start, to_act, round, steps) = script();
        let round = round.as_ref().map(|(k, s)| (k.as_str(), *s));
        let mut c = clocks(full_control(), 3);
        c.start(start, &to_act, round);
        let mut seen = vec![c.clone()];
        for s in &steps {
            let r = s.round.as_ref().map(|(k, s)| (k.as_str(), *s));
            c.on_action(s.at_ms, s.actor, &s.to_act, r);
            seen.push(c.clone());
        }
        for (n, expected) in seen.iter().enumerate() {
            let again = Clocks::replay(
                full_control(),
                3,
                start,
                &to_act,
                round,
                steps[..n].iter().cloned(),
            )
            .unwrap();
            assert_eq!(&again, expected, "after {n} steps");
        }
        assert_eq!(
            Clocks::replay(bank(0.0), 3, start, &to_act, round, steps)
                .unwrap_err()
                .message,
            bank(0.0).validate().unwrap_err().message
        );
    }

    #[test]
    fn new_refuses_what_validate_refuses() {
        let bad = TimeControl {
            delay_seconds: 1.0,
            ..TimeControl::default()
        };
        assert_eq!(
            Clocks::new(bad.clone(), 2).unwrap_err(),
            bad.validate().unwrap_err()
        );
        assert_eq!(clocks(full_control(), 2).control(), &full_control());
    }

    #[test]
    fn clock_view_serde_round_trip() {
        let mut c = clocks(full_control(), 2);
        c.start(1_000, &ToAct::One(S0), Some(("r", 60.0)));
        let view = c.view(2_000, &[Some(1_500), None]);
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "at_ms": 2_000,
                "seats": [
                    {
                        "running": true,
                        "bank_ms": 9_750,
                        "delay_ms": 0,
                        "turn": {"ends_ms": 9_000, "remaining_ms": 7_000},
                        "absent": {"ends_ms": 4_500, "remaining_ms": 2_500},
                    },
                    {
                        "running": false,
                        "bank_ms": 10_000,
                        "delay_ms": 0,
                        "turn": null,
                        "absent": null,
                    },
                ],
                "round": {"key": "r", "started_ms": 1_000, "ends_ms": 61_000, "remaining_ms": 59_000},
            })
        );
        assert_eq!(serde_json::from_value::<ClockView>(json).unwrap(), view);
        let expiry = serde_json::to_string(&Expiry::Flag(S1)).unwrap();
        assert_eq!(expiry, r#"{"flag":1}"#);
        assert_eq!(
            serde_json::from_str::<Expiry>(&expiry).unwrap(),
            Expiry::Flag(S1)
        );
    }
}

#[cfg(test)]
mod props {
    //! Random starts, actions and times (some stamped out of order), held
    //! to the model's invariants.

    use super::*;
    use proptest::collection::vec;
    use proptest::option;
    use proptest::prelude::*;

    fn control() -> impl Strategy<Value = TimeControl> {
        let tenths = |t: u32| f64::from(t) / 10.0;
        (
            option::of(1u32..=300),
            0u32..=50,
            0u32..=50,
            option::of(1u32..=300),
            option::of(1u32..=300),
        )
            .prop_map(move |(bank, increment, delay, turn, absent)| {
                let with_bank = |t: u32| if bank.is_some() { tenths(t) } else { 0.0 };
                TimeControl {
                    bank_seconds: bank.map(tenths),
                    increment_seconds: with_bank(increment),
                    delay_seconds: with_bank(delay),
                    turn_seconds: turn.map(tenths),
                    absent_seconds: absent.map(tenths),
                }
            })
    }

    /// A state as drawn: (kind, one seat, a mask of seats, round key, round
    /// length in seconds).
    type RawState = (u8, usize, u8, u8, u8);

    fn raw_state() -> impl Strategy<Value = RawState> {
        (0u8..12, 0usize..4, any::<u8>(), 0u8..3, 1u8..=100)
    }

    fn state(seats: usize, raw: RawState) -> (ToAct, Option<(String, f64)>) {
        let (kind, one, mask, key, length) = raw;
        let to_act = match kind {
            0..=5 => ToAct::One(Seat(one % seats)),
            6..=9 => ToAct::Simultaneous(
                (0..seats)
                    .filter(|s| mask & (1 << s) != 0)
                    .map(Seat)
                    .collect(),
            ),
            10 => ToAct::Chance,
            _ => ToAct::Over,
        };
        let round = match key {
            0 => None,
            k => Some((format!("round {k}"), f64::from(length))),
        };
        (to_act, round)
    }

    fn as_ref(round: &Option<(String, f64)>) -> Option<(&str, f64)> {
        round.as_ref().map(|(k, s)| (k.as_str(), *s))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn clocks_keep_their_invariants(
            control in control(),
            seats in 1usize..=4,
            start_ms in 0i64..1_000_000,
            start in raw_state(),
            raw_steps in vec((-500i64..6_000, 0usize..5, raw_state()), 0..40),
            away in vec(option::of(0i64..1_100_000), 4),
        ) {
            let (start_to_act, start_round) = state(seats, start);
            let mut clocks = Clocks::new(control.clone(), seats).unwrap();
            clocks.start(start_ms, &start_to_act, as_ref(&start_round));
            let increment = clocks.limits.increment;
            let mut stamp = start_ms;
            let mut steps = Vec::new();
            for (dt, actor, raw) in raw_steps {
                if steps.last().is_some_and(|s: &Step| s.to_act == ToAct::Over) {
                    break;
                }
                stamp += dt;
                let actor = if actor < seats { Actor::Seat(Seat(actor)) } else { Actor::Referee };
                let (to_act, round) = state(seats, raw);
                steps.push(Step { at_ms: stamp, actor, to_act, round });
            }

            for step in &steps {
                let latest = clocks.latest.unwrap();
                let at = step.at_ms.max(latest);
                // Between events: a running bank never grows, a stopped one
                // never changes, none is below zero; the flag expiry is the
                // first millisecond of an empty bank.
                let moments = [latest, (latest + at) / 2, at];
                let views: Vec<ClockView> =
                    moments.iter().map(|&t| clocks.view(t, &away)).collect();
                for seat in 0..seats {
                    let banks: Vec<Option<i64>> =
                        views.iter().map(|v| v.seats[seat].bank_ms).collect();
                    prop_assert!(banks.iter().all(|b| b.unwrap_or(0) >= 0), "{banks:?}");
                    if views[0].seats[seat].running {
                        prop_assert!(banks.windows(2).all(|w| w[1] <= w[0]), "{banks:?}");
                    } else {
                        prop_assert!(banks.windows(2).all(|w| w[1] == w[0]), "{banks:?}");
                    }
                    let flagged = clocks.flagged(at).contains(&Seat(seat));
                    prop_assert_eq!(flagged, banks[2] == Some(0));
                }
                for (ends, expiry) in clocks.expiries(&away) {
                    if let Expiry::Flag(Seat(seat)) = expiry {
                        prop_assert_eq!(clocks.view(ends, &away).seats[seat].bank_ms, Some(0));
                        if clocks.seats[seat].bank > Some(0) {
                            prop_assert_eq!(
                                clocks.view(ends - 1, &away).seats[seat].bank_ms,
                                Some(1)
                            );
                        }
                    }
                }

                // Across the event: only the actor's bank changes, and only
                // by its increment (unless its flag has fallen).
                let before = clocks.view(at, &away);
                clocks.on_action(step.at_ms, step.actor, &step.to_act, as_ref(&step.round));
                let after = clocks.view(at, &away);
                for seat in 0..seats {
                    let (b, a) = (&before.seats[seat], &after.seats[seat]);
                    let credited = step.actor == Actor::Seat(Seat(seat))
                        && b.running
                        && b.bank_ms > Some(0);
                    let expected = b.bank_ms.map(|bank| bank + if credited { increment } else { 0 });
                    prop_assert_eq!(a.bank_ms, expected, "seat {}", seat);
                    prop_assert_eq!(a.running, step.to_act.includes(Seat(seat)));
                }
            }

            let again = Clocks::replay(
                control,
                seats,
                start_ms,
                &start_to_act,
                as_ref(&start_round),
                steps,
            )
            .unwrap();
            prop_assert_eq!(again, clocks);
        }
    }
}
