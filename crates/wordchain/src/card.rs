//! Cards: a letter, its value, a suit and so a colour; or a Multicard.
//!
//! Notation, for input and output: the letter then the suit's initial
//! (`Kh`, `Nd`, `Oc`, `Ps`; the symbols `♥♦♣♠` are accepted for the suit,
//! and either case for both), `*` for a Multicard, `*Eh` for a Multicard
//! named E of hearts.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the four suits, in the order of the cut's seniority (hearts
/// highest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suit {
    /// ♥, red.
    Hearts,
    /// ♦, red.
    Diamonds,
    /// ♣, black.
    Clubs,
    /// ♠, black.
    Spades,
}

/// Red (hearts, diamonds) or black (clubs, spades).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// Hearts and diamonds.
    Red,
    /// Clubs and spades.
    Black,
}

impl Suit {
    /// All four, hearts first.
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades];

    /// The suit's colour.
    pub fn colour(self) -> Colour {
        match self {
            Suit::Hearts | Suit::Diamonds => Colour::Red,
            Suit::Clubs | Suit::Spades => Colour::Black,
        }
    }

    /// The suit's initial in the notation (`h`, `d`, `c`, `s`).
    pub fn initial(self) -> char {
        match self {
            Suit::Hearts => 'h',
            Suit::Diamonds => 'd',
            Suit::Clubs => 'c',
            Suit::Spades => 's',
        }
    }

    /// The suit's symbol (`♥`).
    pub fn symbol(self) -> char {
        match self {
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
            Suit::Spades => '♠',
        }
    }

    /// The suit for an initial or a symbol, in either case.
    pub fn from_char(c: char) -> Option<Suit> {
        Some(match c.to_ascii_lowercase() {
            'h' | '♥' | '♡' => Suit::Hearts,
            'd' | '♦' | '♢' => Suit::Diamonds,
            'c' | '♣' | '♧' => Suit::Clubs,
            's' | '♠' | '♤' => Suit::Spades,
            _ => return None,
        })
    }

    /// 0 for hearts ... 3 for spades.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A letter `A`–`Z`, kept as its position 0–25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Letter(u8);

impl Letter {
    /// The letter for an ASCII letter in either case.
    pub fn from_char(c: char) -> Option<Letter> {
        c.is_ascii_alphabetic()
            .then(|| Letter(c.to_ascii_uppercase() as u8 - b'A'))
    }

    /// The letter at position `i` (0 for A).
    pub fn from_index(i: usize) -> Option<Letter> {
        (i < 26).then_some(Letter(i as u8))
    }

    /// 0 for A ... 25 for Z.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The card value of the letter: its place in the alphabet, A = 1 ...
    /// Z = 26.
    pub fn value(self) -> u32 {
        u32::from(self.0) + 1
    }

    /// The capital letter.
    pub fn upper(self) -> char {
        char::from(b'A' + self.0)
    }

    /// The small letter (as word lists write it).
    pub fn lower(self) -> char {
        char::from(b'a' + self.0)
    }

    /// Whether the letter belongs in the vowel deck of the standard pack:
    /// A E I O U, Y and S.
    pub fn in_vowel_deck(self) -> bool {
        matches!(self.upper(), 'A' | 'E' | 'I' | 'O' | 'U' | 'Y' | 'S')
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.upper())
    }
}

/// A card as it lies in a deck or a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    /// A letter card.
    Letter(Letter, Suit),
    /// A Multicard (joker): no value, any letter and suit its holder names.
    Multi,
}

/// A card as it stands in a word: a letter card, or a Multicard with the
/// letter and suit named for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// The card itself.
    pub card: Card,
    /// The letter it stands for.
    pub letter: Letter,
    /// The suit it counts as.
    pub suit: Suit,
}

impl Played {
    /// A letter card standing for itself.
    pub fn real(letter: Letter, suit: Suit) -> Played {
        Played {
            card: Card::Letter(letter, suit),
            letter,
            suit,
        }
    }

    /// A Multicard named `letter` of `suit`.
    pub fn multi(letter: Letter, suit: Suit) -> Played {
        Played {
            card: Card::Multi,
            letter,
            suit,
        }
    }

    /// What it adds to a word's value: its letter's value, nothing for a
    /// Multicard.
    pub fn value(self) -> u32 {
        match self.card {
            Card::Letter(l, _) => l.value(),
            Card::Multi => 0,
        }
    }

    /// Whether it is a Multicard.
    pub fn is_multi(self) -> bool {
        self.card == Card::Multi
    }

    /// The card in the notation of a play (`Kh`, `*Eh`).
    pub fn text(self) -> CardText {
        match self.card {
            Card::Letter(l, s) => CardText::Letter(l, s),
            Card::Multi => CardText::Multi(Some((self.letter, self.suit))),
        }
    }
}

impl Card {
    /// The card's value: its letter's, none for a Multicard.
    pub fn value(self) -> u32 {
        match self {
            Card::Letter(l, _) => l.value(),
            Card::Multi => 0,
        }
    }

    /// The letter, for a letter card.
    pub fn letter(self) -> Option<Letter> {
        match self {
            Card::Letter(l, _) => Some(l),
            Card::Multi => None,
        }
    }

    /// Whether the card belongs in the vowel deck of a two-deck game
    /// (A E I O U Y S and the Multicards).
    pub fn in_vowel_deck(self) -> bool {
        match self {
            Card::Letter(l, _) => l.in_vowel_deck(),
            Card::Multi => true,
        }
    }
}

/// A card that could not be read, with what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a card: {why}; a card is a letter and a suit initial (Kh, Nd, Oc, Ps, or K♥), * for a Multicard, *Eh for a Multicard named E of hearts")]
pub struct CardError {
    /// The text as given (cut to 20 characters).
    pub text: String,
    /// What was wrong.
    pub why: &'static str,
}

fn card_error(text: &str, why: &'static str) -> CardError {
    CardError {
        text: text.chars().take(20).collect(),
        why,
    }
}

/// A card in the notation: a letter card, or a Multicard, named or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardText {
    /// `Kh`.
    Letter(Letter, Suit),
    /// `*` (named: `None`) or `*Eh`.
    Multi(Option<(Letter, Suit)>),
}

impl CardText {
    /// Reads one card.
    pub fn parse(text: &str) -> Result<CardText, CardError> {
        let t = text.trim();
        if t.len() > 16 {
            return Err(card_error(text, "too long"));
        }
        let mut chars = t.chars();
        let first = chars.next().ok_or_else(|| card_error(text, "empty"))?;
        let multi = first == '*';
        let letter = if multi { chars.next() } else { Some(first) };
        let Some(letter) = letter else {
            return Ok(CardText::Multi(None));
        };
        let letter = Letter::from_char(letter).ok_or_else(|| card_error(text, "no letter"))?;
        let suit = chars
            .next()
            .ok_or_else(|| card_error(text, "no suit after the letter"))?;
        let suit = Suit::from_char(suit)
            .ok_or_else(|| card_error(text, "the suit is not one of h d c s (or ♥ ♦ ♣ ♠)"))?;
        if chars.next().is_some() {
            return Err(card_error(text, "more than a letter and a suit"));
        }
        Ok(if multi {
            CardText::Multi(Some((letter, suit)))
        } else {
            CardText::Letter(letter, suit)
        })
    }

    /// The card it names.
    pub fn card(self) -> Card {
        match self {
            CardText::Letter(l, s) => Card::Letter(l, s),
            CardText::Multi(_) => Card::Multi,
        }
    }

    /// The card as it stands in a word, where the text says all of it
    /// (a Multicard named).
    pub fn played(self) -> Option<Played> {
        match self {
            CardText::Letter(l, s) => Some(Played::real(l, s)),
            CardText::Multi(Some((l, s))) => Some(Played::multi(l, s)),
            CardText::Multi(None) => None,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Letter(l, s) => write!(f, "{}{}", l.upper(), s.initial()),
            Card::Multi => f.write_str("*"),
        }
    }
}

impl fmt::Display for Played {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_multi() {
            f.write_str("*")?;
        }
        write!(f, "{}{}", self.letter.upper(), self.suit.initial())
    }
}

impl fmt::Display for CardText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardText::Letter(l, s) => write!(f, "{}{}", l.upper(), s.initial()),
            CardText::Multi(None) => f.write_str("*"),
            CardText::Multi(Some((l, s))) => write!(f, "*{}{}", l.upper(), s.initial()),
        }
    }
}

impl std::str::FromStr for Card {
    type Err = CardError;
    fn from_str(s: &str) -> Result<Card, CardError> {
        match CardText::parse(s)? {
            CardText::Multi(Some(_)) => Err(card_error(s, "a card in a hand or deck is not named")),
            t => Ok(t.card()),
        }
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl Serialize for Played {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Serialize for CardText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CardText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CardText, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        CardText::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Reads cards separated by spaces or commas (`Kh Nd *Eh`).
pub fn parse_cards(text: &str) -> Result<Vec<CardText>, CardError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(CardText::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_reads_and_prints() {
        for (text, shown) in [
            ("Kh", "Kh"),
            ("nd", "Nd"),
            ("O♣", "Oc"),
            ("P♠", "Ps"),
            ("*", "*"),
            ("*Eh", "*Eh"),
            ("*e♦", "*Ed"),
        ] {
            assert_eq!(CardText::parse(text).unwrap().to_string(), shown, "{text}");
        }
        for bad in ["", "K", "Kx", "1h", "Khh", "**", "*E", "*Ex"] {
            let e = CardText::parse(bad).unwrap_err();
            assert!(e.to_string().contains("Kh, Nd"), "{bad}: {e}");
        }
    }

    #[test]
    fn values_and_colours() {
        let p = Letter::from_char('p').unwrap();
        assert_eq!(p.value(), 16);
        assert_eq!(Letter::from_char('A').unwrap().value(), 1);
        assert_eq!(Suit::Diamonds.colour(), Colour::Red);
        assert_eq!(Suit::Spades.colour(), Colour::Black);
        assert_eq!(Card::Multi.value(), 0);
    }
}
