//! The Word Sprout table: config, actions, events, views and the state that
//! implements [`parlor_core::Game`].
//!
//! See the crate documentation for the rules and `docs/rules/wordsprout.md`
//! for every interpretation made.

use crate::board::{Board, BoardError};
use crate::judge::{inserted_letters, is_insertion, is_palindrome, Judge};
use crate::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_core::{
    Actor, ConfigError, Game, GameInfo, Level, LexiconStamp, Outcome, Resources, Seat, Seed, ToAct,
    Viewer,
};
use parlor_lexicon::Lexicon;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most seats a table may have.
pub const MAX_PLAYERS: usize = 10;

/// The rules of one table.
///
/// ```
/// let c: parlor_wordsprout::Config = serde_json::from_str(r#"{"players": 3, "rules": ["challenge", "tiles"]}"#).unwrap();
/// assert_eq!(c.lexicon, "en");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Seats at the table (2 to [`MAX_PLAYERS`]).
    pub players: usize,
    /// The word list, by name (an embedded list or one the host added).
    pub lexicon: String,
    /// The active optional rules at the start (metamorphism may change them).
    pub rules: RuleSet,
    /// The tiles, used with [`Rule::Tiles`].
    pub pot: Pot,
    /// The vowels (`aeiou` unless configured).
    pub vowels: Vowels,
    /// Teams, as lists of seat indices from 0, used with [`Rule::Teams`]:
    /// every seat in exactly one team, at least two teams.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<Vec<usize>>,
    /// Rounds in the match. Unset: 3 with metamorphism or persistent
    /// vowel collections, else 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 2,
            lexicon: parlor_lexicon::DEFAULT.to_string(),
            rules: RuleSet::default(),
            pot: Pot::default(),
            vowels: Vowels::default(),
            teams: Vec::new(),
            rounds: None,
        }
    }
}

impl Config {
    /// Rounds in the match (see [`Config::rounds`]).
    pub fn round_count(&self) -> u32 {
        self.rounds.unwrap_or(
            if self.rules.has(Rule::Metamorphism) || self.rules.has(Rule::PersistentCollections) {
                3
            } else {
                1
            },
        )
    }

    /// Checks the config; the error says what is accepted.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return Err(ConfigError::new(format!(
                "Word Sprout needs 2 to {MAX_PLAYERS} players, not {}",
                self.players
            )));
        }
        if self.round_count() == 0 {
            return Err(ConfigError::new("a match needs at least 1 round"));
        }
        if !self.teams.is_empty() || self.rules.has(Rule::Teams) {
            let mut seen = vec![false; self.players];
            for team in &self.teams {
                if team.is_empty() {
                    return Err(ConfigError::new("a team needs at least one player"));
                }
                for &s in team {
                    if s >= self.players {
                        return Err(ConfigError::new(format!(
                            "team member {s} is not a seat: seats are 0 to {}",
                            self.players - 1
                        )));
                    }
                    if std::mem::replace(&mut seen[s], true) {
                        return Err(ConfigError::new(format!("seat {s} is in two teams")));
                    }
                }
            }
            if let Some(s) = seen.iter().position(|&b| !b) {
                return Err(ConfigError::new(format!(
                    "with teams, every seat needs a team: seat {s} has none (teams: {:?})",
                    self.teams
                )));
            }
            if self.teams.len() < 2 {
                return Err(ConfigError::new("team play needs at least two teams"));
            }
        }
        Ok(())
    }
}

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

fn bit(c: u8) -> u32 {
    1 << (c - b'a')
}

fn mask_letters(mask: u32) -> String {
    (b'a'..=b'z')
        .filter(|&c| mask & bit(c) != 0)
        .map(char::from)
        .collect()
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

    fn challenges_on(&self) -> bool {
        self.rules.has(Rule::Challenge) || self.rules.has(Rule::OpenChallenge)
    }

    /// How many letters a play from `s` may add (2 from a string locked to
    /// palindromes).
    pub fn max_letters_from(judge: &Judge, rules: &RuleSet, s: &str) -> usize {
        if rules.has(Rule::PalindromeLock) && judge.is_locked(s) {
            2
        } else {
            1
        }
    }

    fn next_active(&self, from: Seat, forward: bool) -> Seat {
        let n = self.active.len();
        let mut s = from.0;
        for _ in 0..n {
            s = if forward {
                (s + 1) % n
            } else {
                (s + n - 1) % n
            };
            if self.active[s] {
                return Seat(s);
            }
        }
        from
    }

    fn team_of(&self, seat: Seat) -> Option<usize> {
        if !self.rules.has(Rule::Teams) {
            return None;
        }
        self.config.teams.iter().position(|t| t.contains(&seat.0))
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            string: self.string.clone(),
            pot: self.pot,
            collections: self.collections.clone(),
            forward: self.forward,
            to_move: self.to_move,
            board: self.board.clone(),
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.string = s.string;
        self.pot = s.pot;
        self.collections = s.collections;
        self.forward = s.forward;
        self.to_move = s.to_move;
        self.board = s.board;
    }

    fn top(&self) -> Option<&Frame> {
        self.stack.last()
    }

    /// The pot a new round starts with: the full pot, less the vowels held
    /// in collections (they are tiles taken from the pot).
    fn fresh_pot(&self) -> [u16; 26] {
        let mut pot = self.config.pot.0;
        if self.rules.has(Rule::Tiles) {
            for &m in &self.collections {
                for c in b'a'..=b'z' {
                    if m & bit(c) != 0 {
                        let i = (c - b'a') as usize;
                        pot[i] = pot[i].saturating_sub(1);
                    }
                }
            }
        }
        pot
    }

    fn start_round(&mut self, events: &mut Vec<Event>) {
        let n = self.config.players;
        if !self.rules.has(Rule::PersistentCollections) || !self.rules.has(Rule::VowelCollection) {
            self.collections = vec![0; n];
        }
        self.string.clear();
        self.active = vec![true; n];
        self.out_order.clear();
        self.forward = true;
        self.pot = self.fresh_pot();
        self.stack.clear();
        self.board = self.rules.has(Rule::TwoD).then(|| Board::new(""));
        self.first = Seat((self.round as usize - 1) % n);
        self.to_move = self.first;
        self.phase = Phase::Playing;
        events.push(Event::RoundStarted {
            round: self.round,
            first: self.first,
        });
    }

    fn rebuild_judge(&mut self) {
        self.shared.judge = Judge::new(
            &self.shared.resources,
            &self.shared.lexicon,
            &self.rules,
            &self.config.pot,
            &self.config.vowels,
        );
    }

    /// Puts `seat` out. `undo`: the seat's losing play is the top frame and
    /// is undone (with rule 4). Then sets who moves next and checks for the
    /// end of the round.
    fn put_out(&mut self, seat: Seat, reason: OutReason, undo: bool, events: &mut Vec<Event>) {
        self.active[seat.0] = false;
        self.out_order.push(seat);
        events.push(Event::Out { seat, reason });
        if undo {
            let frame = self.stack.pop().expect("a losing play to undo");
            if self.rules.has(Rule::UndoLosingPlay) {
                let before_forward = self.forward;
                self.restore(frame.before);
                if self.forward != before_forward {
                    events.push(Event::Reversed {
                        forward: self.forward,
                    });
                }
                events.push(Event::Undone {
                    seat,
                    string: self.string.clone(),
                });
            } else {
                // The play stands but can no longer be challenged or called;
                // play goes on from the player who was to move before it if
                // it was out of turn, else from the player after the loser.
                let mut f = frame;
                f.proven = true;
                f.out_of_turn = false;
                if f.before.to_move != seat {
                    self.to_move = f.before.to_move;
                }
                self.stack.push(f);
            }
        }
        if self.end_round_if_decided(events) {
            return;
        }
        if !self.active[self.to_move.0] {
            self.to_move = self.next_active(self.to_move, self.forward);
        }
        if let Phase::Proving { .. } = self.phase {
            self.phase = Phase::Playing;
        }
        events.push(Event::ToMove { seat: self.to_move });
    }

    /// Ends the round when one player (or one team) is left.
    fn end_round_if_decided(&mut self, events: &mut Vec<Event>) -> bool {
        let left: Vec<Seat> = (0..self.active.len())
            .filter(|&i| self.active[i])
            .map(Seat)
            .collect();
        let decided = match left.as_slice() {
            [] => true,
            [_] => true,
            [a, rest @ ..] => {
                let t = self.team_of(*a);
                t.is_some() && rest.iter().all(|s| self.team_of(*s) == t)
            }
        };
        if !decided {
            return false;
        }
        let winner = left.first().copied().unwrap_or(self.to_move);
        self.win_round(winner, WinReason::LastStanding, events);
        true
    }

    fn winners_with_team(&self, seat: Seat) -> Vec<Seat> {
        match self.team_of(seat) {
            Some(t) => self.config.teams[t].iter().map(|&s| Seat(s)).collect(),
            None => vec![seat],
        }
    }

    fn win_round(&mut self, seat: Seat, reason: WinReason, events: &mut Vec<Event>) {
        let winners = self.winners_with_team(seat);
        for w in &winners {
            self.round_wins[w.0] += 1;
        }
        events.push(Event::RoundWon {
            round: self.round,
            winners: winners.clone(),
            reason,
        });
        if self.round >= self.rounds {
            self.finish(events);
        } else if self.rules.has(Rule::Metamorphism) {
            self.phase = Phase::ChoosingRule { seat };
        } else {
            self.round += 1;
            self.start_round(events);
        }
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        let n = self.config.players;
        let outcome = if self.rounds == 1 {
            // One round: the winners, then the others from the last out to the first.
            let mut ranking: Vec<Vec<Seat>> = Vec::new();
            let winners: Vec<Seat> = (0..n)
                .filter(|&i| self.round_wins[i] > 0)
                .map(Seat)
                .collect();
            ranking.push(winners.clone());
            for s in self.out_order.iter().rev() {
                if !winners.contains(s) {
                    ranking.push(vec![*s]);
                }
            }
            for i in 0..n {
                if !ranking.iter().flatten().any(|s| s.0 == i) {
                    ranking.push(vec![Seat(i)]);
                }
            }
            Outcome {
                ranking,
                scores: None,
            }
        } else {
            Outcome::from_scores(self.round_wins.iter().map(|&w| i64::from(w)).collect())
        };
        events.push(Event::MatchOver {
            winners: outcome.winners().to_vec(),
        });
        self.result = Some(outcome);
    }

    /// Checks that `actor` is an active seat and the match is on.
    fn seat_of(&self, actor: Actor) -> Result<Seat, Error> {
        if self.phase == Phase::Over {
            return Err(Error::Over);
        }
        match actor {
            Actor::Seat(s) if s.0 >= self.config.players => Err(Error::NoSeat(s)),
            Actor::Seat(s)
                if !self.active[s.0] && !matches!(self.phase, Phase::ChoosingRule { .. }) =>
            {
                Err(Error::SeatOut(s))
            }
            Actor::Seat(s) => Ok(s),
            Actor::Referee => Err(Error::Referee),
        }
    }

    /// Why `to` is not a valid play from `from` (for error messages).
    fn why_invalid(&self, from: &str, to: &str) -> String {
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
            && is_palindrome(from)
            && !is_palindrome(to)
        {
            return "the string is locked to palindromes (palindrome-lock)".into();
        }
        if self.rules.has(Rule::WholeWords) {
            return format!("{to:?} is not a goal word (whole-words)");
        }
        format!("no valid goal word contains {to:?}")
    }

    fn play(&mut self, seat: Seat, to: String) -> Result<Vec<Event>, Error> {
        self.check_can_play(seat)?;
        let from = self.string.clone();
        let max = Self::max_letters_from(&self.shared.judge, &self.rules, &from);
        if !is_insertion(&from, &to, max) {
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

    fn check_can_play(&self, seat: Seat) -> Result<(), Error> {
        if self.phase != Phase::Playing {
            return Err(Error::NotNow(match &self.phase {
                Phase::Proving { challenged, .. } => {
                    format!("a challenge is pending: {challenged} must name a goal word or concede")
                }
                Phase::ChoosingRule { seat } => format!("{seat} is choosing a rule"),
                _ => "the game is over".into(),
            }));
        }
        if seat != self.to_move && !self.rules.has(Rule::OutOfTurn) {
            return Err(Error::NotYourTurn {
                expected: self.to_move,
                got: seat,
            });
        }
        Ok(())
    }

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

    fn cross(
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

    /// Accepts a well-formed play (`from` grows into `to`; `board` is the
    /// grid after it in 2-D; `crossing` when it starts a new 2-D string).
    fn commit(
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
            let mut need = [0u16; 26];
            for &c in &added {
                need[(c - b'a') as usize] += 1;
            }
            for (i, &n) in need.iter().enumerate() {
                if n > self.pot[i] {
                    return Err(Error::NoTile {
                        letter: (b'a' + i as u8) as char,
                    });
                }
            }
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
        let vowels = self.config.vowels.clone();
        let mut completed = false;
        for &c in &added {
            if self.rules.has(Rule::Tiles) {
                self.pot[(c - b'a') as usize] -= 1;
            }
            if !vowels.is_vowel(c) {
                continue;
            }
            if self.rules.has(Rule::VowelReverses) {
                self.forward = !self.forward;
                events.push(Event::Reversed {
                    forward: self.forward,
                });
            }
            if self.rules.has(Rule::VowelCollection) {
                let held = self.collections[seat.0] & bit(c) != 0;
                let i = (c - b'a') as usize;
                if held {
                    if self.rules.has(Rule::VowelLoss) {
                        self.collections[seat.0] &= !bit(c);
                        if self.rules.has(Rule::Tiles) {
                            self.pot[i] += 1;
                        }
                        events.push(Event::LostVowel {
                            seat,
                            vowel: c as char,
                        });
                    }
                } else if self.rules.has(Rule::Tiles) && self.pot[i] == 0 {
                    events.push(Event::LastTile {
                        seat,
                        vowel: c as char,
                    });
                } else {
                    if self.rules.has(Rule::Tiles) {
                        self.pot[i] -= 1;
                    }
                    self.collections[seat.0] |= bit(c);
                    events.push(Event::Collected {
                        seat,
                        vowel: c as char,
                    });
                    let all: u32 = vowels.letters().iter().map(|&v| bit(v)).sum();
                    if self.collections[seat.0] & all == all {
                        completed = true;
                    }
                }
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
                let turned: Vec<Seat> = if self.rules.has(Rule::CollectionsReset) {
                    (0..self.config.players).map(Seat).collect()
                } else {
                    vec![seat]
                };
                for s in &turned {
                    self.collections[s.0] = 0;
                }
                events.push(Event::TurnedIn { seats: turned });
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

    fn challenge(&mut self, seat: Seat) -> Result<Vec<Event>, Error> {
        if self.phase != Phase::Playing {
            return Err(Error::NotNow("there is nothing to challenge now".into()));
        }
        let open = self.rules.has(Rule::OpenChallenge);
        if !open && !self.rules.has(Rule::Challenge) {
            return Err(Error::NotNow("challenges are off".into()));
        }
        if !open && seat != self.to_move {
            return Err(Error::NotNow(format!(
                "only the player to move ({}) may challenge",
                self.to_move
            )));
        }
        let Some(top) = self.top() else {
            return Err(Error::NotNow("there is no play to challenge".into()));
        };
        if top.by == seat {
            return Err(Error::NotNow("you cannot challenge your own play".into()));
        }
        if top.proven {
            return Err(Error::NotNow("that play was already shown valid".into()));
        }
        if !self.active[top.by.0] {
            return Err(Error::NotNow(format!("{} is already out", top.by)));
        }
        let challenged = top.by;
        self.phase = Phase::Proving {
            challenger: seat,
            challenged,
            open,
        };
        Ok(vec![Event::Challenged {
            challenger: seat,
            challenged,
            string: self.string.clone(),
        }])
    }

    fn prove(&mut self, seat: Seat, word: String) -> Result<Vec<Event>, Error> {
        let Phase::Proving {
            challenger,
            challenged,
            open,
        } = self.phase.clone()
        else {
            return Err(Error::NotNow("there is no challenge to answer".into()));
        };
        if seat != challenged {
            return Err(Error::NotNow(format!(
                "{challenged} must answer the challenge"
            )));
        }
        let top = self.top().expect("a challenged play");
        let from = top.from.clone();
        let judge = &self.shared.judge;
        let bad = |why: String| Error::BadProof {
            word: word.clone(),
            string: self.string.clone(),
            why,
        };
        if !judge.is_legal_move(&from, &self.string) {
            return Err(bad(format!(
                "the play {from:?} -> {:?} is not valid ({}); concede",
                self.string,
                self.why_invalid(&from, &self.string)
            )));
        }
        if !judge.is_goal_word(&word) {
            return Err(bad("it is not a valid goal word here".into()));
        }
        if !word.contains(self.string.as_str()) && !judge.goal_words(&self.string).contains(&word) {
            return Err(bad("it does not contain the string".into()));
        }
        let mut events = vec![Event::Proved { seat, word }];
        self.stack.last_mut().expect("a challenged play").proven = true;
        let _ = open;
        self.phase = Phase::Playing;
        self.put_out(challenger, OutReason::FailedChallenge, false, &mut events);
        Ok(events)
    }

    fn concede(&mut self, seat: Seat, by_referee: bool) -> Result<Vec<Event>, Error> {
        let mut events = Vec::new();
        match self.phase.clone() {
            Phase::Proving {
                challenger,
                challenged,
                open,
            } => {
                if seat == challenged {
                    if open {
                        self.active[seat.0] = false;
                        self.out_order.push(seat);
                        events.push(Event::Out {
                            seat,
                            reason: OutReason::LostChallenge,
                        });
                        self.win_round(challenger, WinReason::OpenChallenge, &mut events);
                    } else {
                        self.phase = Phase::Playing;
                        self.put_out(seat, OutReason::LostChallenge, true, &mut events);
                    }
                } else {
                    return Err(Error::NotNow(format!(
                        "{challenged} must answer the challenge first"
                    )));
                }
            }
            Phase::Playing => {
                let reason = if by_referee {
                    OutReason::Referee
                } else {
                    OutReason::Conceded
                };
                self.put_out(seat, reason, false, &mut events)
            }
            Phase::ChoosingRule { .. } => return Err(Error::NotNow("the round is over".into())),
            Phase::Over => return Err(Error::Over),
        }
        Ok(events)
    }

    fn call(&mut self, seat: Seat) -> Result<Vec<Event>, Error> {
        if self.phase != Phase::Playing {
            return Err(Error::NotNow("there is nothing to call now".into()));
        }
        let Some(top) = self.top() else {
            return Err(Error::NotNow("there is no play to call".into()));
        };
        if !top.out_of_turn {
            return Err(Error::NotNow("the last play was made in turn".into()));
        }
        if top.by == seat {
            return Err(Error::NotNow("you cannot call your own play".into()));
        }
        if !self.active[top.by.0] {
            return Err(Error::NotNow(format!("{} is already out", top.by)));
        }
        let offender = top.by;
        let mut events = vec![Event::Called {
            caller: seat,
            offender,
        }];
        self.put_out(offender, OutReason::OutOfTurn, true, &mut events);
        Ok(events)
    }

    fn choose_rule(&mut self, seat: Seat, rule: Option<Rule>) -> Result<Vec<Event>, Error> {
        let Phase::ChoosingRule { seat: chooser } = self.phase else {
            return Err(Error::NotNow("no rule is being chosen now".into()));
        };
        if seat != chooser {
            return Err(Error::NotNow(format!("{chooser} chooses the rule")));
        }
        let mut events = Vec::new();
        let mut on = false;
        if let Some(rule) = rule {
            if let Some(why) = self.unswitchable(rule) {
                return Err(Error::RuleNotSwitchable { rule, why });
            }
            on = !self.rules.has(rule);
            let shapes = rule.shapes_strings();
            self.rules.set(rule, on);
            if shapes {
                self.rebuild_judge();
            }
        }
        events.push(Event::RuleChanged { seat, rule, on });
        self.round += 1;
        self.start_round(&mut events);
        Ok(events)
    }

    /// Why metamorphism cannot switch `rule`, if it cannot.
    pub fn unswitchable(&self, rule: Rule) -> Option<String> {
        match rule {
            Rule::Teams if self.config.teams.is_empty() => {
                Some("no teams are configured for this table".into())
            }
            _ => None,
        }
    }

    /// The rules metamorphism may switch now.
    pub fn switchable_rules(&self) -> Vec<Rule> {
        Rule::ALL
            .into_iter()
            .filter(|&r| self.unswitchable(r).is_none())
            .collect()
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

    /// 2-D: the new strings that may be started now (valid ones only
    /// unless challenges are on), tiles permitting.
    fn cross_actions(&self) -> Vec<Action> {
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

    fn tiles_allow(&self, from: &str, to: &str) -> bool {
        let mut need = [0u16; 26];
        for c in inserted_letters(from, to) {
            need[(c - b'a') as usize] += 1;
        }
        need.iter().zip(self.pot.iter()).all(|(n, p)| n <= p)
    }

    /// The structurally possible plays from the current string listed as
    /// legal actions when challenges are on: every one-letter insertion and,
    /// under the palindrome lock, the two-letter insertions that keep a
    /// palindrome; tiles, length and grid permitting.
    fn all_insertions(&self) -> Vec<String> {
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
                    if is_palindrome(&u)
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

impl Game for WordSprout {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Error;

    const INFO: GameInfo = GameInfo {
        name: "wordsprout",
        title: "Word Sprout",
        min_seats: 2,
        max_seats: MAX_PLAYERS,
    };

    fn new(config: &Config, _seed: Seed, resources: &Resources) -> Result<Self, ConfigError> {
        config.validate()?;
        let lexicon = resources
            .lexicon(&config.lexicon)
            .map_err(|e| ConfigError::new(e.to_string()))?;
        let judge = Judge::new(
            resources,
            &lexicon,
            &config.rules,
            &config.pot,
            &config.vowels,
        );
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
                            out.push(Action::Prove { word: w });
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
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }

    fn lexicons(&self) -> Vec<LexiconStamp> {
        vec![LexiconStamp::of(&self.shared.lexicon)]
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
