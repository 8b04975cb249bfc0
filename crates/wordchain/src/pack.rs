//! The pack: the consonant deck and the vowel deck (A E I O U, Y, S and
//! the Multicards), read from a text a house may replace.

use crate::card::{Card, Letter, Suit};
use std::fmt;

/// parlor's default pack (`data/wordchain/deck.txt`).
pub const DEFAULT_PACK: &str = include_str!("../../../data/wordchain/deck.txt");

/// The longest pack text accepted, in bytes.
pub const MAX_PACK_TEXT: usize = 4000;

/// The most cards a pack may hold.
pub const MAX_PACK_CARDS: usize = 400;

/// A pack, its two decks in the order the file gives them (the game
/// shuffles them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pack {
    /// The consonant deck.
    pub consonants: Vec<Card>,
    /// The vowel deck: vowels, Y, S and the Multicards.
    pub vowels: Vec<Card>,
}

/// A pack text that could not be read: the line and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PackError {
    /// The line, from 1 (0: the text as a whole).
    pub line: usize,
    /// What was wrong.
    pub why: String,
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "deck line {}: ", self.line)?;
        } else {
            f.write_str("deck: ")?;
        }
        write!(
            f,
            "{}; a deck is [consonants] and [vowels] sections of lines such as `E hdcs` (a letter, one suit initial per card) and `* 4` (Multicards)",
            self.why
        )
    }
}

impl Pack {
    /// parlor's default pack.
    pub fn standard() -> Pack {
        Pack::parse(DEFAULT_PACK).expect("the default pack reads")
    }

    /// Reads a pack text (see `data/wordchain/deck.txt` for the format).
    pub fn parse(text: &str) -> Result<Pack, PackError> {
        let err = |line: usize, why: String| PackError { line, why };
        if text.len() > MAX_PACK_TEXT {
            return Err(err(
                0,
                format!("{} bytes, at most {MAX_PACK_TEXT}", text.len()),
            ));
        }
        let mut pack = Pack {
            consonants: Vec::new(),
            vowels: Vec::new(),
        };
        let mut section: Option<bool> = None; // Some(true): vowels
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.to_ascii_lowercase().as_str() {
                "[consonants]" => {
                    section = Some(false);
                    continue;
                }
                "[vowels]" => {
                    section = Some(true);
                    continue;
                }
                _ => {}
            }
            let Some(vowels) = section else {
                return Err(err(
                    n,
                    "cards before a [consonants] or [vowels] line".into(),
                ));
            };
            let mut parts = line.split_whitespace();
            let head = parts.next().unwrap_or_default();
            let tail = parts
                .next()
                .ok_or_else(|| err(n, format!("{head:?} has no cards")))?;
            if parts.next().is_some() {
                return Err(err(n, "more than two fields".into()));
            }
            let deck = if vowels {
                &mut pack.vowels
            } else {
                &mut pack.consonants
            };
            if head == "*" {
                let count: usize = tail
                    .parse()
                    .map_err(|_| err(n, format!("{tail:?} is not a number of Multicards")))?;
                if count > MAX_PACK_CARDS {
                    return Err(err(
                        n,
                        format!("{count} Multicards, at most {MAX_PACK_CARDS}"),
                    ));
                }
                deck.extend(std::iter::repeat_n(Card::Multi, count));
            } else {
                let mut chars = head.chars();
                let letter = chars.next().and_then(Letter::from_char);
                let (Some(letter), None) = (letter, chars.next()) else {
                    return Err(err(n, format!("{head:?} is not a letter or *")));
                };
                for c in tail.chars() {
                    let suit = Suit::from_char(c)
                        .ok_or_else(|| err(n, format!("{c:?} is not a suit initial (h d c s)")))?;
                    deck.push(Card::Letter(letter, suit));
                }
            }
            if pack.consonants.len() + pack.vowels.len() > MAX_PACK_CARDS {
                return Err(err(n, format!("more than {MAX_PACK_CARDS} cards")));
            }
        }
        if pack.consonants.is_empty() && pack.vowels.is_empty() {
            return Err(err(0, "no cards".into()));
        }
        Ok(pack)
    }

    /// Every card of the pack.
    pub fn len(&self) -> usize {
        self.consonants.len() + self.vowels.len()
    }

    /// Whether the pack has no cards (never, for a pack that was read).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_pack() {
        let p = Pack::standard();
        assert_eq!((p.consonants.len(), p.vowels.len()), (53, 50));
        assert!(p.vowels.iter().all(|c| c.in_vowel_deck()));
        assert!(p.consonants.iter().all(|c| !c.in_vowel_deck()));
        assert_eq!(p.vowels.iter().filter(|c| **c == Card::Multi).count(), 4);
        // Suits are spread: each holds a quarter of the letter cards, give or take one.
        for s in Suit::ALL {
            let n = p
                .consonants
                .iter()
                .chain(&p.vowels)
                .filter(|c| matches!(c, Card::Letter(_, t) if *t == s))
                .count();
            assert!((24..=26).contains(&n), "{s:?}: {n}");
        }
    }

    #[test]
    fn bad_packs_say_where() {
        for (text, line) in [
            ("E hdcs", 1),
            ("[vowels]\nE hdxs", 2),
            ("[vowels]\n\nEE hh", 3),
            ("[vowels]\n* many", 2),
            ("[vowels]\nE", 2),
            ("", 0),
        ] {
            let e = Pack::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains("[consonants]"), "{e}");
        }
        assert!(Pack::parse(&"#".repeat(5000)).is_err());
        assert!(Pack::parse("[vowels]\n* 100000").is_err());
    }
}
