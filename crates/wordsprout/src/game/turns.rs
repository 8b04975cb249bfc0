//! The order of play: who moves next, who may act at all, and out-of-turn
//! play, which stands unless another player calls it.

use super::{Error, Event, OutReason, Phase, WordSprout};
use crate::rules::Rule;
use parlor_core::{Actor, Seat};

impl WordSprout {
    pub(super) fn next_active(&self, from: Seat, forward: bool) -> Seat {
        let n = self.active.len();
        let mut s = from.0;
        for _ in 0..n {
            s = if forward {
                (s + 1) % n
            } else {
                (s + n - 1) % n
            };
            if self.active[s] {
                return Seat(s);
            }
        }
        from
    }

    /// Checks that `actor` is an active seat and the match is on.
    pub(super) fn seat_of(&self, actor: Actor) -> Result<Seat, Error> {
        if self.phase == Phase::Over {
            return Err(Error::Over);
        }
        match actor {
            Actor::Seat(s) if s.0 >= self.config.players => Err(Error::NoSeat(s)),
            Actor::Seat(s)
                if !self.active[s.0] && !matches!(self.phase, Phase::ChoosingRule { .. }) =>
            {
                Err(Error::SeatOut(s))
            }
            Actor::Seat(s) => Ok(s),
            Actor::Referee => Err(Error::Referee),
        }
    }

    pub(super) fn check_can_play(&self, seat: Seat) -> Result<(), Error> {
        if self.phase != Phase::Playing {
            return Err(Error::NotNow(match &self.phase {
                Phase::Proving { challenged, .. } => {
                    format!("a challenge is pending: {challenged} must name a goal word or concede")
                }
                Phase::ChoosingRule { seat } => format!("{seat} is choosing a rule"),
                _ => "the game is over".into(),
            }));
        }
        if seat != self.to_move && !self.rules.has(Rule::OutOfTurn) {
            return Err(Error::NotYourTurn {
                expected: self.to_move,
                got: seat,
            });
        }
        Ok(())
    }

    pub(super) fn call(&mut self, seat: Seat) -> Result<Vec<Event>, Error> {
        if self.phase != Phase::Playing {
            return Err(Error::NotNow("there is nothing to call now".into()));
        }
        let Some(top) = self.top() else {
            return Err(Error::NotNow("there is no play to call".into()));
        };
        if !top.out_of_turn {
            return Err(Error::NotNow("the last play was made in turn".into()));
        }
        if top.by == seat {
            return Err(Error::NotNow("you cannot call your own play".into()));
        }
        if !self.active[top.by.0] {
            return Err(Error::NotNow(format!("{} is already out", top.by)));
        }
        let offender = top.by;
        let mut events = vec![Event::Called {
            caller: seat,
            offender,
        }];
        self.put_out(offender, OutReason::OutOfTurn, true, &mut events);
        Ok(events)
    }
}
