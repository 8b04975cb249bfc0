//! The game: the opening word and points, the pie rule, turns, challenges
//! and skipped turns, the end.
//!
//! Roles and seats: *player 1* owns the grid with the opening word and
//! *player 2* the other; the pie rule lets the second seat take either
//! role, so roles are kept apart from seats ([`TwinGrids::seat_of`]).

use crate::grid::{Grid, TurnScore, Vertical};
use parlor_core::{ConfigError, ErrorKind, GameError, GameRng, Seed};
use parlor_lexicon::Lexicon;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The rules of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Cells in a row (3 to 20; 9 in the original).
    pub width: usize,
    /// Turns each player takes, the opening word included (2 to 30; 8).
    pub turns: usize,
    /// Points for a word that is an anagram of the opponent's last word
    /// (0: no bonus).
    pub anagram_bonus: u32,
    /// Whether words may be challenged (and so bluffed).
    pub challenges: bool,
    /// Which runs of a column count as vertical words: every run ending at
    /// the new row (the default) or only the whole column's run.
    pub vertical: Vertical,
    /// The most points player 1 may give at the opening.
    pub max_opening_points: u32,
    /// The dictionary.
    pub lexicon: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            width: 9,
            turns: 8,
            anagram_bonus: 10,
            challenges: true,
            vertical: Vertical::EveryRun,
            max_opening_points: 100,
            lexicon: parlor_lexicon::DEFAULT.to_string(),
        }
    }
}

impl Config {
    /// Checks the ranges.
    pub fn check(&self) -> Result<(), ConfigError> {
        let bad = |m: String| Err(ConfigError::new(m));
        if !(3..=crate::grid::MAX_WIDTH).contains(&self.width) {
            return bad(format!(
                "width: 3 to {} cells, not {}",
                crate::grid::MAX_WIDTH,
                self.width
            ));
        }
        if !(2..=30).contains(&self.turns) {
            return bad(format!("turns: 2 to 30 each, not {}", self.turns));
        }
        if self.anagram_bonus > 1000 {
            return bad(format!(
                "anagram_bonus: 0 to 1000 points, not {}",
                self.anagram_bonus
            ));
        }
        if self.max_opening_points > 10_000 {
            return bad(format!(
                "max_opening_points: 0 to 10000, not {}",
                self.max_opening_points
            ));
        }
        if self.lexicon.len() > 200 {
            return bad("lexicon: a name of at most 200 characters".into());
        }
        Ok(())
    }
}

/// What a seat (or the referee) submits. JSON:
/// `{"type": "open", "column": 2, "to": 1, "points": 5}`,
/// `{"type": "pie", "swap": true}`, `{"type": "play", "word": "cat", "column": 3}`,
/// `{"type": "challenge"}`, `{"type": "accept"}`. Columns count from 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Player 1 writes the opening word at `column` and gives `points` to
    /// player `to` (0: player 1, 1: player 2).
    Open {
        /// Where the opening word's first letter goes.
        column: usize,
        /// Whose score column gets the points: 0 player 1, 1 player 2.
        to: usize,
        /// How many points.
        points: u32,
    },
    /// The second seat chooses its role: `swap` to become player 1.
    Pie {
        /// Take player 1's grid and points.
        swap: bool,
    },
    /// Write a word in one's next row, its first letter at `column`.
    Play {
        /// The word.
        word: String,
        /// Its first letter's column.
        column: usize,
    },
    /// Challenge the opponent's last word.
    Challenge,
    /// At the very end: let the last word stand.
    Accept,
    /// Referee: a seat has left.
    Forfeit {
        /// The seat.
        seat: usize,
    },
}

/// A refused action.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// Not this actor's moment.
    #[error("{0}")]
    NotNow(String),
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// Against the rules.
    #[error("{0}")]
    Illegal(String),
    /// Not a word of the dictionary (challenges off).
    #[error("{0:?} is not in the dictionary")]
    UnknownWord(String),
    /// Not a word at all.
    #[error("{0}")]
    Malformed(String),
}

impl GameError for Error {
    fn kind(&self) -> ErrorKind {
        match self {
            Error::NotNow(_) => ErrorKind::NotYourTurn,
            Error::Over => ErrorKind::GameOver,
            Error::Illegal(_) => ErrorKind::Illegal,
            Error::UnknownWord(_) => ErrorKind::UnknownWord,
            Error::Malformed(_) => ErrorKind::Malformed,
        }
    }
}

/// One turn as the log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Turn {
    /// The opening word and points.
    Opening {
        /// The word.
        word: String,
        /// Its column.
        column: usize,
        /// Points given.
        points: u32,
        /// To player 1 (0) or 2 (1).
        to: usize,
    },
    /// The pie decision.
    Pie {
        /// Whether the second seat took player 1's place.
        swap: bool,
    },
    /// A word written.
    Word {
        /// Player 1 (0) or 2 (1).
        player: usize,
        /// The word.
        word: String,
        /// Its column.
        column: usize,
        /// The row it went in.
        row: usize,
        /// The opponent's last word it was scored against.
        against: String,
        /// The score, and why.
        score: TurnScore,
        /// Whether this was player 2's first word (scored by shared
        /// letters alone).
        first: bool,
        /// A challenge: upheld (the word was fake: 0 points) or not.
        #[serde(skip_serializing_if = "Option::is_none")]
        challenged: Option<bool>,
    },
    /// A turn skipped after a failed challenge.
    Skipped {
        /// Player 1 (0) or 2 (1).
        player: usize,
    },
    /// The last word let stand by its opponent, which ends the game.
    Accepted {
        /// The player who accepted it: 1 (0) or 2 (1).
        player: usize,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// The opening word is drawn (chance).
    Draw,
    /// Player 1 places the opening word and gives points.
    Open,
    /// The second seat decides its role.
    Pie,
    /// A player's turn (the role); the opponent's last word may be
    /// challenged first if it has not been.
    Turn(usize),
    /// After the last word: its opponent may challenge it or accept.
    LastChallenge(usize),
    /// Over.
    Over,
}

/// A Twin Grids table.
#[derive(Clone, Debug)]
pub struct TwinGrids {
    pub(crate) config: Config,
    pub(crate) lexicon: Arc<Lexicon>,
    /// The words that fit a row, their letters counted.
    pub(crate) words: Arc<parlor_lexicon::CountedWords>,
    pub(crate) stamp: parlor_core::LexiconStamp,
    pub(crate) rng: GameRng,
    /// By role: player 1's grid, player 2's.
    pub(crate) grids: [Grid; 2],
    pub(crate) scores: [i64; 2],
    /// Turns taken by role (words written and turns skipped).
    pub(crate) taken: [usize; 2],
    /// The seat playing each role.
    pub(crate) seat_of: [usize; 2],
    pub(crate) opening: String,
    /// Each role's last word.
    pub(crate) last: [Option<String>; 2],
    /// Every word played (fake ones too): none may be played again or
    /// contained in a new word.
    pub(crate) played: Vec<String>,
    /// The last word's turn in the log, while it may still be challenged.
    pub(crate) challengeable: Option<usize>,
    /// Whether a role skips its next turn.
    pub(crate) skip: [bool; 2],
    pub(crate) forfeited: Option<usize>,
    pub(crate) phase: Phase,
    pub(crate) log: Vec<Turn>,
}

impl PartialEq for TwinGrids {
    fn eq(&self, o: &Self) -> bool {
        self.config == o.config
            && self.rng == o.rng
            && self.grids == o.grids
            && self.scores == o.scores
            && self.taken == o.taken
            && self.seat_of == o.seat_of
            && self.opening == o.opening
            && self.last == o.last
            && self.played == o.played
            && self.challengeable == o.challengeable
            && self.skip == o.skip
            && self.forfeited == o.forfeited
            && self.phase == o.phase
            && self.log == o.log
    }
}

impl TwinGrids {
    pub(crate) fn create(
        config: &Config,
        seed: Seed,
        resources: &parlor_core::Resources,
    ) -> Result<Self, ConfigError> {
        config.check()?;
        let lexicon = resources.lexicon(&config.lexicon)?;
        // The words that fit a row: the opening word is drawn from them,
        // and the computer player places them (the same shared table).
        let words = resources.counted_words(&config.lexicon, config.width)?;
        if words.is_empty() {
            return Err(ConfigError::new(format!(
                "lexicon: no word of 2 to {} letters to open with",
                config.width
            )));
        }
        Ok(TwinGrids {
            words,
            stamp: parlor_core::LexiconStamp::of(&lexicon),
            lexicon,
            rng: GameRng::from_seed(seed),
            grids: [Grid::new(config.width), Grid::new(config.width)],
            scores: [0; 2],
            taken: [0; 2],
            seat_of: [0, 1],
            opening: String::new(),
            last: [None, None],
            played: Vec::new(),
            challengeable: None,
            skip: [false; 2],
            forfeited: None,
            phase: Phase::Draw,
            log: Vec::new(),
            config: config.clone(),
        })
    }

    /// The role a seat plays (0: player 1).
    pub fn role_of(&self, seat: usize) -> usize {
        if self.seat_of[0] == seat {
            0
        } else {
            1
        }
    }

    /// The seat playing each role.
    pub fn seat_of(&self) -> [usize; 2] {
        self.seat_of
    }

    /// The grids by role.
    pub fn grids(&self) -> &[Grid; 2] {
        &self.grids
    }

    /// Scores by role.
    pub fn scores(&self) -> [i64; 2] {
        self.scores
    }

    /// The opening word.
    pub fn opening(&self) -> &str {
        &self.opening
    }

    /// The log.
    pub fn log(&self) -> &[Turn] {
        &self.log
    }

    /// The dictionary.
    pub fn lexicon(&self) -> &Arc<Lexicon> {
        &self.lexicon
    }

    /// The rules.
    pub fn rules(&self) -> &Config {
        &self.config
    }

    /// Every word played so far.
    pub fn played(&self) -> &[String] {
        &self.played
    }

    /// The role to play now, if a turn is on.
    pub fn role_to_play(&self) -> Option<usize> {
        match self.phase {
            Phase::Turn(r) => Some(r),
            _ => None,
        }
    }

    /// The word a role's next word is scored against: the opponent's last.
    pub fn against(&self, role: usize) -> &str {
        self.last[1 - role].as_deref().unwrap_or(&self.opening)
    }

    /// What `word` at `column` would score for `role` now, and whether it
    /// is player 2's first word (scored by the shared letters alone).
    pub(crate) fn placement_score(
        &self,
        role: usize,
        word: &str,
        column: usize,
    ) -> (TurnScore, bool) {
        let first = role == 1 && self.taken[1] == 0;
        let mut score = self.grids[role].score(
            word,
            column,
            self.against(role),
            self.config.anagram_bonus,
            &self.lexicon,
            self.config.vertical,
        );
        if first {
            score.score = score.shared as u32;
            score.anagram_bonus = 0;
        }
        (score, first)
    }

    /// Why `word` may not be played now (rule 4), if it may not.
    pub fn refusal(&self, word: &str) -> Option<String> {
        if let Some(p) = self.played.iter().find(|p| word.contains(p.as_str())) {
            return Some(if p == word {
                format!("{word:?} has been played already")
            } else {
                format!("{word:?} contains {p:?}, which has been played")
            });
        }
        None
    }

    pub(crate) fn draw_opening(&mut self) {
        // The words of 2 to `width` letters, in the list's order.
        self.opening = self
            .words
            .word(self.rng.below(self.words.len()))
            .to_string();
        self.phase = Phase::Open;
    }

    pub(crate) fn open(&mut self, column: usize, to: usize, points: u32) -> Result<(), Error> {
        if to > 1 {
            return Err(Error::Illegal(format!(
                "to: 0 (player 1) or 1 (player 2), not {to}"
            )));
        }
        if points > self.config.max_opening_points {
            return Err(Error::Illegal(format!(
                "points: 0 to {} at the opening, not {points}",
                self.config.max_opening_points
            )));
        }
        if !self.grids[0].fits(&self.opening, column) {
            return Err(Error::Illegal(format!(
                "{:?} does not fit from column {column} in a grid {} wide",
                self.opening, self.config.width
            )));
        }
        self.grids[0].write(&self.opening.clone(), column);
        self.scores[to] += i64::from(points);
        self.taken[0] = 1;
        self.last[0] = Some(self.opening.clone());
        self.played.push(self.opening.clone());
        self.log.push(Turn::Opening {
            word: self.opening.clone(),
            column,
            points,
            to,
        });
        self.phase = Phase::Pie;
        Ok(())
    }

    pub(crate) fn pie(&mut self, swap: bool) {
        if swap {
            self.seat_of = [self.seat_of[1], self.seat_of[0]];
        }
        self.log.push(Turn::Pie { swap });
        self.phase = Phase::Turn(1);
    }

    pub(crate) fn play(&mut self, role: usize, word: &str, column: usize) -> Result<(), Error> {
        if word.is_empty()
            || word.len() > self.config.width
            || !word.bytes().all(|b| b.is_ascii_alphabetic())
        {
            return Err(Error::Malformed(format!(
                "a word is 1 to {} letters a-z, not {:?}",
                self.config.width,
                word.chars().take(40).collect::<String>()
            )));
        }
        let word = word.to_ascii_lowercase();
        if !self.grids[role].fits(&word, column) {
            return Err(Error::Illegal(format!(
                "{word:?} does not fit from column {} in a grid {} wide",
                column + 1,
                self.config.width
            )));
        }
        if let Some(why) = self.refusal(&word) {
            return Err(Error::Illegal(why));
        }
        if !self.config.challenges && !self.lexicon.contains(&word) {
            return Err(Error::UnknownWord(word));
        }
        let (score, first) = self.placement_score(role, &word, column);
        let against = self.against(role).to_string();
        let row = self.grids[role].rows();
        self.grids[role].write(&word, column);
        self.scores[role] += i64::from(score.score);
        self.played.push(word.clone());
        self.last[role] = Some(word.clone());
        self.log.push(Turn::Word {
            player: role,
            word,
            column,
            row,
            against,
            score,
            first,
            challenged: None,
        });
        self.challengeable = self.config.challenges.then_some(self.log.len() - 1);
        self.taken[role] += 1;
        self.next(role);
        Ok(())
    }

    /// The turn after `role`'s: the other's, unless it skips (then it has
    /// taken that turn), until both have taken theirs.
    fn next(&mut self, role: usize) {
        let mut r = 1 - role;
        for _ in 0..2 {
            if self.taken[r] >= self.config.turns {
                r = 1 - r;
                continue;
            }
            if self.skip[r] {
                self.skip[r] = false;
                self.taken[r] += 1;
                self.log.push(Turn::Skipped { player: r });
                r = 1 - r;
                continue;
            }
            self.phase = Phase::Turn(r);
            return;
        }
        if self.taken.iter().all(|&t| t >= self.config.turns) {
            self.phase = match self.challengeable {
                Some(i) => match &self.log[i] {
                    Turn::Word { player, .. } => Phase::LastChallenge(1 - player),
                    _ => Phase::Over,
                },
                None => Phase::Over,
            };
        } else {
            // The other has turns left but skips: back to this role.
            self.phase = Phase::Turn(r);
        }
    }

    /// `role` challenges the opponent's last word.
    pub(crate) fn challenge(&mut self, role: usize) -> Result<bool, Error> {
        let Some(i) = self.challengeable.take() else {
            return Err(Error::Illegal("there is no word to challenge now".into()));
        };
        let Turn::Word {
            player,
            word,
            score,
            challenged,
            ..
        } = &mut self.log[i]
        else {
            return Err(Error::Illegal("there is no word to challenge now".into()));
        };
        if *player == role {
            self.challengeable = Some(i);
            return Err(Error::Illegal("you cannot challenge your own word".into()));
        }
        let fake = !self.lexicon.contains(word);
        *challenged = Some(fake);
        if fake {
            // The fake word scores nothing; it stays on the board.
            self.scores[*player] -= i64::from(score.score);
        } else {
            self.skip[role] = true;
        }
        match self.phase {
            Phase::LastChallenge(_) => self.phase = Phase::Over,
            Phase::Turn(r) if !fake => {
                // The challenger skips this very turn.
                self.skip[r] = false;
                self.taken[r] += 1;
                self.log.push(Turn::Skipped { player: r });
                let p = 1 - r;
                if self.taken[p] < self.config.turns {
                    self.phase = Phase::Turn(p);
                } else {
                    self.next(p);
                }
            }
            _ => {}
        }
        Ok(fake)
    }

    pub(crate) fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
}
