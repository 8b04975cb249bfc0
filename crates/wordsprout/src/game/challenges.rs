//! Challenges: the player to move (anyone, with open challenges) disputes
//! the last play, and its player must name a goal word or go out.

use super::{Error, Event, OutReason, Phase, WordSprout};
use crate::rules::Rule;
use parlor_core::Seat;

impl WordSprout {
    pub(super) fn challenges_on(&self) -> bool {
        self.rules.has(Rule::Challenge) || self.rules.has(Rule::OpenChallenge)
    }

    pub(super) fn challenge(&mut self, seat: Seat) -> Result<Vec<Event>, Error> {
        if self.phase != Phase::Playing {
            return Err(Error::NotNow("there is nothing to challenge now".into()));
        }
        let open = self.rules.has(Rule::OpenChallenge);
        if !open && !self.rules.has(Rule::Challenge) {
            return Err(Error::NotNow("challenges are off".into()));
        }
        if !open && seat != self.to_move {
            return Err(Error::NotNow(format!(
                "only the player to move ({}) may challenge",
                self.to_move
            )));
        }
        let Some(top) = self.top() else {
            return Err(Error::NotNow("there is no play to challenge".into()));
        };
        if top.by == seat {
            return Err(Error::NotNow("you cannot challenge your own play".into()));
        }
        if top.proven {
            return Err(Error::NotNow("that play was already shown valid".into()));
        }
        if !self.active[top.by.0] {
            return Err(Error::NotNow(format!("{} is already out", top.by)));
        }
        let challenged = top.by;
        self.phase = Phase::Proving {
            challenger: seat,
            challenged,
            open,
        };
        Ok(vec![Event::Challenged {
            challenger: seat,
            challenged,
            string: self.string.clone(),
        }])
    }

    pub(super) fn prove(&mut self, seat: Seat, word: String) -> Result<Vec<Event>, Error> {
        let Phase::Proving {
            challenger,
            challenged,
            open,
        } = self.phase.clone()
        else {
            return Err(Error::NotNow("there is no challenge to answer".into()));
        };
        if seat != challenged {
            return Err(Error::NotNow(format!(
                "{challenged} must answer the challenge"
            )));
        }
        let top = self.top().expect("a challenged play");
        let from = top.from.clone();
        let judge = &self.shared.judge;
        let bad = |why: String| Error::BadProof {
            word: word.clone(),
            string: self.string.clone(),
            why,
        };
        if !judge.is_legal_move(&from, &self.string) {
            return Err(bad(format!(
                "the play {from:?} -> {:?} is not valid ({}); concede",
                self.string,
                self.why_invalid(&from, &self.string)
            )));
        }
        if !judge.is_goal_word(&word) {
            return Err(bad("it is not a valid goal word here".into()));
        }
        if !word.contains(self.string.as_str())
            && !judge.goal_words(&self.string).contains(&word.as_str())
        {
            return Err(bad("it does not contain the string".into()));
        }
        let mut events = vec![Event::Proved { seat, word }];
        self.stack.last_mut().expect("a challenged play").proven = true;
        let _ = open;
        self.phase = Phase::Playing;
        self.put_out(challenger, OutReason::FailedChallenge, false, &mut events);
        Ok(events)
    }
}
