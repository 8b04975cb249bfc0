//! Dice sets and rolling boards, from a keyphrase or any seed string.

use crate::board::{Board, Size};
use crate::rng::SeedRandom;
use std::fmt;
use std::str::FromStr;

/// A set of six-faced dice, one die per cell; a `Q` face is the Qu cell.
///
/// The built-in sets live in `data/gobble/` (one die a line, `#` comments);
/// their order in the file is the order the board algorithm shuffles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceSet {
    name: &'static str,
    size: Size,
    dice: Vec<[u8; 6]>,
}

/// The names of the built-in dice sets, with their board size.
pub const DICE_SETS: [(&str, usize, &str); 4] = [
    ("1987", 4, "the 1987 4x4 set (default for 4x4)"),
    ("classic", 4, "the earlier classic 4x4 set"),
    ("1979", 5, "the 1979 Big Boggle 5x5 set (default for 5x5)"),
    (
        "gobble6",
        6,
        "parlor's 36-die 6x6 set of single letters and Qu (default for 6x6)",
    ),
];

fn source(name: &str) -> Option<&'static str> {
    Some(match name {
        "1987" => include_str!("../../../data/gobble/dice-4x4-1987.txt"),
        "classic" => include_str!("../../../data/gobble/dice-4x4-classic.txt"),
        "1979" => include_str!("../../../data/gobble/dice-5x5-1979.txt"),
        "gobble6" => include_str!("../../../data/gobble/dice-6x6-gobble.txt"),
        _ => return None,
    })
}

/// A dice set name that is not built in, or a size without a default set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// Unknown name.
    #[error("unknown dice set {0:?}; the sets are 1987, classic (4x4), 1979 (5x5), gobble6 (6x6)")]
    Unknown(String),
    /// The set's dice do not cover this size.
    #[error("dice set {name} has {dice} dice and cannot fill a {size} board")]
    WrongSize {
        /// Dice set.
        name: String,
        /// Its number of dice.
        dice: usize,
        /// Requested size.
        size: Size,
    },
    /// No default set for the size.
    #[error("there is no dice set for a {0} board (dice sets exist for 4x4, 5x5 and 6x6)")]
    NoDefault(Size),
}

impl DiceSet {
    /// A built-in set by name (`1987`, `classic`, `1979`, `gobble6`).
    pub fn named(name: &str) -> Result<Self, DiceError> {
        let lower = name.trim().to_ascii_lowercase();
        let (key, n) = DICE_SETS
            .iter()
            .find(|(k, _, _)| *k == lower)
            .map(|(k, n, _)| (*k, *n))
            .ok_or_else(|| DiceError::Unknown(name.to_string()))?;
        let text = source(key).expect("built-in set");
        let dice = parse_dice(text);
        assert_eq!(
            dice.len(),
            n * n,
            "built-in dice set {key} has the wrong number of dice"
        );
        Ok(DiceSet {
            name: key,
            size: Size::square(n),
            dice,
        })
    }

    /// The default set for a size: `1987` for 4x4, `1979` for 5x5, `gobble6` for 6x6.
    pub fn default_for(size: Size) -> Result<Self, DiceError> {
        match (size.width, size.height) {
            (4, 4) => Self::named("1987"),
            (5, 5) => Self::named("1979"),
            (6, 6) => Self::named("gobble6"),
            _ => Err(DiceError::NoDefault(size)),
        }
    }

    /// The set for `size`, by name or the default one; checks that it fits.
    pub fn for_size(name: Option<&str>, size: Size) -> Result<Self, DiceError> {
        let set = match name {
            Some(n) => Self::named(n)?,
            None => Self::default_for(size)?,
        };
        if set.size != size {
            return Err(DiceError::WrongSize {
                name: set.name.to_string(),
                dice: set.dice.len(),
                size,
            });
        }
        Ok(set)
    }

    /// The set's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The board size the set fills.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The dice, each six letter indices (`0..26`, [`crate::QU`] for Qu).
    pub fn dice(&self) -> &[[u8; 6]] {
        &self.dice
    }

    /// Rolls a board with `rng`: shuffle the dice (Fisher–Yates from the last
    /// die down: `j = floor(rng() * (i + 1))`, swap `i` and `j`), then for each
    /// cell in row-major order take face `floor(rng() * 6)` of the die placed there.
    pub fn roll(&self, rng: &mut SeedRandom) -> Board {
        let mut order: Vec<usize> = (0..self.dice.len()).collect();
        for i in (1..order.len()).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
        let cells = order.iter().map(|&d| self.dice[d][rng.below(6)]).collect();
        Board::from_cells(self.size, cells)
    }

    /// The board for a seed string: `roll(SeedRandom::new(seed))`.
    pub fn board_for_seed(&self, seed: &str) -> Board {
        self.roll(&mut SeedRandom::new(seed))
    }
}

impl fmt::Display for DiceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl FromStr for DiceSet {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Self, DiceError> {
        Self::named(s)
    }
}

fn parse_dice(text: &str) -> Vec<[u8; 6]> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let b = l.as_bytes();
            assert_eq!(b.len(), 6, "a die has six faces: {l}");
            let mut d = [0u8; 6];
            for (k, &c) in b.iter().enumerate() {
                assert!(c.is_ascii_uppercase(), "die faces are A-Z: {l}");
                d[k] = c - b'A';
            }
            d
        })
        .collect()
}

/// A board of independent uniform letters: each cell `floor(rng() * 26)`
/// (`q` is the Qu cell), row-major.
pub fn uniform_board(size: Size, rng: &mut SeedRandom) -> Board {
    Board::from_cells(
        size,
        (0..size.cells()).map(|_| rng.below(26) as u8).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_sets_load() {
        for (name, n, _) in DICE_SETS {
            let s = DiceSet::named(name).unwrap();
            assert_eq!(s.dice().len(), n * n);
            assert_eq!(
                s.dice()
                    .iter()
                    .flatten()
                    .filter(|&&f| f == crate::QU)
                    .count(),
                1,
                "{name}: one Qu face"
            );
        }
        assert!(DiceSet::named("nope").is_err());
        assert!(DiceSet::for_size(Some("1987"), Size::square(5)).is_err());
    }

    #[test]
    fn roll_uses_each_die_once() {
        let set = DiceSet::named("1987").unwrap();
        let mut rng = SeedRandom::new("hello.");
        let b = set.roll(&mut rng);
        assert_eq!(b.cells().len(), 16);
        assert_eq!(set.board_for_seed("x"), set.board_for_seed("x"));
    }
}
