//! The Word Sprout table: config, actions, events, views and the state that
//! implements [`parlor_core::Game`].
//!
//! See the crate documentation for the rules and `docs/rules/wordsprout.md`
//! for every interpretation made.
//!
//! This module holds the vocabulary of the contract (actions, events,
//! errors, phases), the state and the [`Game`] impl, which dispatches to one
//! module per part of the rules:
//!
//! | module | what |
//! | --- | --- |
//! | `config` | [`Config`] and its validation |
//! | `turns` | the order of play, out-of-turn play and calls |
//! | `plays` | plays, bluffs, and the plays a seat may make |
//! | `two_d` | 2-D: new strings across the grid |
//! | `tiles` | the pot |
//! | `vowels` | reversals and vowel collections |
//! | `challenges` | challenges and their answers |
//! | `going_out` | conceding, going out, undoing the losing play |
//! | `rounds` | rounds, teams, the match result |
//! | `metamorphism` | the round winner's rule switch |
//! | `view` | [`View`] |

mod challenges;
mod config;
mod going_out;
mod helper;
pub use helper::{HelperPage, HelperQuery};
mod metamorphism;
mod plays;
mod rounds;
mod tiles;
mod turns;
mod two_d;
mod view;
mod vowels;

pub use config::{Config, MAX_PLAYERS};
pub use view::{LastPlay, View};

use crate::board::{Board, BoardError};
use crate::judge::Judge;
use crate::rules::{Rule, RuleSet};
use parlor_core::{
    Actor, ConfigError, Game, GameInfo, Level, LexiconStamp, Needs, Outcome, Resources, Seat, Seed,
    Setting, ToAct, Viewer,
};
use parlor_lexicon::Lexicon;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What one seat (or the referee) submits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Action {
    /// Add a letter (two under the palindrome lock): `string` is the whole
    /// new central string, e.g. `{"type": "play", "string": "omat"}` on `oat`.
    Play {
        /// The central string after the play.
        string: String,
    },
    /// 2-D: start a new string across letter `index` (from 0) of string
    /// `line` (from 0, in the order strings were started): that letter and
    /// `letter`, just before it (`before`) or after it, in the other
    /// direction. `{"type": "cross", "line": 0, "index": 2, "letter": "t", "before": false}`
    Cross {
        /// The string crossed.
        line: usize,
        /// The letter crossed, from 0.
        index: usize,
        /// The letter added.
        letter: char,
        /// Whether it goes before the crossed letter (above or left of it).
        before: bool,
    },
    /// Challenge the previous play.
    Challenge,
    /// Answer a challenge by naming a goal word that justifies the string.
    Prove {
        /// The goal word.
        word: String,
    },
    /// Go out: "I cannot play", or give up a challenge. From the referee:
    /// the seat that must act now goes out (a clock ran out).
    Concede,
    /// Call the out-of-turn play that is the last play: its player goes out.
    Call,
    /// Metamorphism: the round's winner turns one rule on or off (`None`:
    /// leave the rules as they are).
    ChooseRule {
        /// The rule to switch.
        rule: Option<Rule>,
    },
}

/// Why a player went out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutReason {
    /// Conceded: could not (or would not) play, or gave up a challenge.
    Conceded,
    /// Challenged a play that was shown valid.
    FailedChallenge,
    /// Could not show a challenged play valid.
    LostChallenge,
    /// Played out of turn and was called.
    OutOfTurn,
    /// Completed a vowel collection with a play that was not valid or not in turn.
    InvalidWinningPlay,
    /// Removed by the referee.
    Referee,
}

/// How a round was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinReason {
    /// The last player (or team) left.
    LastStanding,
    /// Collected every vowel.
    VowelCollection,
    /// An open challenge found an invalid play.
    OpenChallenge,
    /// 2-D: closed a shape around a hole.
    ClosedShape,
}

/// Something that happened; public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    /// A play.
    Played {
        /// Who played.
        seat: Seat,
        /// The string before.
        from: String,
        /// The string after.
        to: String,
        /// Whether it was out of turn.
        out_of_turn: bool,
    },
    /// The order of play reversed.
    Reversed {
        /// True when play now goes to higher seat numbers.
        forward: bool,
    },
    /// 2-D: a new string was started across a letter of string `line`
    /// (the `played` event that follows has the new string).
    NewString {
        /// Who.
        seat: Seat,
        /// The string crossed, from 0.
        line: usize,
        /// The letter crossed, from 0.
        index: usize,
    },
    /// A vowel joined a collection.
    Collected {
        /// Whose.
        seat: Seat,
        /// The vowel.
        vowel: char,
    },
    /// A vowel left a collection (vowel-loss).
    LostVowel {
        /// Whose.
        seat: Seat,
        /// The vowel.
        vowel: char,
    },
    /// A vowel was played from the last tile and not collected.
    LastTile {
        /// Who played it.
        seat: Seat,
        /// The vowel.
        vowel: char,
    },
    /// Collections turned in.
    TurnedIn {
        /// Whose collections.
        seats: Vec<Seat>,
    },
    /// A challenge was made.
    Challenged {
        /// Who challenged.
        challenger: Seat,
        /// Whose play.
        challenged: Seat,
        /// The string challenged.
        string: String,
    },
    /// The challenged player named a goal word.
    Proved {
        /// Who.
        seat: Seat,
        /// The word.
        word: String,
    },
    /// An out-of-turn play was called.
    Called {
        /// Who called.
        caller: Seat,
        /// Who played out of turn.
        offender: Seat,
    },
    /// A player went out.
    Out {
        /// Who.
        seat: Seat,
        /// Why.
        reason: OutReason,
    },
    /// A losing play was undone: the string is back to `string`.
    Undone {
        /// Whose play.
        seat: Seat,
        /// The string after undoing.
        string: String,
    },
    /// Who moves now.
    ToMove {
        /// The seat to move.
        seat: Seat,
    },
    /// A round ended.
    RoundWon {
        /// The round, from 1.
        round: u32,
        /// The winning seats (a whole team with team play).
        winners: Vec<Seat>,
        /// How.
        reason: WinReason,
    },
    /// Metamorphism: a rule changed.
    RuleChanged {
        /// Who chose.
        seat: Seat,
        /// Which rule (none: kept the rules).
        rule: Option<Rule>,
        /// Whether it is now on.
        on: bool,
    },
    /// A new round started.
    RoundStarted {
        /// The round, from 1.
        round: u32,
        /// Who plays first.
        first: Seat,
    },
    /// The match is over.
    MatchOver {
        /// The seats in first place.
        winners: Vec<Seat>,
    },
}

/// Why an action was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The match is over.
    #[error("the game is over")]
    Over,
    /// The seat is out of this round.
    #[error("{0} is out of this round")]
    SeatOut(Seat),
    /// The seat number does not exist.
    #[error("there is no {0}")]
    NoSeat(Seat),
    /// Not this seat's turn and out-of-turn play is off (strict).
    #[error("it is {expected}'s turn, not {got}'s (out-of-turn play is off)")]
    NotYourTurn {
        /// Who is to act.
        expected: Seat,
        /// Who tried.
        got: Seat,
    },
    /// This action is not possible at this moment.
    #[error("{0}")]
    NotNow(String),
    /// The new string is not the old one with letters added.
    #[error("{to:?} is not {from:?} with {max} letter{} added", if *max == 1 { "" } else { "s (at most)" })]
    NotAnInsertion {
        /// The string before.
        from: String,
        /// What was submitted.
        to: String,
        /// How many letters may be added.
        max: usize,
    },
    /// 2-D: the play does not fit on the grid.
    #[error("{0}")]
    Board(#[from] BoardError),
    /// Longer than any word of the list: no goal word can contain it.
    #[error("{to:?} is longer than any word in the list ({longest} letters)")]
    TooLong {
        /// The string submitted.
        to: String,
        /// The longest word's length.
        longest: usize,
    },
    /// No tile of that letter is left in the pot.
    #[error("no tile {letter:?} is left in the pot")]
    NoTile {
        /// The letter.
        letter: char,
    },
    /// Challenges are off and the play is not valid.
    #[error("{to:?} is not a valid play: {why}")]
    Invalid {
        /// The string submitted.
        to: String,
        /// Why.
        why: String,
    },
    /// The word named does not justify the string.
    #[error("{word:?} does not justify {string:?}: {why}")]
    BadProof {
        /// The word named.
        word: String,
        /// The challenged string.
        string: String,
        /// Why.
        why: String,
    },
    /// The rule cannot be switched by metamorphism.
    #[error("rule {rule} cannot be switched: {why}")]
    RuleNotSwitchable {
        /// The rule.
        rule: Rule,
        /// Why.
        why: String,
    },
    /// The referee may only concede for the seat to act.
    #[error("the referee may only concede on behalf of the seat that must act")]
    Referee,
}

impl parlor_core::GameError for Error {
    fn kind(&self) -> parlor_core::ErrorKind {
        use parlor_core::ErrorKind as K;
        match self {
            Error::Over => K::GameOver,
            Error::SeatOut(_) | Error::NotYourTurn { .. } | Error::Referee => K::NotYourTurn,
            Error::NoSeat(_) => K::Malformed,
            Error::NotNow(_)
            | Error::NotAnInsertion { .. }
            | Error::Board(_)
            | Error::TooLong { .. }
            | Error::NoTile { .. }
            | Error::Invalid { .. }
            | Error::BadProof { .. }
            | Error::RuleNotSwitchable { .. } => K::Illegal,
        }
    }
}

/// The phase of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "kebab-case")]
pub enum Phase {
    /// Players add letters.
    Playing,
    /// A challenge waits for the challenged player's goal word.
    Proving {
        /// Who challenged.
        challenger: Seat,
        /// Who must answer.
        challenged: Seat,
        /// Whether it is an open challenge (an invalid play wins the challenger the round).
        open: bool,
    },
    /// Metamorphism: the winner of the round switches a rule.
    ChoosingRule {
        /// Who chooses.
        seat: Seat,
    },
    /// The match is over.
    Over,
}

/// What a losing play's undo restores.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snapshot {
    string: String,
    pot: [u16; 26],
    collections: Vec<u32>,
    forward: bool,
    to_move: Seat,
    board: Option<Board>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Frame {
    by: Seat,
    /// The string the play grew (for a new 2-D string, the crossed letter).
    from: String,
    before: Snapshot,
    out_of_turn: bool,
    proven: bool,
}

/// The host's shared data: word list, resources and judge.
#[derive(Clone)]
struct Shared {
    resources: Resources,
    lexicon: Arc<Lexicon>,
    judge: Judge,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Shared({})", self.lexicon.name())
    }
}

/// A Word Sprout table: one match of one or more rounds.
#[derive(Clone, Debug)]
pub struct WordSprout {
    config: Config,
    shared: Shared,
    rules: RuleSet,
    round: u32,
    rounds: u32,
    round_wins: Vec<u32>,
    phase: Phase,
    string: String,
    active: Vec<bool>,
    out_order: Vec<Seat>,
    to_move: Seat,
    forward: bool,
    pot: [u16; 26],
    collections: Vec<u32>,
    stack: Vec<Frame>,
    board: Option<Board>,
    first: Seat,
    /// Every seat's round wins stored; the match's final ranking.
    result: Option<Outcome>,
}

/// Normalises what a player typed: trimmed, lowercase.
fn norm(s: &str) -> String {
    s.trim().to_ascii_lowercase()
}

impl WordSprout {
    /// The central string.
    pub fn string(&self) -> &str {
        &self.string
    }

    /// The active rules (metamorphism may have changed them).
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The phase.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The judge of the active rules (the valid strings and goal words).
    pub fn judge(&self) -> &Judge {
        &self.shared.judge
    }

    /// Whether `seat` is still in the round.
    pub fn is_active(&self, seat: Seat) -> bool {
        self.active.get(seat.0).copied().unwrap_or(false)
    }

    fn top(&self) -> Option<&Frame> {
        self.stack.last()
    }
}

impl Game for WordSprout {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Error;
    type Query = HelperQuery;
    type Answer = HelperPage;

    const INFO: GameInfo = GameInfo {
        name: "wordsprout",
        title: "Word Sprout",
        min_seats: 2,
        max_seats: MAX_PLAYERS,
    };

    fn new(config: &Config, _seed: Seed, resources: &Resources) -> Result<Self, ConfigError> {
        config.validate()?;
        let lexicon = resources.lexicon(&config.lexicon)?;
        let judge = Judge::new(
            resources,
            &lexicon,
            &config.rules,
            &config.pot,
            &config.vowels,
        )?;
        let n = config.players;
        let mut g = WordSprout {
            config: config.clone(),
            shared: Shared {
                resources: resources.clone(),
                lexicon,
                judge,
            },
            rules: config.rules.clone(),
            round: 1,
            rounds: config.round_count(),
            round_wins: vec![0; n],
            phase: Phase::Playing,
            string: String::new(),
            active: vec![true; n],
            out_order: Vec::new(),
            to_move: Seat(0),
            forward: true,
            pot: config.pot.0,
            collections: vec![0; n],
            stack: Vec::new(),
            board: None,
            first: Seat(0),
            result: None,
        };
        let mut events = Vec::new();
        g.start_round(&mut events);
        Ok(g)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn needs(config: &Config) -> Needs {
        Needs::seats(config.players).word_list("words", &config.lexicon)
    }

    /// Word Sprout draws nothing: the seed is not read at all (the pot is
    /// the config's, in plain sight), so a player may choose it.
    fn hidden_chance(_: &Config) -> bool {
        false
    }

    fn settings() -> Vec<Setting> {
        config::settings()
    }

    fn presets() -> Vec<parlor_core::Preset> {
        use parlor_core::Preset;
        let names =
            |rules: &[Rule]| -> Vec<&'static str> { rules.iter().map(|r| r.name()).collect() };
        let mut meta = Rule::DEFAULT.to_vec();
        meta.push(Rule::Metamorphism);
        vec![
            Preset::new(
                "standard",
                "Standard",
                "the table's usual rules: calls out of turn, challenges and bluffs, one undo of a losing play",
            )
            .set("rules", names(&Rule::DEFAULT))
            .set("hints", false),
            Preset::new(
                "first-game",
                "First game",
                "the four core rules only, with the helper open during play to show what could be played",
            )
            .set("rules", Vec::<&str>::new())
            .set("hints", true),
            Preset::new(
                "metamorphism",
                "Metamorphism",
                "three rounds: each round's winner switches one rule on or off for the next",
            )
            .set("rules", names(&meta))
            .set("hints", false),
        ]
    }

    fn how_to_play() -> &'static str {
        "Take turns adding one letter, anywhere, to the string in the middle; it must stay part of some word. \
         You may bluff with a letter you have no word for, but a challenge makes you name one. \
         Whoever cannot play goes out; the last player left wins."
    }

    /// Each round ends once every seat but one is out. Every play adds a
    /// letter to a string no longer than the longest word, and a play is
    /// taken back only when its player goes out; each play may be followed
    /// by a challenge and its answer, a call, or a concede. 2-D starts a new
    /// string only from a complete word of five letters or more, and a
    /// grid holds at most as many strings as letters.
    fn action_bound(&self) -> usize {
        let config = &self.config;
        let per_string = (parlor_lexicon::MAX_WORD_LEN + 2) * (config.players + 1) * 4;
        let strings = if config.rules.has(Rule::TwoD) { 64 } else { 1 };
        config.round_count() as usize * (per_string * strings + 2)
    }

    fn seats(&self) -> usize {
        self.config.players
    }

    fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::Playing => ToAct::One(self.to_move),
            Phase::Proving { challenged, .. } => ToAct::One(*challenged),
            Phase::ChoosingRule { seat } => ToAct::One(*seat),
            Phase::Over => ToAct::Over,
        }
    }

    fn legal_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        let mut out = Vec::new();
        if seat.0 >= self.config.players {
            return Some(out);
        }
        match &self.phase {
            Phase::Over => {}
            Phase::ChoosingRule { seat: chooser } => {
                if *chooser == seat {
                    out.push(Action::ChooseRule { rule: None });
                    for r in self.switchable_rules() {
                        out.push(Action::ChooseRule { rule: Some(r) });
                    }
                }
            }
            Phase::Proving { challenged, .. } => {
                if *challenged == seat {
                    let from = &self.top().expect("a challenged play").from;
                    if self.shared.judge.is_legal_move(from, &self.string) {
                        if let Some(w) = self
                            .shared
                            .judge
                            .goal_words(&self.string)
                            .into_iter()
                            .next()
                        {
                            out.push(Action::Prove {
                                word: w.to_string(),
                            });
                        }
                    }
                    out.push(Action::Concede);
                }
            }
            Phase::Playing => {
                if !self.active[seat.0] {
                    return Some(out);
                }
                if seat == self.to_move {
                    let plays = if self.challenges_on() {
                        self.all_insertions()
                    } else {
                        self.valid_plays()
                    };
                    out.extend(plays.into_iter().map(|string| Action::Play { string }));
                    out.extend(self.cross_actions());
                }
                if let Some(top) = self.top() {
                    let can_challenge = top.by != seat
                        && !top.proven
                        && self.active[top.by.0]
                        && (self.rules.has(Rule::OpenChallenge)
                            || (self.rules.has(Rule::Challenge) && seat == self.to_move));
                    if can_challenge {
                        out.push(Action::Challenge);
                    }
                    if top.out_of_turn && top.by != seat && self.active[top.by.0] {
                        out.push(Action::Call);
                    }
                }
                out.push(Action::Concede);
            }
        }
        Some(out)
    }

    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, Error> {
        if actor == Actor::Referee {
            // The referee acts for the seat that must act: only to put it out.
            if action != Action::Concede {
                return Err(Error::Referee);
            }
            let ToAct::One(seat) = self.to_act() else {
                return Err(Error::Over);
            };
            if let Phase::ChoosingRule { .. } = self.phase {
                return self.choose_rule(seat, None);
            }
            return self.concede(seat, true);
        }
        let seat = self.seat_of(actor)?;
        match action {
            Action::Play { string } => self.play(seat, norm(&string)),
            Action::Cross {
                line,
                index,
                letter,
                before,
            } => self.cross(seat, line, index, letter, before),
            Action::Challenge => self.challenge(seat),
            Action::Prove { word } => self.prove(seat, norm(&word)),
            Action::Concede => self.concede(seat, false),
            Action::Call => self.call(seat),
            Action::ChooseRule { rule } => self.choose_rule(seat, rule),
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        self.build_view(viewer)
    }

    /// The referee's concede, when `seat` must act now (to play, or to
    /// answer a challenge) in the match's last round: it goes out for the
    /// rest of the match, and the round goes on or ends as after any going
    /// out. `None` for a seat not to act, while choosing a rule, and before
    /// the last round (a concede only takes a seat out of one round).
    fn forfeit(&self, seat: Seat) -> Option<Action> {
        if self.round < self.rounds {
            return None;
        }
        let acts = match &self.phase {
            Phase::Playing => self.to_move == seat && self.is_active(seat),
            Phase::Proving { challenged, .. } => *challenged == seat,
            Phase::ChoosingRule { .. } | Phase::Over => false,
        };
        acts.then_some(Action::Concede)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }

    /// A match's scores are the rounds each player won (one round ranks
    /// without scores).
    fn score_words(&self) -> parlor_core::ScoreWords {
        parlor_core::ScoreWords {
            one: "round won",
            many: "rounds won",
        }
    }

    fn lexicons(&self) -> Vec<LexiconStamp> {
        vec![LexiconStamp::of(&self.shared.lexicon)]
    }

    fn assist(
        &self,
        viewer: Viewer,
        query: &HelperQuery,
        budget: &parlor_core::Budget,
    ) -> Result<HelperPage, parlor_core::HelpError> {
        self.helper(viewer, query, budget)
    }

    fn agent(
        config: &Config,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn parlor_core::Agent<Self>>, ConfigError> {
        Ok(Box::new(crate::bot::Bot::new(
            config, level, seed, resources,
        )?))
    }
}
