//! Rounds and the match: starting a round, deciding who won it (a whole
//! team with team play), and the final ranking.

use super::{Event, Phase, WinReason, WordSprout};
use crate::board::Board;
use crate::rules::Rule;
use parlor_core::{Outcome, Seat};

impl WordSprout {
    pub(super) fn start_round(&mut self, events: &mut Vec<Event>) {
        let n = self.config.players;
        if !self.rules.has(Rule::PersistentCollections) || !self.rules.has(Rule::VowelCollection) {
            self.collections = vec![0; n];
        }
        self.string.clear();
        self.active = vec![true; n];
        self.out_order.clear();
        self.forward = true;
        self.pot = self.fresh_pot();
        self.stack.clear();
        self.board = self.rules.has(Rule::TwoD).then(|| Board::new(""));
        self.first = Seat((self.round as usize - 1) % n);
        self.to_move = self.first;
        self.phase = Phase::Playing;
        events.push(Event::RoundStarted {
            round: self.round,
            first: self.first,
        });
    }

    /// Ends the round when one player (or one team) is left.
    pub(super) fn end_round_if_decided(&mut self, events: &mut Vec<Event>) -> bool {
        let left: Vec<Seat> = (0..self.active.len())
            .filter(|&i| self.active[i])
            .map(Seat)
            .collect();
        let decided = match left.as_slice() {
            [] => true,
            [_] => true,
            [a, rest @ ..] => {
                let t = self.team_of(*a);
                t.is_some() && rest.iter().all(|s| self.team_of(*s) == t)
            }
        };
        if !decided {
            return false;
        }
        let winner = left.first().copied().unwrap_or(self.to_move);
        self.win_round(winner, WinReason::LastStanding, events);
        true
    }

    fn team_of(&self, seat: Seat) -> Option<usize> {
        if !self.rules.has(Rule::Teams) {
            return None;
        }
        self.config.teams.iter().position(|t| t.contains(&seat.0))
    }

    fn winners_with_team(&self, seat: Seat) -> Vec<Seat> {
        match self.team_of(seat) {
            Some(t) => self.config.teams[t].iter().map(|&s| Seat(s)).collect(),
            None => vec![seat],
        }
    }

    pub(super) fn win_round(&mut self, seat: Seat, reason: WinReason, events: &mut Vec<Event>) {
        let winners = self.winners_with_team(seat);
        for w in &winners {
            self.round_wins[w.0] += 1;
        }
        events.push(Event::RoundWon {
            round: self.round,
            winners: winners.clone(),
            reason,
        });
        if self.round >= self.rounds {
            self.finish(events);
        } else if self.rules.has(Rule::Metamorphism) {
            self.phase = Phase::ChoosingRule { seat };
        } else {
            self.round += 1;
            self.start_round(events);
        }
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        let n = self.config.players;
        let outcome = if self.rounds == 1 {
            // One round: the winners, then the others from the last out to the first.
            let mut ranking: Vec<Vec<Seat>> = Vec::new();
            let winners: Vec<Seat> = (0..n)
                .filter(|&i| self.round_wins[i] > 0)
                .map(Seat)
                .collect();
            ranking.push(winners.clone());
            for s in self.out_order.iter().rev() {
                if !winners.contains(s) {
                    ranking.push(vec![*s]);
                }
            }
            for i in 0..n {
                if !ranking.iter().flatten().any(|s| s.0 == i) {
                    ranking.push(vec![Seat(i)]);
                }
            }
            Outcome {
                ranking,
                scores: None,
            }
        } else {
            Outcome::from_scores(self.round_wins.iter().map(|&w| i64::from(w)).collect())
        };
        events.push(Event::MatchOver {
            winners: outcome.winners().to_vec(),
        });
        self.result = Some(outcome);
    }
}
