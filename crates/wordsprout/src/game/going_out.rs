//! Going out (conceding, losing a challenge, being called) and undoing the
//! losing play.

use super::{Error, Event, OutReason, Phase, Snapshot, WinReason, WordSprout};
use crate::rules::Rule;
use parlor_core::Seat;

impl WordSprout {
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            string: self.string.clone(),
            pot: self.pot,
            collections: self.collections.clone(),
            forward: self.forward,
            to_move: self.to_move,
            board: self.board.clone(),
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.string = s.string;
        self.pot = s.pot;
        self.collections = s.collections;
        self.forward = s.forward;
        self.to_move = s.to_move;
        self.board = s.board;
    }

    /// Puts `seat` out. `undo`: the seat's losing play is the top frame and
    /// is undone (with rule 4). Then sets who moves next and checks for the
    /// end of the round.
    pub(super) fn put_out(
        &mut self,
        seat: Seat,
        reason: OutReason,
        undo: bool,
        events: &mut Vec<Event>,
    ) {
        self.active[seat.0] = false;
        self.out_order.push(seat);
        events.push(Event::Out { seat, reason });
        if undo {
            let frame = self.stack.pop().expect("a losing play to undo");
            if self.rules.has(Rule::UndoLosingPlay) {
                let before_forward = self.forward;
                self.restore(frame.before);
                if self.forward != before_forward {
                    events.push(Event::Reversed {
                        forward: self.forward,
                    });
                }
                events.push(Event::Undone {
                    seat,
                    string: self.string.clone(),
                });
            } else {
                // The play stands but can no longer be challenged or called;
                // play goes on from the player who was to move before it if
                // it was out of turn, else from the player after the loser.
                let mut f = frame;
                f.proven = true;
                f.out_of_turn = false;
                if f.before.to_move != seat {
                    self.to_move = f.before.to_move;
                }
                self.stack.push(f);
            }
        }
        if self.end_round_if_decided(events) {
            return;
        }
        if !self.active[self.to_move.0] {
            self.to_move = self.next_active(self.to_move, self.forward);
        }
        if let Phase::Proving { .. } = self.phase {
            self.phase = Phase::Playing;
        }
        events.push(Event::ToMove { seat: self.to_move });
    }

    pub(super) fn concede(&mut self, seat: Seat, by_referee: bool) -> Result<Vec<Event>, Error> {
        let mut events = Vec::new();
        match self.phase.clone() {
            Phase::Proving {
                challenger,
                challenged,
                open,
            } => {
                if seat == challenged {
                    if open {
                        self.active[seat.0] = false;
                        self.out_order.push(seat);
                        events.push(Event::Out {
                            seat,
                            reason: OutReason::LostChallenge,
                        });
                        self.win_round(challenger, WinReason::OpenChallenge, &mut events);
                    } else {
                        self.phase = Phase::Playing;
                        self.put_out(seat, OutReason::LostChallenge, true, &mut events);
                    }
                } else {
                    return Err(Error::NotNow(format!(
                        "{challenged} must answer the challenge first"
                    )));
                }
            }
            Phase::Playing => {
                let reason = if by_referee {
                    OutReason::Referee
                } else {
                    OutReason::Conceded
                };
                self.put_out(seat, reason, false, &mut events)
            }
            Phase::ChoosingRule { .. } => return Err(Error::NotNow("the round is over".into())),
            Phase::Over => return Err(Error::Over),
        }
        Ok(events)
    }
}
