//! What a played vowel does beyond being a letter: it reverses the order of
//! play (vowel-reverses) and joins the player's collection
//! (vowel-collection, vowel-loss, collections-reset).

use super::{Event, WordSprout};
use crate::rules::Rule;
use parlor_core::Seat;

pub(super) fn bit(c: u8) -> u32 {
    1 << (c - b'a')
}

pub(super) fn mask_letters(mask: u32) -> String {
    (b'a'..=b'z')
        .filter(|&c| mask & bit(c) != 0)
        .map(char::from)
        .collect()
}

impl WordSprout {
    /// Applies a vowel `seat` just played (its tile already taken from the
    /// pot); true when it completes the seat's collection.
    pub(super) fn vowel_played(&mut self, seat: Seat, c: u8, events: &mut Vec<Event>) -> bool {
        if self.rules.has(Rule::VowelReverses) {
            self.forward = !self.forward;
            events.push(Event::Reversed {
                forward: self.forward,
            });
        }
        if !self.rules.has(Rule::VowelCollection) {
            return false;
        }
        let held = self.collections[seat.0] & bit(c) != 0;
        let i = (c - b'a') as usize;
        if held {
            if self.rules.has(Rule::VowelLoss) {
                self.collections[seat.0] &= !bit(c);
                if self.rules.has(Rule::Tiles) {
                    self.pot[i] += 1;
                }
                events.push(Event::LostVowel {
                    seat,
                    vowel: c as char,
                });
            }
            false
        } else if self.rules.has(Rule::Tiles) && self.pot[i] == 0 {
            events.push(Event::LastTile {
                seat,
                vowel: c as char,
            });
            false
        } else {
            if self.rules.has(Rule::Tiles) {
                self.pot[i] -= 1;
            }
            self.collections[seat.0] |= bit(c);
            events.push(Event::Collected {
                seat,
                vowel: c as char,
            });
            let all: u32 = self.config.vowels.letters().iter().map(|&v| bit(v)).sum();
            self.collections[seat.0] & all == all
        }
    }

    /// Turns in the winner's collection (every collection with
    /// collections-reset).
    pub(super) fn turn_in(&mut self, seat: Seat, events: &mut Vec<Event>) {
        let turned: Vec<Seat> = if self.rules.has(Rule::CollectionsReset) {
            (0..self.config.players).map(Seat).collect()
        } else {
            vec![seat]
        };
        for s in &turned {
            self.collections[s.0] = 0;
        }
        events.push(Event::TurnedIn { seats: turned });
    }
}
