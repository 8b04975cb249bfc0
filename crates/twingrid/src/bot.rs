//! The computer player: every legal word at every column, scored exactly
//! and fast, with a look at the opponent's best reply.
//!
//! - **Easy**: a random scoring placement.
//! - **Medium**: the highest score now.
//! - **Hard**: of the 8 highest-scoring placements, the one that leaves the
//!   opponent's best reply (against the new word, in their grid) furthest
//!   behind.
//! - **Best**: the same over the 24 highest.
//!
//! The opening: player 1 writes the opening word in the middle of its row
//! and gives the points that make the two sides even by the measured edge
//! ([`PLAYER_ONE_EDGE`]: player 2 is ahead, so player 1 gives itself the
//! difference); as player 2 it takes player 1's side when that side, its
//! points and the edge counted, is worth more than its own. It never bluffs (a bluff only pays against an opponent who
//! does not check words, and the bot's opponents may) and challenges every
//! word its dictionary does not hold (Easy: half of them).
//!
//! It follows the game through what its seat is shown
//! ([`Agent::observe`]): which side it plays after the pie, and the
//! opponent's words as they are written. It judges each of those words
//! once, when it is written, and keeps to that judgement however often it
//! is asked to move before the turn passes (a host asks again after a
//! refusal or a restart): an Easy bot that let a fake word stand does not
//! challenge it on the next asking.

use crate::grid::{Grid, Vertical};
use crate::turns::{Config, TwinGrids};
use crate::{Action, Turn, View};
use parlor_core::{Agent, AgentContext, ConfigError, GameRng, Level, Resources, Seat, Seed};
use parlor_lexicon::{common, count_letters, CountedWords, Lexicon};
use std::sync::Arc;

/// Player 1's mean margin over player 2 at the end of a game given no
/// opening points: measured by `parlor twingrid selfplay` (800 games
/// between the levels, default rules: −7.0, −5.6, −6.3 and −8.1 in the
/// four pairings of 200). Player 2 moves last and replies to every word.
pub const PLAYER_ONE_EDGE: i64 = -7;

/// One placement: a word at a column, and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The word.
    pub word: String,
    /// Its first letter's column, from 0.
    pub column: usize,
    /// The turn's score.
    pub score: u32,
}

/// What a placement search asks for.
#[derive(Clone, Copy, Debug)]
pub struct Query<'a> {
    /// The opponent's last word, scored against.
    pub against: &'a str,
    /// Player 2's first word: shared letters alone.
    pub first: bool,
    /// The anagram bonus.
    pub anagram_bonus: u32,
    /// Which runs count as vertical words.
    pub vertical: Vertical,
    /// How many placements to keep, best first.
    pub k: usize,
}

/// Every placement on `grid` for `q`, best first, at most `q.k`, leaving
/// out words `allowed` refuses.
pub fn placements(
    words: &CountedWords,
    grid: &Grid,
    lexicon: &Lexicon,
    q: &Query<'_>,
    allowed: &dyn Fn(&str) -> bool,
) -> Vec<Placement> {
    let Query {
        against,
        first,
        anagram_bonus,
        vertical,
        k,
    } = *q;
    let width = grid.width();
    let table = grid.vertical_table(lexicon, vertical);
    let theirs = count_letters(against);
    // (score, word, column), kept as the best `k` allowed.
    let mut best: Vec<(u32, u32, usize)> = Vec::new();
    let worst = |best: &Vec<(u32, u32, usize)>| {
        if best.len() < k {
            None
        } else {
            best.last().map(|b| b.0)
        }
    };
    for i in 0..words.len() {
        let len = words.word_len(i);
        if len > width {
            continue;
        }
        let shares = common(words.counts(i), &theirs);
        let anagram = anagram_bonus > 0 && len == against.len() && words.counts(i) == &theirs;
        let bonus = if anagram && !first { anagram_bonus } else { 0 };
        // The most this word can score anywhere: shares x the grid's tallest column.
        let cap = if first {
            shares
        } else {
            shares * (grid.rows() as u32 + 1)
        } + bonus;
        if worst(&best).is_some_and(|w| cap <= w) {
            continue;
        }
        let w = words.word(i).as_bytes();
        for column in 0..=width - len {
            let score = if first {
                shares
            } else {
                let longest = w
                    .iter()
                    .enumerate()
                    .map(|(j, &b)| u32::from(table[column + j][usize::from(b - b'a')]))
                    .max()
                    .unwrap_or(0);
                shares * longest + bonus
            };
            if worst(&best).is_some_and(|w| score <= w) {
                continue;
            }
            let word = words.word(i);
            if word == against && anagram || !allowed(word) {
                break;
            }
            let at = best.partition_point(|b| b.0 >= score);
            best.insert(at, (score, i as u32, column));
            best.truncate(k);
        }
    }
    best.into_iter()
        .map(|(score, i, column)| Placement {
            word: words.word(i as usize).to_string(),
            column,
            score,
        })
        .collect()
}

/// What a player sees when choosing a word (all of it public).
#[derive(Clone, Debug)]
pub struct Table {
    /// The player's grid.
    pub mine: Grid,
    /// The opponent's grid.
    pub theirs: Grid,
    /// The opponent's last word (the opening word before they have one).
    pub against: String,
    /// Player 2's first word: scored by shared letters alone.
    pub first: bool,
    /// Every word played.
    pub played: Vec<String>,
    /// The anagram bonus.
    pub anagram_bonus: u32,
    /// Which runs count as vertical words.
    pub vertical: Vertical,
}

impl Table {
    /// Whether rule 4 lets `word` be written: it holds no word played
    /// before (the opening word included).
    pub fn allows(&self, word: &str) -> bool {
        !self.played.iter().any(|x| word.contains(x.as_str()))
    }

    /// The table as `role` sees it in `view`.
    pub fn from_view(view: &View, role: usize) -> Option<Table> {
        let grid = |rows: &[String]| {
            if rows.is_empty() {
                Some(Grid::new(view.config.width))
            } else {
                Grid::parse(&rows.join("/"), Some(view.config.width)).ok()
            }
        };
        let mut played = vec![view.opening.clone()];
        for t in &view.log {
            if let crate::Turn::Word { word, .. } = t {
                played.push(word.clone());
            }
        }
        Some(Table {
            mine: grid(&view.grids[role])?,
            theirs: grid(&view.grids[1 - role])?,
            against: view.last[1 - role]
                .clone()
                .unwrap_or_else(|| view.opening.clone()),
            first: role == 1 && view.turns_taken[1] == 0,
            played,
            anagram_bonus: view.config.anagram_bonus,
            vertical: view.config.vertical,
        })
    }
}

/// The computer player for one seat.
pub struct Bot {
    level: Level,
    rng: GameRng,
    lexicon: Arc<Lexicon>,
    words: Arc<CountedWords>,
    /// Whether the second seat took player 1's side at the pie.
    swapped: bool,
    /// The opponent's last word and whether to challenge it, judged once.
    against: Option<(String, bool)>,
}

impl Bot {
    /// A bot at `level` for a table with `config`.
    pub fn new(
        config: &Config,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Bot, ConfigError> {
        config.check()?;
        Ok(Bot {
            level,
            rng: GameRng::from_seed(seed),
            lexicon: resources.lexicon(&config.lexicon)?,
            words: resources.counted_words(&config.lexicon, config.width)?,
            swapped: false,
            against: None,
        })
    }

    /// The word and column this bot would play at `table`.
    pub fn choose_word(&mut self, table: &Table) -> Option<Placement> {
        let allowed = |w: &str| table.allows(w);
        let k = match self.level {
            Level::Easy => 200,
            Level::Medium => 1,
            Level::Hard => 8,
            Level::Best => 24,
        };
        let place =
            |grid: &Grid, against: &str, first: bool, k: usize, allowed: &dyn Fn(&str) -> bool| {
                let q = Query {
                    against,
                    first,
                    anagram_bonus: table.anagram_bonus,
                    vertical: table.vertical,
                    k,
                };
                placements(&self.words, grid, &self.lexicon, &q, allowed)
            };
        let mut found = place(&table.mine, &table.against, table.first, k, &allowed);
        if found.is_empty() {
            // Nothing scores: any word that fits.
            found = place(&table.mine, "", true, 1, &allowed);
        }
        match self.level {
            Level::Easy => {
                let n = found.len();
                (n > 0).then(|| found.swap_remove(self.rng.below(n)))
            }
            Level::Medium => found.into_iter().next(),
            Level::Hard | Level::Best => {
                let mut best: Option<(i64, Placement)> = None;
                for p in found {
                    let allowed = |w: &str| allowed(w) && !w.contains(p.word.as_str());
                    let reply = place(&table.theirs, &p.word, false, 1, &allowed)
                        .first()
                        .map_or(0, |r| r.score);
                    let value = i64::from(p.score) - i64::from(reply);
                    if best.as_ref().is_none_or(|(v, _)| value > *v) {
                        best = Some((value, p));
                    }
                }
                best.map(|(_, p)| p)
            }
        }
    }

    /// Whether to challenge the opponent's last word `word`: judged once
    /// per word (when it was written, if this bot was shown it).
    fn challenge(&mut self, word: Option<&str>) -> bool {
        let Some(word) = word else {
            return false;
        };
        match &self.against {
            Some((w, verdict)) if w == word => *verdict,
            _ => self.judge(word),
        }
    }

    /// Judges the opponent's new word and remembers the verdict.
    fn judge(&mut self, word: &str) -> bool {
        let fake = !self.lexicon.contains(word);
        let verdict = fake && (self.level != Level::Easy || self.rng.chance(0.5));
        self.against = Some((word.to_string(), verdict));
        verdict
    }
}

impl Agent<TwinGrids> for Bot {
    fn observe(&mut self, seat: Seat, events: &[Turn]) {
        for e in events {
            match e {
                Turn::Pie { swap } => self.swapped = *swap,
                Turn::Word {
                    player,
                    word,
                    challenged: None,
                    ..
                } if *player != seat.0 ^ usize::from(self.swapped) => {
                    self.judge(word);
                }
                _ => {}
            }
        }
    }

    fn choose(&mut self, ctx: &AgentContext<'_, TwinGrids>) -> Option<Action> {
        let view: &View = ctx.view;
        let role = view.role?;
        let their_last = view.last[1 - role].as_deref();
        match view.phase {
            "open" => Some(Action::Open {
                column: (view.config.width - view.opening.len()) / 2,
                // Even the sides: the edge's worth to the side behind.
                to: usize::from(PLAYER_ONE_EDGE > 0),
                points: (PLAYER_ONE_EDGE.unsigned_abs() as u32).min(view.config.max_opening_points),
            }),
            "pie" => Some(Action::Pie {
                swap: view.scores[0] + PLAYER_ONE_EDGE > view.scores[1],
            }),
            "last_challenge" => Some(if view.can_challenge && self.challenge(their_last) {
                Action::Challenge
            } else {
                Action::Accept
            }),
            "turn" => {
                if view.can_challenge && self.challenge(their_last) {
                    return Some(Action::Challenge);
                }
                let table = Table::from_view(view, role)?;
                let p = self.choose_word(&table)?;
                Some(Action::Play {
                    word: p.word,
                    column: p.column,
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::{events_seen_by, Actor, Game, Match, Viewer};

    /// An Easy bot lets half of the fake words stand: which half is
    /// decided once per word, when the word is written, so asking it
    /// again and again for the same turn gets the same answer.
    #[test]
    fn a_bot_judges_the_opponents_word_once() {
        let res = Resources::embedded();
        let config = Config::default();
        let mut m = Match::<TwinGrids>::new(config.clone(), 8, &res).unwrap();
        let seat = |s| Actor::Seat(Seat(s));
        m.apply(
            seat(0),
            Action::Open {
                column: 0,
                to: 0,
                points: 0,
            },
        )
        .unwrap();
        m.apply(seat(1), Action::Pie { swap: false }).unwrap();
        m.apply(
            seat(1),
            Action::Play {
                word: "qzxv".into(),
                column: 0,
            },
        )
        .unwrap();
        let mut answers = std::collections::BTreeSet::new();
        for bot_seed in 0..8 {
            let mut bot = Bot::new(&config, Level::Easy, bot_seed, &res).unwrap();
            for step in m.history() {
                let seen = events_seen_by::<TwinGrids>(step, Viewer::Seat(Seat(0)));
                bot.observe(Seat(0), &seen);
            }
            let view = m.state().view(Viewer::Seat(Seat(0)));
            let legal = m.state().legal_actions(Seat(0));
            let asked: Vec<bool> = (0..12)
                .map(|_| {
                    let ctx = AgentContext {
                        seat: Seat(0),
                        view: &view,
                        legal: legal.as_deref(),
                        budget: parlor_core::Budget::UNLIMITED,
                    };
                    bot.choose(&ctx) == Some(Action::Challenge)
                })
                .collect();
            assert!(
                asked.iter().all(|&a| a == asked[0]),
                "seed {bot_seed}: {asked:?}"
            );
            answers.insert(asked[0]);
        }
        assert_eq!(answers.len(), 2, "some Easy bots challenge, some do not");
    }
}
