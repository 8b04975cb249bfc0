//! The game: one timed round of simultaneous search, then unique-word scoring.
//!
//! [`Gobble`] implements [`parlor_core::Game`]. During the search every seat
//! acts at once ([`ToAct::Simultaneous`]), entering words; each entry is
//! checked at once with a distinct error ([`EntryError`]). The round ends
//! when the referee (the host's clock) sends [`GobbleAction::EndRound`], or
//! when every seat has sent [`GobbleAction::Done`]. Then lists are read
//! fewest words first, a word found by two or more players is cancelled for
//! all of them, and each seat scores its uncancelled words.
//!
//! A seat's words never leave the state before the round ends except in
//! that seat's own [`Gobble::view`]; events carry only counts.

use crate::board::{Board, Size};
use crate::dice::DiceSet;
use crate::keyphrase::Keyphrase;
use crate::scoring::Scoring;
use crate::solver::{FoundWord, Solver};
use crate::trie::{board_form, Trie};
use parlor_core::{
    Actor, Agent, AgentContext, ConfigError, Deadline, Game, GameInfo, GameRng, Level,
    LexiconStamp, Needs, Outcome, Resources, Seat, Seed, Setting, SettingKind, SettingOption,
    ToAct, Viewer,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rules and variants of one Gobble round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GobbleConfig {
    /// Players (1 to 16).
    pub seats: usize,
    /// Board side: 4, 5 or 6.
    pub size: usize,
    /// Dice set name; `None` for the size's default set.
    pub dice: Option<String>,
    /// The board's keyphrase; `None` to draw one from the game's seed.
    pub keyphrase: Option<String>,
    /// Length of the round in seconds (the host's clock ends it).
    pub seconds: u32,
    /// Scoring rule.
    pub scoring: Scoring,
    /// Word list, by name (see `parlor_core::Resources`).
    pub lexicon: String,
}

impl Default for GobbleConfig {
    fn default() -> Self {
        GobbleConfig {
            seats: 2,
            size: 4,
            dice: None,
            keyphrase: None,
            seconds: 180,
            scoring: Scoring::Gobble,
            lexicon: parlor_lexicon::DEFAULT.to_string(),
        }
    }
}

/// The longest round, in seconds (an hour).
pub const MAX_SECONDS: u32 = 3600;

/// The round's settings as a lobby shows them.
fn settings() -> Vec<Setting> {
    let number = |v: u64, label| SettingOption {
        value: v.into(),
        label,
    };
    vec![
        Setting {
            field: "seats",
            label: "Players",
            help: "everyone searches the same board at the same time",
            kind: SettingKind::Seats { min: 1, max: 16 },
        },
        Setting {
            field: "size",
            label: "Board",
            help: "the board's side",
            kind: SettingKind::Choice {
                options: vec![number(4, "4x4"), number(5, "5x5"), number(6, "6x6")],
            },
        },
        Setting {
            field: "seconds",
            label: "Round (seconds)",
            help: "how long the search lasts",
            kind: SettingKind::Integer {
                min: 1,
                max: MAX_SECONDS as i64,
                optional: false,
            },
        },
        Setting {
            field: "scoring",
            label: "Scoring",
            help: "Gobble: 1 point for the shortest word, 1 more a letter; Boggle: the classic table",
            kind: SettingKind::Choice {
                options: vec![
                    SettingOption::text("gobble", "Gobble"),
                    SettingOption::text("boggle", "Boggle"),
                ],
            },
        },
        Setting {
            field: "keyphrase",
            label: "Keyphrase",
            help: "four words that make the board (empty: a new board); the same phrase gives the same board",
            kind: SettingKind::Text {
                max_len: 120,
                optional: true,
            },
        },
        Setting {
            field: "lexicon",
            label: "Word list",
            help: "the words that count",
            kind: SettingKind::WordList { role: "words" },
        },
    ]
}

/// What a seat (or the referee) submits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum GobbleAction {
    /// A seat enters a word.
    Enter {
        /// The word as typed (case and surrounding spaces ignored; `qu` as two letters).
        word: String,
    },
    /// A seat has finished searching; the round ends when every seat has.
    Done,
    /// The referee ends the round (time is up).
    EndRound,
}

/// Why an action was refused. Entry errors keep the word as normalised.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// Characters other than letters.
    #[error("{word:?}: use letters only")]
    NotLetters {
        /// The entry.
        word: String,
    },
    /// Shorter than the minimum length.
    #[error("{word:?} is too short: words need at least {min} letters here (Qu counts as two)")]
    TooShort {
        /// The entry.
        word: String,
        /// Minimum length.
        min: usize,
    },
    /// Entered before by the same seat.
    #[error("{word:?} is already on your list")]
    AlreadyEntered {
        /// The entry.
        word: String,
    },
    /// No path of touching cells spells it.
    #[error("{word:?} is not on the board")]
    NotOnBoard {
        /// The entry.
        word: String,
    },
    /// On the board but not in the word list.
    #[error("{word:?} is not in the word list")]
    NotAWord {
        /// The entry.
        word: String,
    },
    /// The round has ended.
    #[error("the round is over")]
    RoundOver,
    /// This seat already said it was done.
    #[error("{0} has finished searching")]
    SeatDone(Seat),
    /// A seat that is not at this table.
    #[error("{0} is not at this table")]
    NoSuchSeat(Seat),
    /// Only the referee ends a round; only seats enter words.
    #[error("{actor} cannot do that: only seats enter words and only the referee ends the round")]
    WrongActor {
        /// Who tried.
        actor: Actor,
    },
}

impl parlor_core::GameError for EntryError {
    fn kind(&self) -> parlor_core::ErrorKind {
        use parlor_core::ErrorKind as K;
        match self {
            EntryError::NotLetters { .. } | EntryError::NoSuchSeat(_) => K::Malformed,
            EntryError::TooShort { .. }
            | EntryError::AlreadyEntered { .. }
            | EntryError::NotOnBoard { .. } => K::Illegal,
            EntryError::NotAWord { .. } => K::UnknownWord,
            EntryError::RoundOver => K::GameOver,
            EntryError::SeatDone(_) | EntryError::WrongActor { .. } => K::NotYourTurn,
        }
    }
}

/// Something that happened. A seat's accepted word is shown to that seat
/// only ([`Game::event_view`]): the others learn that its list grew.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum GobbleEvent {
    /// A seat's word was accepted; `words` is its list's new length.
    Accepted {
        /// Who.
        seat: Seat,
        /// Words on that seat's list.
        words: usize,
        /// The word and its points before cancellation, for that seat
        /// only (absent for everyone else).
        #[serde(skip_serializing_if = "Option::is_none")]
        word: Option<(String, u32)>,
    },
    /// A seat finished searching.
    SeatDone {
        /// Who.
        seat: Seat,
    },
    /// The round ended; scores per seat.
    RoundOver {
        /// Points per seat.
        scores: Vec<u32>,
    },
}

/// One entered word after the round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoredWord {
    /// The word.
    pub word: String,
    /// Its points (0 when cancelled).
    pub points: u32,
    /// The other seats that also found it (empty: it scores).
    pub cancelled_by: Vec<Seat>,
}

/// One seat's list after the round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatResult {
    /// The seat.
    pub seat: Seat,
    /// Its words, in the order entered.
    pub words: Vec<ScoredWord>,
    /// Points from words nobody else found.
    pub score: u32,
}

/// The end of the round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundResults {
    /// Order in which lists are read: fewest words first, ties by seat.
    pub reading_order: Vec<Seat>,
    /// Per seat, indexed by seat.
    pub seats: Vec<SeatResult>,
    /// Every word on the board (the list's words), alphabetical.
    pub all_words: Vec<FoundWord>,
}

/// What one viewer sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GobbleView {
    /// The board's keyphrase.
    pub keyphrase: String,
    /// Rows of faces ("Qu" for the Qu cell).
    pub rows: Vec<Vec<&'static str>>,
    /// The board in LETTERS form.
    pub letters: String,
    /// Minimum word length.
    pub min_len: usize,
    /// Scoring rule.
    pub scoring: Scoring,
    /// Round length in seconds.
    pub seconds: u32,
    /// Whether the round has ended.
    pub over: bool,
    /// Words on each seat's list (counts are public).
    pub counts: Vec<usize>,
    /// The viewer's own words, in the order entered (empty for spectators).
    pub my_words: Vec<String>,
    /// Seats that have finished searching.
    pub done: Vec<Seat>,
    /// Everything, once the round is over.
    pub results: Option<RoundResults>,
}

/// A Gobble round (see the module docs).
#[derive(Clone, Debug)]
pub struct Gobble {
    config: GobbleConfig,
    keyphrase: Keyphrase,
    board: Board,
    words: Arc<BTreeMap<String, FoundWord>>,
    lexicon: LexiconStamp,
    entries: Vec<Vec<String>>,
    done: Vec<bool>,
    results: Option<RoundResults>,
}

/// The solver trie for a word list, built once per [`Resources`].
pub fn trie_for(resources: &Resources, lexicon: &str) -> Result<Arc<Trie>, ConfigError> {
    let lex = resources.lexicon(lexicon)?;
    // Keyed by the list's contents, not its name: a name can be reused.
    let key = format!("gobble-trie:{:016x}", lex.fingerprint());
    Ok(resources.derived(&key, || Trie::new(lex.words())))
}

/// A path spelling `word` on `board` (cells row-major), if there is one.
pub fn find_path(board: &Board, word: &str) -> Option<Vec<usize>> {
    let letters = board_form(word)?;
    let size = board.size();
    fn go(board: &Board, size: Size, letters: &[u8], path: &mut Vec<usize>) -> bool {
        if path.len() == letters.len() {
            return true;
        }
        let last = *path.last().expect("path starts with a cell");
        for n in Board::neighbours(size, last) {
            if !path.contains(&n) && board.cells()[n] == letters[path.len()] {
                path.push(n);
                if go(board, size, letters, path) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    for c in 0..size.cells() {
        if board.cells()[c] == letters[0] {
            let mut path = vec![c];
            if go(board, size, &letters, &mut path) {
                return Some(path);
            }
        }
    }
    None
}

/// Letters of a word as counted by the rules (Qu = 2: so simply its letters).
fn rule_len(word: &str) -> usize {
    word.len()
}

impl Gobble {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The keyphrase.
    pub fn keyphrase(&self) -> &Keyphrase {
        &self.keyphrase
    }

    /// Every word on the board, with points and a path.
    pub fn all_words(&self) -> impl Iterator<Item = &FoundWord> {
        self.words.values()
    }

    /// Each seat's accepted words, in the order entered (hidden from the
    /// other seats until the round is over).
    pub fn entries(&self) -> &[Vec<String>] {
        &self.entries
    }

    /// How many words the board holds.
    pub fn words_len(&self) -> usize {
        self.words.len()
    }

    /// Which seats have finished searching.
    pub fn seats_done(&self) -> &[bool] {
        &self.done
    }

    /// The results, once the round is over.
    pub fn results(&self) -> Option<&RoundResults> {
        self.results.as_ref()
    }

    /// Checks an entry for `seat` without applying it; `Ok` gives the
    /// normalised word.
    pub fn check(&self, seat: Seat, word: &str) -> Result<String, EntryError> {
        if self.results.is_some() {
            return Err(EntryError::RoundOver);
        }
        if seat.0 >= self.config.seats {
            return Err(EntryError::NoSuchSeat(seat));
        }
        let w = word.trim().to_lowercase();
        if w.is_empty() || !w.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(EntryError::NotLetters { word: w });
        }
        let min = self.config.scoring.min_len(self.board.size());
        if rule_len(&w) < min {
            return Err(EntryError::TooShort { word: w, min });
        }
        if self.entries[seat.0].contains(&w) {
            return Err(EntryError::AlreadyEntered { word: w });
        }
        if self.words.contains_key(&w) {
            return Ok(w);
        }
        if find_path(&self.board, &w).is_none() {
            return Err(EntryError::NotOnBoard { word: w });
        }
        Err(EntryError::NotAWord { word: w })
    }

    fn finish(&mut self) -> Vec<GobbleEvent> {
        let mut finders: BTreeMap<&str, Vec<Seat>> = BTreeMap::new();
        for (s, list) in self.entries.iter().enumerate() {
            for w in list {
                finders.entry(w).or_default().push(Seat(s));
            }
        }
        let seats: Vec<SeatResult> = self
            .entries
            .iter()
            .enumerate()
            .map(|(s, list)| {
                let words: Vec<ScoredWord> = list
                    .iter()
                    .map(|w| {
                        let cancelled_by: Vec<Seat> = finders[w.as_str()]
                            .iter()
                            .copied()
                            .filter(|&o| o != Seat(s))
                            .collect();
                        let points = if cancelled_by.is_empty() {
                            self.words[w].points
                        } else {
                            0
                        };
                        ScoredWord {
                            word: w.clone(),
                            points,
                            cancelled_by,
                        }
                    })
                    .collect();
                let score = words.iter().map(|w| w.points).sum();
                SeatResult {
                    seat: Seat(s),
                    words,
                    score,
                }
            })
            .collect();
        let mut reading_order: Vec<Seat> = (0..self.config.seats).map(Seat).collect();
        reading_order.sort_by_key(|s| (self.entries[s.0].len(), s.0));
        let scores = seats.iter().map(|r| r.score).collect();
        self.results = Some(RoundResults {
            reading_order,
            seats,
            all_words: self.words.values().cloned().collect(),
        });
        vec![GobbleEvent::RoundOver { scores }]
    }
}

impl Game for Gobble {
    type Config = GobbleConfig;
    type Action = GobbleAction;
    type View = GobbleView;
    type Event = GobbleEvent;
    type Error = EntryError;
    type Query = parlor_core::NoHelper;
    type Answer = parlor_core::NoHelper;

    const INFO: GameInfo = GameInfo {
        name: "gobble",
        title: "Gobble",
        min_seats: 1,
        max_seats: 16,
    };

    fn new(config: &GobbleConfig, seed: Seed, resources: &Resources) -> Result<Self, ConfigError> {
        if !(1..=16).contains(&config.seats) {
            return Err(ConfigError::new(format!(
                "gobble: seats must be 1 to 16, not {}",
                config.seats
            )));
        }
        if !(4..=6).contains(&config.size) {
            return Err(ConfigError::new(format!(
                "gobble: size must be 4, 5 or 6, not {}",
                config.size
            )));
        }
        if !(1..=MAX_SECONDS).contains(&config.seconds) {
            return Err(ConfigError::new(format!(
                "gobble: seconds must be 1 to {MAX_SECONDS}, not {}",
                config.seconds
            )));
        }
        let size = Size::square(config.size);
        let dice = DiceSet::for_size(config.dice.as_deref(), size)
            .map_err(|e| ConfigError::new(e.to_string()))?;
        let keyphrase = match &config.keyphrase {
            Some(k) => Keyphrase::parse(k).map_err(|e| ConfigError::new(e.to_string()))?,
            None => {
                let mut rng = GameRng::from_seed(seed);
                Keyphrase::random(&mut rng)
            }
        };
        let board = dice.board_for_seed(&keyphrase.normalised());
        let lex = resources.lexicon(&config.lexicon)?;
        let trie = trie_for(resources, &config.lexicon)?;
        let words = Solver::new(&trie, config.scoring)
            .words(&board)
            .into_iter()
            .map(|w| (w.word.clone(), w))
            .collect();
        Ok(Gobble {
            config: config.clone(),
            keyphrase,
            board,
            words: Arc::new(words),
            lexicon: LexiconStamp::of(&lex),
            entries: vec![Vec::new(); config.seats],
            done: vec![false; config.seats],
            results: None,
        })
    }

    fn config(&self) -> &GobbleConfig {
        &self.config
    }

    fn needs(config: &GobbleConfig) -> Needs {
        Needs::seats(config.seats).word_list("words", &config.lexicon)
    }

    /// Without a keyphrase the seed draws the board, which nobody may see
    /// before the round starts; with one, the board is the keyphrase's
    /// (public by design) and the seed decides nothing.
    fn hidden_chance(config: &GobbleConfig) -> bool {
        config.keyphrase.is_none()
    }

    fn settings() -> Vec<Setting> {
        settings()
    }

    fn presets() -> Vec<parlor_core::Preset> {
        use parlor_core::Preset;
        vec![
            Preset::new(
                "classic",
                "Classic",
                "a 4x4 board for three minutes, Gobble's scoring",
            )
            .set("size", 4)
            .set("seconds", 180)
            .set("scoring", "gobble"),
            Preset::new(
                "quick",
                "Quick",
                "a 4x4 board for ninety seconds: a fast round",
            )
            .set("size", 4)
            .set("seconds", 90)
            .set("scoring", "gobble"),
            Preset::new(
                "big",
                "Big board",
                "a 5x5 board for four minutes, Boggle's classic scoring",
            )
            .set("size", 5)
            .set("seconds", 240)
            .set("scoring", "boggle"),
        ]
    }

    fn how_to_play() -> &'static str {
        "Everyone searches the same grid of letters at the same time. \
         Join neighbouring letters (across, up and down, or diagonally, each letter once) into words \
         (three letters or more on 4x4, four on bigger boards) and type them in; \
         only words nobody else found score, longer ones more. \
         The round ends when the clock runs out or everyone has pressed \"I'm finished\"."
    }

    /// Every accepted entry is a different word of the board's for its
    /// seat; then each seat says it is done, or the referee ends the round.
    fn action_bound(&self) -> usize {
        self.config.seats * (self.words.len() + 1) + 1
    }

    fn event_view(event: &GobbleEvent, viewer: Viewer) -> Option<GobbleEvent> {
        match event {
            GobbleEvent::Accepted { seat, words, .. } if viewer != Viewer::Seat(*seat) => {
                Some(GobbleEvent::Accepted {
                    seat: *seat,
                    words: *words,
                    word: None,
                })
            }
            _ => Some(event.clone()),
        }
    }

    fn seats(&self) -> usize {
        self.config.seats
    }

    fn to_act(&self) -> ToAct {
        if self.results.is_some() {
            return ToAct::Over;
        }
        ToAct::Simultaneous(
            (0..self.config.seats)
                .filter(|&s| !self.done[s])
                .map(Seat)
                .collect(),
        )
    }

    fn apply(
        &mut self,
        actor: Actor,
        action: GobbleAction,
    ) -> Result<Vec<GobbleEvent>, EntryError> {
        if self.results.is_some() {
            return Err(EntryError::RoundOver);
        }
        match (actor, action) {
            (Actor::Referee, GobbleAction::EndRound) => Ok(self.finish()),
            (Actor::Seat(seat), GobbleAction::Enter { word }) => {
                if seat.0 < self.config.seats && self.done[seat.0] {
                    return Err(EntryError::SeatDone(seat));
                }
                let w = self.check(seat, &word)?;
                let points = self.words.get(&w).map_or(0, |f| f.points);
                self.entries[seat.0].push(w.clone());
                Ok(vec![GobbleEvent::Accepted {
                    seat,
                    words: self.entries[seat.0].len(),
                    word: Some((w, points)),
                }])
            }
            (Actor::Seat(seat), GobbleAction::Done) => {
                if seat.0 >= self.config.seats {
                    return Err(EntryError::NoSuchSeat(seat));
                }
                if self.done[seat.0] {
                    return Err(EntryError::SeatDone(seat));
                }
                self.done[seat.0] = true;
                let mut events = vec![GobbleEvent::SeatDone { seat }];
                if self.done.iter().all(|&d| d) {
                    events.extend(self.finish());
                }
                Ok(events)
            }
            (actor, _) => Err(EntryError::WrongActor { actor }),
        }
    }

    fn view(&self, viewer: Viewer) -> GobbleView {
        let my_words = match viewer {
            Viewer::Seat(s) if s.0 < self.config.seats => self.entries[s.0].clone(),
            _ => Vec::new(),
        };
        GobbleView {
            keyphrase: self.keyphrase.normalised(),
            rows: self.board.rows(),
            letters: self.board.letters(),
            min_len: self.config.scoring.min_len(self.board.size()),
            scoring: self.config.scoring,
            seconds: self.config.seconds,
            over: self.results.is_some(),
            counts: self.entries.iter().map(Vec::len).collect(),
            my_words,
            done: (0..self.config.seats)
                .filter(|&s| self.done[s])
                .map(Seat)
                .collect(),
            results: self.results.clone(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let r = self.results.as_ref()?;
        Some(Outcome::from_scores(
            r.seats.iter().map(|s| i64::from(s.score)).collect(),
        ))
    }

    /// The round clock: `seconds` from the start, then the referee ends the
    /// round. One key for the whole round, so entries do not restart it.
    fn deadline(&self) -> Option<Deadline<GobbleAction>> {
        self.results.is_none().then(|| Deadline {
            key: "round".to_string(),
            seconds: f64::from(self.config.seconds),
            action: GobbleAction::EndRound,
        })
    }

    fn lexicons(&self) -> Vec<LexiconStamp> {
        vec![self.lexicon.clone()]
    }

    fn agent(
        config: &GobbleConfig,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn Agent<Self>>, ConfigError> {
        Ok(Box::new(GobbleBot {
            level,
            seed,
            scoring: config.scoring,
            trie: trie_for(resources, &config.lexicon)?,
        }))
    }
}

/// The share of the board's words a bot of `level` aims to find (before the
/// length factor of [`bot_words`]).
pub fn level_share(level: Level) -> f64 {
    match level {
        Level::Easy => 0.15,
        Level::Medium => 0.3,
        Level::Hard => 0.5,
        Level::Best => 0.8,
    }
}

/// The words a bot of `level` finds among `words`, in the order it enters
/// them (shorter words first, as people find them). Each word is found
/// independently with probability `level_share(level) × f(length)`, where
/// `f` is 1 up to 4 letters, 0.8 at 5, 0.6 at 6, 0.45 at 7, 0.3 beyond.
pub fn bot_words(words: &[FoundWord], level: Level, seed: Seed) -> Vec<String> {
    let mut rng = GameRng::from_seed(seed);
    let share = level_share(level);
    let mut picked: Vec<(usize, usize, String)> = Vec::new();
    for w in words {
        let f = match w.word.len() {
            0..=4 => 1.0,
            5 => 0.8,
            6 => 0.6,
            7 => 0.45,
            _ => 0.3,
        };
        if rng.chance(share * f) {
            picked.push((w.word.len(), rng.below(1 << 20), w.word.clone()));
        }
    }
    picked.sort();
    picked.into_iter().map(|(_, _, w)| w).collect()
}

/// The Gobble computer player: finds a level-dependent share of the board's
/// words ([`bot_words`]) and enters them one per decision, then says Done.
/// It is stateless between decisions: what it has entered is in its view.
pub struct GobbleBot {
    level: Level,
    seed: Seed,
    scoring: Scoring,
    trie: Arc<Trie>,
}

impl Agent<Gobble> for GobbleBot {
    fn choose(&mut self, ctx: &AgentContext<'_, Gobble>) -> Option<GobbleAction> {
        let view = ctx.view;
        if view.over || view.done.contains(&ctx.seat) {
            return None;
        }
        let board = Board::parse(&view.letters, None).ok()?;
        let words = Solver::new(&self.trie, self.scoring).words(&board);
        let seed = self.seed ^ (ctx.seat.0 as u64).wrapping_mul(0x9e37_79b9);
        match bot_words(&words, self.level, seed)
            .into_iter()
            .find(|w| !view.my_words.contains(w))
        {
            Some(word) => Some(GobbleAction::Enter { word }),
            None => Some(GobbleAction::Done),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::Match;

    fn config(seats: usize) -> GobbleConfig {
        GobbleConfig {
            seats,
            keyphrase: Some("abacus abdomen abide zoom".into()),
            ..Default::default()
        }
    }

    fn words_of(g: &Gobble) -> Vec<String> {
        g.all_words().map(|w| w.word.clone()).collect()
    }

    #[test]
    fn entries_are_checked_with_distinct_errors() {
        let res = Resources::embedded();
        let mut g = Gobble::new(&config(2), 1, &res).unwrap();
        let words = words_of(&g);
        assert!(words.len() > 3, "board has words: {}", g.board());
        let w = words[0].clone();
        let s0 = Actor::Seat(Seat(0));
        assert!(g
            .apply(
                s0,
                GobbleAction::Enter {
                    word: w.to_uppercase()
                }
            )
            .is_ok());
        assert_eq!(
            g.apply(s0, GobbleAction::Enter { word: w.clone() }),
            Err(EntryError::AlreadyEntered { word: w.clone() })
        );
        assert!(matches!(
            g.apply(s0, GobbleAction::Enter { word: "ab".into() }),
            Err(EntryError::TooShort { .. })
        ));
        assert!(matches!(
            g.apply(
                s0,
                GobbleAction::Enter {
                    word: "zzzzz".into()
                }
            ),
            Err(EntryError::NotOnBoard { .. })
        ));
        assert!(matches!(
            g.apply(
                s0,
                GobbleAction::Enter {
                    word: "a-b c".into()
                }
            ),
            Err(EntryError::NotLetters { .. })
        ));
        // A path on the board that is not a word: the first three cells of a path.
        let b = g.board().clone();
        let non_word = (0..16)
            .flat_map(|a| Board::neighbours(b.size(), a).map(move |n| (a, n)))
            .flat_map(|(a, n)| {
                Board::neighbours(b.size(), n)
                    .filter(move |&m| m != a)
                    .map(move |m| [a, n, m])
            })
            .map(|p| {
                p.iter()
                    .map(|&c| Board::face(b.cells()[c]).to_lowercase())
                    .collect::<String>()
            })
            .find(|s| !g.words.contains_key(s))
            .unwrap();
        assert_eq!(
            g.apply(
                s0,
                GobbleAction::Enter {
                    word: non_word.clone()
                }
            ),
            Err(EntryError::NotAWord { word: non_word })
        );
        assert!(matches!(
            g.apply(Actor::Seat(Seat(0)), GobbleAction::EndRound),
            Err(EntryError::WrongActor { .. })
        ));
        assert!(matches!(
            g.apply(Actor::Seat(Seat(5)), GobbleAction::Enter { word: w }),
            Err(EntryError::NoSuchSeat(_))
        ));
    }

    #[test]
    fn unique_words_score_and_cancelled_words_name_the_finders() {
        let res = Resources::embedded();
        let mut g = Gobble::new(&config(3), 1, &res).unwrap();
        let words = words_of(&g);
        let (a, b, c) = (words[0].clone(), words[1].clone(), words[2].clone());
        let enter = |g: &mut Gobble, s: usize, w: &str| {
            g.apply(Actor::Seat(Seat(s)), GobbleAction::Enter { word: w.into() })
                .unwrap()
        };
        enter(&mut g, 0, &a);
        enter(&mut g, 0, &b);
        enter(&mut g, 1, &a);
        enter(&mut g, 2, &a);
        enter(&mut g, 2, &b);
        enter(&mut g, 2, &c);
        // Nobody sees another seat's words during the round.
        let v1 = serde_json::to_string(&g.view(Viewer::Seat(Seat(1)))).unwrap();
        assert!(
            !v1.contains(&format!("\"{b}\"")) && !v1.contains(&format!("\"{c}\"")),
            "{v1}"
        );
        let spectator = g.view(Viewer::Spectator);
        assert!(spectator.my_words.is_empty() && spectator.results.is_none());
        let events = g.apply(Actor::Referee, GobbleAction::EndRound).unwrap();
        let pc = g.words[&c].points;
        assert_eq!(
            events,
            vec![GobbleEvent::RoundOver {
                scores: vec![0, 0, pc]
            }]
        );
        let r = g.results().unwrap();
        assert_eq!(r.reading_order, vec![Seat(1), Seat(0), Seat(2)]);
        assert_eq!(r.seats[0].words[0].cancelled_by, vec![Seat(1), Seat(2)]);
        assert_eq!(r.seats[0].words[1].cancelled_by, vec![Seat(2)]);
        assert!(r.seats[2].words[2].cancelled_by.is_empty());
        assert_eq!(g.outcome().unwrap().winners(), &[Seat(2)]);
        assert_eq!(g.to_act(), ToAct::Over);
        assert_eq!(
            g.apply(Actor::Seat(Seat(0)), GobbleAction::Done),
            Err(EntryError::RoundOver)
        );
    }

    #[test]
    fn all_seats_done_ends_the_round() {
        let res = Resources::embedded();
        let mut g = Gobble::new(&config(2), 1, &res).unwrap();
        let clock = g.deadline().unwrap();
        assert_eq!(
            (clock.seconds, &clock.action),
            (180.0, &GobbleAction::EndRound)
        );
        g.apply(Actor::Seat(Seat(0)), GobbleAction::Done).unwrap();
        assert_eq!(
            g.deadline().unwrap().key,
            clock.key,
            "one clock for the round"
        );
        assert_eq!(g.to_act(), ToAct::Simultaneous(vec![Seat(1)]));
        let ev = g.apply(Actor::Seat(Seat(1)), GobbleAction::Done).unwrap();
        assert!(matches!(ev.last(), Some(GobbleEvent::RoundOver { .. })));
        assert!(g.deadline().is_none());
    }

    #[test]
    fn bots_find_more_words_at_higher_levels() {
        let res = Resources::embedded();
        let g = Gobble::new(
            &GobbleConfig {
                size: 5,
                ..config(2)
            },
            1,
            &res,
        )
        .unwrap();
        let words: Vec<FoundWord> = g.all_words().cloned().collect();
        let n: Vec<usize> = Level::ALL
            .iter()
            .map(|&l| bot_words(&words, l, 3).len())
            .collect();
        assert!(
            n.windows(2).all(|p| p[0] <= p[1]),
            "{n:?} of {}",
            words.len()
        );
        assert!(n[3] > n[0]);
        // The agent enters words from its list, then says Done.
        let mut m = Match::<Gobble>::new(config(2), 1, &res).unwrap();
        let mut bot = Gobble::agent(&config(2), Level::Easy, 5, &res).unwrap();
        for _ in 0..200 {
            let view = m.state().view(Viewer::Seat(Seat(0)));
            let ctx = AgentContext {
                seat: Seat(0),
                view: &view,
                legal: None,
                budget: Default::default(),
            };
            match bot.choose(&ctx) {
                Some(a) => {
                    let done = a == GobbleAction::Done;
                    m.apply(Actor::Seat(Seat(0)), a).unwrap();
                    if done {
                        break;
                    }
                }
                None => break,
            }
        }
        assert!(m.state().done[0]);
    }

    #[test]
    fn config_errors_are_clear() {
        let res = Resources::embedded();
        let bad = GobbleConfig {
            keyphrase: Some("abacus nope abide zoom".into()),
            ..Default::default()
        };
        let e = Gobble::new(&bad, 0, &res).unwrap_err();
        assert!(e.message.contains("\"nope\""), "{e}");
        assert!(Gobble::new(
            &GobbleConfig {
                size: 7,
                ..Default::default()
            },
            0,
            &res
        )
        .is_err());
        let g = Gobble::new(&GobbleConfig::default(), 42, &res).unwrap();
        let again = Gobble::new(&GobbleConfig::default(), 42, &res).unwrap();
        assert_eq!(
            g.keyphrase(),
            again.keyphrase(),
            "the seed fixes a fresh keyphrase"
        );
    }

    #[test]
    fn the_seed_is_hidden_chance_only_without_a_keyphrase() {
        assert!(Gobble::hidden_chance(&GobbleConfig::default()));
        let keyed = GobbleConfig {
            keyphrase: Some("abacus abdomen abide zoom".into()),
            ..Default::default()
        };
        assert!(!Gobble::hidden_chance(&keyed));
        // With a keyphrase the seed changes nothing.
        let res = Resources::embedded();
        let a = Gobble::new(&keyed, 1, &res).unwrap();
        let b = Gobble::new(&keyed, 2, &res).unwrap();
        assert_eq!(
            a.view(Viewer::Spectator).letters,
            b.view(Viewer::Spectator).letters
        );
    }
}
