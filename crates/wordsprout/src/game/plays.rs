//! Plays: growing the central string, and the list of plays a seat may
//! make. With challenges on, an invalid play is accepted as a bluff and
//! stands until it is challenged.

use super::{Error, Event, Frame, OutReason, WinReason, WordSprout};
use crate::board::Board;
use crate::judge::{inserted_letters, Judge};
use crate::language::{is_palindrome, Language};
use crate::rules::{Rule, RuleSet};
use parlor_core::Seat;

impl WordSprout {
    /// How many letters a play from `s` may add (2 from a string locked to
    /// palindromes).
    pub fn max_letters_from(judge: &Judge, rules: &RuleSet, s: &str) -> usize {
        if rules.has(Rule::PalindromeLock) && judge.is_locked(s) {
            2
        } else {
            1
        }
    }

    /// Why `to` is not a valid play from `from` (for error messages).
    pub(super) fn why_invalid(&self, from: &str, to: &str) -> String {
        let v = &self.config.vowels;
        if self.rules.has(Rule::ConsonantStart)
            && to.len() <= 3
            && to.bytes().any(|c| v.is_vowel(c))
        {
            return "the first three letters must be consonants (consonant-start)".into();
        }
        if self.rules.has(Rule::VowelCap) {
            let vowels = to.bytes().filter(|&c| v.is_vowel(c)).count();
            if vowels * 2 > to.len() {
                return "there may not be more vowels than consonants (vowel-cap)".into();
            }
        }
        if self.rules.has(Rule::NoFrontConsonant)
            && from.len() >= 3
            && to.len() == from.len() + 1
            && to[1..] == *from
            && !v.is_vowel(to.as_bytes()[0])
        {
            return "after the first three letters no consonant may be added at the beginning (no-front-consonant)"
                .into();
        }
        if self.rules.has(Rule::PalindromeLock)
            && from.len() >= 3
            && is_palindrome(from.as_bytes())
            && !is_palindrome(to.as_bytes())
        {
            return "the string is locked to palindromes (palindrome-lock)".into();
        }
        if self.rules.has(Rule::WholeWords) {
            return format!("{to:?} is not a goal word (whole-words)");
        }
        format!("no valid goal word contains {to:?}")
    }

    pub(super) fn play(&mut self, seat: Seat, to: String) -> Result<Vec<Event>, Error> {
        self.check_can_play(seat)?;
        let from = self.string.clone();
        let max = Self::max_letters_from(&self.shared.judge, &self.rules, &from);
        // Strings at the table are lowercase; the language's check alone
        // would also accept "OA" after "o".
        let lowercase = to.bytes().all(|b| b.is_ascii_lowercase());
        if !lowercase || !Language::is_insertion(&from, &to, max) {
            return Err(Error::NotAnInsertion { from, to, max });
        }
        let longest = self.shared.lexicon.longest().len();
        if to.len() > longest {
            return Err(Error::TooLong { to, longest });
        }
        let board = match &self.board {
            Some(b) => Some(b.play(&to)?),
            None => None,
        };
        self.commit(seat, from, to, board, None)
    }

    /// Accepts a well-formed play (`from` grows into `to`; `board` is the
    /// grid after it in 2-D; `crossing` when it starts a new 2-D string).
    pub(super) fn commit(
        &mut self,
        seat: Seat,
        from: String,
        to: String,
        board: Option<Board>,
        crossing: Option<(usize, usize)>,
    ) -> Result<Vec<Event>, Error> {
        let out_of_turn = seat != self.to_move;
        let added = inserted_letters(&from, &to);
        if self.rules.has(Rule::Tiles) {
            self.check_tiles(&added)?;
        }
        let judge = self.shared.judge.clone();
        let valid = judge.is_legal_move(&from, &to);
        if !valid && !self.challenges_on() {
            return Err(Error::Invalid {
                why: self.why_invalid(&from, &to),
                to,
            });
        }
        // Accepted.
        let mut events = Vec::new();
        let frame = Frame {
            by: seat,
            from: from.clone(),
            before: self.snapshot(),
            out_of_turn,
            proven: false,
        };
        self.stack.push(frame);
        self.string = to.clone();
        if let Some((line, index)) = crossing {
            events.push(Event::NewString { seat, line, index });
        }
        let closed = board.as_ref().is_some_and(Board::has_hole);
        if board.is_some() {
            self.board = board;
        }
        events.push(Event::Played {
            seat,
            from,
            to,
            out_of_turn,
        });
        let mut completed = false;
        for &c in &added {
            if self.rules.has(Rule::Tiles) {
                self.pot[(c - b'a') as usize] -= 1;
            }
            if self.config.vowels.is_vowel(c) {
                completed |= self.vowel_played(seat, c, &mut events);
            }
        }
        if closed {
            if valid && !out_of_turn {
                self.win_round(seat, WinReason::ClosedShape, &mut events);
                return Ok(events);
            }
            self.put_out(seat, OutReason::InvalidWinningPlay, true, &mut events);
            return Ok(events);
        }
        if completed {
            // A winning play is checked at once: it must be valid and in turn.
            if valid && !out_of_turn {
                self.turn_in(seat, &mut events);
                self.win_round(seat, WinReason::VowelCollection, &mut events);
                return Ok(events);
            }
            self.put_out(seat, OutReason::InvalidWinningPlay, true, &mut events);
            return Ok(events);
        }
        self.to_move = self.next_active(seat, self.forward);
        events.push(Event::ToMove { seat: self.to_move });
        Ok(events)
    }

    /// The valid plays from the central string (results), tiles and grid
    /// permitting: what the helper may show.
    pub fn valid_plays(&self) -> Vec<String> {
        let mut plays = self.shared.judge.moves(&self.string);
        if self.rules.has(Rule::Tiles) {
            plays.retain(|to| self.tiles_allow(&self.string, to));
        }
        if let Some(b) = &self.board {
            plays.retain(|to| b.play(to).is_ok());
        }
        plays
    }

    /// The structurally possible plays from the current string listed as
    /// legal actions when challenges are on: every one-letter insertion and,
    /// under the palindrome lock, the two-letter insertions that keep a
    /// palindrome; tiles, length and grid permitting.
    pub(super) fn all_insertions(&self) -> Vec<String> {
        let max = Self::max_letters_from(&self.shared.judge, &self.rules, &self.string);
        let longest = self.shared.lexicon.longest().len();
        let mut out = std::collections::BTreeSet::new();
        let one = |s: &str| -> Vec<String> {
            let mut v = Vec::new();
            for i in 0..=s.len() {
                for c in b'a'..=b'z' {
                    let mut t = s.as_bytes().to_vec();
                    t.insert(i, c);
                    v.push(String::from_utf8(t).expect("ascii"));
                }
            }
            v
        };
        for t in one(&self.string) {
            if max == 2 {
                // Two-letter insertions: only those that keep a palindrome
                // are listed (any other is surely invalid, and listing all
                // of them would be hundreds of thousands); the others are
                // still accepted as bluffs when submitted.
                for u in one(&t) {
                    if is_palindrome(u.as_bytes())
                        && (self.tiles_allow(&self.string, &u) || !self.rules.has(Rule::Tiles))
                    {
                        out.insert(u);
                    }
                }
            }
            if !self.rules.has(Rule::Tiles) || self.tiles_allow(&self.string, &t) {
                out.insert(t);
            }
        }
        out.into_iter()
            .filter(|t: &String| t.len() <= longest)
            .filter(|t| match &self.board {
                Some(b) => b.play(t).is_ok(),
                None => true,
            })
            .collect()
    }
}
