//! Scoring rules: Gobble's (letters beyond the minimum) and classic Boggle's.

use crate::board::Size;
use std::fmt;
use std::str::FromStr;

/// The longest word length a score table covers (64 cells, each Qu = 2 letters).
pub const MAX_WORD_LEN: usize = 2 * crate::board::MAX_CELLS;

/// Which scoring rule applies.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// Gobble: minimum length 3 on boards of up to 16 cells (4x4), 4 on larger
    /// ones (5x5, 6x6); a word of minimum length is worth 1, each further
    /// letter 1 more.
    #[default]
    Gobble,
    /// Classic Boggle: minimum 3; 3–4 letters 1, 5: 2, 6: 3, 7: 5, 8 or more: 11.
    Boggle,
}

impl Scoring {
    /// The minimum word length on a board of `size`.
    pub fn min_len(self, size: Size) -> usize {
        match self {
            Scoring::Gobble if size.cells() > 16 => 4,
            _ => 3,
        }
    }

    /// Points for a word of `len` letters (Qu counting two) on a board of `size`;
    /// 0 when it is too short.
    pub fn points(self, len: usize, size: Size) -> u32 {
        let min = self.min_len(size);
        if len < min {
            return 0;
        }
        match self {
            Scoring::Gobble => (len - min + 1) as u32,
            Scoring::Boggle => match len {
                3 | 4 => 1,
                5 => 2,
                6 => 3,
                7 => 5,
                _ => 11,
            },
        }
    }

    /// Points indexed by word length, `0..=MAX_WORD_LEN`.
    pub fn table(self, size: Size) -> [u32; MAX_WORD_LEN + 1] {
        let mut t = [0; MAX_WORD_LEN + 1];
        for (len, p) in t.iter_mut().enumerate() {
            *p = self.points(len, size);
        }
        t
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scoring::Gobble => "gobble",
            Scoring::Boggle => "boggle",
        })
    }
}

/// An unknown scoring name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown scoring {0:?}; use gobble or boggle")]
pub struct ScoringError(pub String);

impl FromStr for Scoring {
    type Err = ScoringError;
    fn from_str(s: &str) -> Result<Self, ScoringError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "gobble" => Ok(Scoring::Gobble),
            "boggle" => Ok(Scoring::Boggle),
            _ => Err(ScoringError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        let s4 = Size::square(4);
        let s5 = Size::square(5);
        assert_eq!(Scoring::Gobble.points(2, s4), 0);
        assert_eq!(Scoring::Gobble.points(3, s4), 1);
        assert_eq!(Scoring::Gobble.points(6, s4), 4);
        assert_eq!(Scoring::Gobble.points(3, s5), 0);
        assert_eq!(Scoring::Gobble.points(4, s5), 1);
        assert_eq!(Scoring::Gobble.points(7, s5), 4);
        let b: Vec<u32> = (0..10).map(|l| Scoring::Boggle.points(l, s5)).collect();
        assert_eq!(b, [0, 0, 0, 1, 1, 2, 3, 5, 11, 11]);
    }
}
