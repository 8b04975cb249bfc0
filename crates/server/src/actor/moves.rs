//! The move list: every accepted action of the game, numbered, with who
//! made it, when, the events the viewer may see of it (the game's own
//! words, through `DynMatch::history_json`), and whether a clock made it.
//!
//! Nothing here knows a game: the list is the record's actors and times
//! beside the game's per-viewer events, so a page draws it with the same
//! code it draws a live event with.
//!
//! Which moves a clock made is read from what is stored, so it survives a
//! reload: the clocks are replayed from the stored start and the actions'
//! times (`crate::clocks`), and a seat's action at or after its turn clock
//! or bank ran out was the computer's (the server moves for the seat the
//! moment its clock ends; a person's move that arrives in the same
//! millisecond is taken as the clock's, harmlessly), as is a referee
//! action at or after the round clock's end (the round ended on time) or a
//! seat's flag (the forfeit on time). The absent countdown and a claimed
//! win depend on who was connected, which is not stored: those are known
//! to the actor that made the move (kept in memory while the game is
//! live here) and read as ordinary moves after the game leaves memory.

use super::clock::Why;
use super::GameActor;
use parlor_core::{Actor, Clocks, Expiry, Seat, Viewer};
use serde_json::{json, Value};

/// Why a clock made a move, as the move list says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OnClock {
    /// A seat's clock ran out (`why`) and the server moved for it.
    Seat(Seat, Why),
    /// The game's round clock ran out: its referee action.
    Round,
}

impl OnClock {
    pub(super) fn json(self) -> Value {
        match self {
            OnClock::Seat(seat, why) => json!({"reason": why.as_str(), "seat": seat}),
            OnClock::Round => json!({"reason": "round"}),
        }
    }
}

/// Whether the clocks `before` an action by `actor` at `at_ms` had run
/// out on it (see the module doc): banks, turn clocks and the round only,
/// which do not depend on presence.
pub(super) fn step_on_clock(
    before: &Clocks,
    actor: Actor,
    at_ms: i64,
    human: impl Fn(usize) -> bool,
    seats: usize,
) -> Option<OnClock> {
    let due = before.expiries(&vec![None; seats]);
    let ran_out = |e: Expiry| due.iter().any(|&(at, x)| x == e && at <= at_ms);
    match actor {
        Actor::Seat(s) if human(s.0) && ran_out(Expiry::Flag(s)) => {
            Some(OnClock::Seat(s, Why::Flag))
        }
        Actor::Seat(s) if human(s.0) && ran_out(Expiry::Turn(s)) => {
            Some(OnClock::Seat(s, Why::Turn))
        }
        Actor::Seat(_) => None,
        Actor::Referee if ran_out(Expiry::Round) => Some(OnClock::Round),
        Actor::Referee => due.iter().find_map(|&(at, x)| match x {
            Expiry::Flag(s) if at <= at_ms => Some(OnClock::Seat(s, Why::Flag)),
            _ => None,
        }),
    }
}

impl GameActor {
    /// Per action of the record from `from` on, whether a clock made it
    /// (see the module doc): derived from the stored times, plus what
    /// this actor saw.
    pub(super) fn on_clock(&self, from: usize) -> Vec<Option<OnClock>> {
        let steps = &self.clock.timeline.steps;
        let from = from.min(steps.len());
        let mut out = vec![None; steps.len() - from];
        let cached = match self.last_clock_step {
            Some((idx, at, actor, seen)) if from + 1 == steps.len() && idx == from => {
                let s = &steps[from];
                (s.at_ms == at && s.actor == actor).then_some(seen)
            }
            _ => None,
        };
        if let Some(seen) = cached {
            out[0] = seen;
        } else if let Some(start) = self.clock.start_ms {
            let tl = &self.clock.timeline;
            let seats = self.seats.rows.len();
            if let Ok(mut clocks) = Clocks::new(self.row.time_control.clone(), seats) {
                let round = tl.round.as_ref().map(|(k, s)| (k.as_str(), *s));
                clocks.start(start, &tl.to_act, round);
                for (i, step) in steps.iter().enumerate() {
                    if i >= from {
                        out[i - from] = step_on_clock(
                            &clocks,
                            step.actor,
                            step.at_ms,
                            |s| self.human(s),
                            seats,
                        );
                    }
                    let round = step.round.as_ref().map(|(k, s)| (k.as_str(), *s));
                    clocks.on_action(step.at_ms, step.actor, &step.to_act, round);
                }
            }
        }
        for (&idx, &seen) in &self.clock_moves {
            if idx >= from {
                if let Some(slot) = out.get_mut(idx - from) {
                    *slot = Some(seen);
                }
            }
        }
        out
    }

    /// The moves from number `from` + 1 on, as `viewer` may see them:
    /// `[{"n", "by", "at_ms", "clock", "events"}]`.
    pub(super) fn moves_json(&self, viewer: Viewer, from: usize) -> Vec<Value> {
        let steps = &self.clock.timeline.steps;
        let from = from.min(steps.len());
        let clocks = self.on_clock(from);
        // History entry 0 holds the start's events (a deal); entry i the
        // i-th action's.
        let events = self.m.history_json(viewer, from + 1);
        steps[from..]
            .iter()
            .zip(events)
            .zip(clocks)
            .enumerate()
            .map(|(k, ((step, events), clock))| {
                json!({
                    "n": from + k + 1,
                    "by": step.actor,
                    "at_ms": step.at_ms,
                    "clock": clock.map(OnClock::json),
                    "events": events,
                })
            })
            .collect()
    }

    /// The last move as `viewer` may see it (`null` before the first).
    pub(super) fn last_move_json(&self, viewer: Viewer) -> Value {
        let n = self.clock.timeline.steps.len();
        if n == 0 {
            return Value::Null;
        }
        self.moves_json(viewer, n - 1).pop().unwrap_or(Value::Null)
    }
}
