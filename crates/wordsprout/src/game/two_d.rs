//! The 2-D variant's plays: starting a new string across a letter of the
//! grid (the grid itself is [`crate::board`]).

use super::{Action, Error, Event, WordSprout};
use crate::rules::Rule;
use parlor_core::Seat;

impl WordSprout {
    /// Why a new 2-D string cannot be started now, if it cannot.
    pub fn cross_forbidden(&self) -> Option<String> {
        let board = self.board.as_ref()?;
        for (i, l) in board.lines.iter().enumerate() {
            if l.letters.len() < 5 || !self.shared.judge.is_goal_word(&l.letters) {
                return Some(format!(
                    "a new string may start only when every string is a complete word of at least five letters (string {} is {:?})",
                    i + 1,
                    l.letters
                ));
            }
        }
        None
    }

    pub(super) fn cross(
        &mut self,
        seat: Seat,
        line: usize,
        index: usize,
        letter: char,
        before: bool,
    ) -> Result<Vec<Event>, Error> {
        self.check_can_play(seat)?;
        let Some(board) = &self.board else {
            return Err(Error::NotNow(
                "new strings cross others only in the 2-D variant (two-d)".into(),
            ));
        };
        if let Some(why) = self.cross_forbidden() {
            return Err(Error::NotNow(why));
        }
        let letter = letter.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(Error::NotNow(format!("{letter:?} is not a letter a-z")));
        }
        let next = board.cross(line, index, letter, before)?;
        let to = next.active().letters.clone();
        let from = board.lines[line].letters[index..index + 1].to_string();
        self.commit(seat, from, to, Some(next), Some((line, index)))
    }

    /// 2-D: the new strings that may be started now (valid ones only
    /// unless challenges are on), tiles permitting.
    pub(super) fn cross_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        let Some(board) = &self.board else { return out };
        if self.cross_forbidden().is_some() {
            return out;
        }
        for (line, l) in board.lines.iter().enumerate() {
            for index in 0..l.letters.len() {
                let from = &l.letters[index..index + 1];
                for letter in 'a'..='z' {
                    if self.rules.has(Rule::Tiles) && self.pot[(letter as u8 - b'a') as usize] == 0
                    {
                        continue;
                    }
                    for before in [true, false] {
                        let Ok(next) = board.cross(line, index, letter, before) else {
                            continue;
                        };
                        if !self.challenges_on()
                            && !self
                                .shared
                                .judge
                                .is_legal_move(from, &next.active().letters)
                        {
                            continue;
                        }
                        out.push(Action::Cross {
                            line,
                            index,
                            letter,
                            before,
                        });
                    }
                }
            }
        }
        out
    }
}
