//! What a viewer sees of the table.

use super::vowels::mask_letters;
use super::{Phase, WordSprout};
use crate::board::Board;
use crate::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_core::{Seat, Viewer};
use serde::Serialize;

/// What a seat (or a spectator) sees. Word Sprout has no hidden
/// information, so every viewer sees the same: the state never says whether
/// the current string is valid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// The viewer's seat, if a player.
    pub seat: Option<Seat>,
    /// The central string.
    pub string: String,
    /// Seats at the table.
    pub players: usize,
    /// Who is still in this round, by seat.
    pub active: Vec<bool>,
    /// Who is to move in the playing phase.
    pub to_move: Seat,
    /// True when play goes to higher seat numbers.
    pub forward: bool,
    /// The phase.
    pub phase: Phase,
    /// The last play that still stands, if any.
    pub last_play: Option<LastPlay>,
    /// The active rules.
    pub rules: RuleSet,
    /// Tiles left in the pot (with tiles), as `a9 b2 ...`.
    pub pot: Option<Pot>,
    /// Each seat's vowel collection (with vowel collections).
    pub collections: Vec<String>,
    /// The round, from 1, and how many the match has.
    pub round: u32,
    /// Rounds in the match.
    pub rounds: u32,
    /// Rounds won, by seat.
    pub round_wins: Vec<u32>,
    /// Teams (seat lists) when team play is on.
    pub teams: Vec<Vec<usize>>,
    /// The word list's name.
    pub lexicon: String,
    /// The vowels.
    pub vowels: Vowels,
    /// The pot the table started with (for tile rules).
    pub full_pot: Pot,
    /// How many letters the player to move may add (2 under the palindrome lock).
    pub max_letters: usize,
    /// 2-D: the grid (the central string is its newest string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<Board>,
    /// Whether the helper ("what could be played?") is open now.
    pub helper_open: bool,
}

/// The last play, as seen by everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LastPlay {
    /// Who made it.
    pub by: Seat,
    /// The string before it.
    pub from: String,
    /// The string after it.
    pub to: String,
    /// Whether it was out of turn (and so may be called).
    pub out_of_turn: bool,
    /// Whether it survived a challenge already.
    pub proven: bool,
}

impl WordSprout {
    pub(super) fn build_view(&self, viewer: Viewer) -> View {
        let seat = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        View {
            seat,
            string: self.string.clone(),
            players: self.config.players,
            active: self.active.clone(),
            to_move: self.to_move,
            forward: self.forward,
            phase: self.phase.clone(),
            last_play: self.top().map(|f| LastPlay {
                by: f.by,
                from: f.from.clone(),
                to: self.string.clone(),
                out_of_turn: f.out_of_turn,
                proven: f.proven,
            }),
            rules: self.rules.clone(),
            pot: self.rules.has(Rule::Tiles).then_some(Pot(self.pot)),
            collections: if self.rules.has(Rule::VowelCollection) {
                self.collections.iter().map(|&m| mask_letters(m)).collect()
            } else {
                Vec::new()
            },
            round: self.round,
            rounds: self.rounds,
            round_wins: self.round_wins.clone(),
            teams: if self.rules.has(Rule::Teams) {
                self.config.teams.clone()
            } else {
                Vec::new()
            },
            lexicon: self.config.lexicon.clone(),
            vowels: self.config.vowels.clone(),
            full_pot: self.config.pot,
            max_letters: Self::max_letters_from(&self.shared.judge, &self.rules, &self.string),
            board: self.board.clone(),
            helper_open: self.helper_open(),
        }
    }
}
