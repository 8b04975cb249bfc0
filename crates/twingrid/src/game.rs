//! The game as hosts see it: what each viewer sees, the settings a table
//! is made with, and [`TwinGrids`] as a [`parlor_core::Game`].

use crate::grid::TurnScore;
use crate::turns::{Action, Config, Error, Phase, Turn, TwinGrids};
use crate::{bot, grid};
use parlor_core::{
    Actor, Agent, ConfigError, Game, GameInfo, HelpError, Level, LexiconStamp, Needs, Outcome,
    Resources, Seat, Seed, Setting, SettingKind, SettingOption, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

/// What a viewer sees: everything (Twin Grids has no hidden information).
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The viewer's seat, if a player.
    pub seat: Option<usize>,
    /// The viewer's role (0: player 1), if a player.
    pub role: Option<usize>,
    /// The rules.
    pub config: Config,
    /// `draw`, `open`, `pie`, `turn`, `last_challenge` or `over`.
    pub phase: &'static str,
    /// The seat playing each role.
    pub seat_of: [usize; 2],
    /// The role to act now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_play: Option<usize>,
    /// The opening word (empty until drawn).
    pub opening: String,
    /// The grids by role, rows as text (`.` empty).
    pub grids: [Vec<String>; 2],
    /// Scores by role.
    pub scores: [i64; 2],
    /// Turns taken by role.
    pub turns_taken: [usize; 2],
    /// Each role's last word.
    pub last: [Option<String>; 2],
    /// Whether the last word may still be challenged.
    pub can_challenge: bool,
    /// The word that may be challenged, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challengeable: Option<String>,
    /// The seat that left the game (a forfeit), if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<usize>,
    /// Every turn.
    pub log: Vec<Turn>,
}

/// The helper's query: a word in the asking seat's next row, from
/// `column` (from 0).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The word (1 to the grid's width letters a-z).
    pub word: String,
    /// Its first cell's column, from 0.
    pub column: usize,
}

impl parlor_core::Query for Placement {
    const EXAMPLE: &'static str = r#"{"word": "cat", "column": 0}"#;
}

/// The helper's answer: how the placement would score against the word
/// it is scored against now, broken down (the vertical words, which the
/// dictionary decides), and rule 4's refusal if any.
#[derive(Clone, Debug, Serialize)]
pub struct PlacementScore {
    /// The word, lowercase.
    pub word: String,
    /// Its first column.
    pub column: usize,
    /// The row it would be written in (from 0).
    pub row: usize,
    /// The word it is scored against.
    pub against: String,
    /// Whether it is player 2's first word (scored by shared letters alone).
    pub first: bool,
    /// The score, broken down.
    pub score: TurnScore,
    /// Why rule 4 would refuse it, if it would.
    pub refusal: Option<String>,
}

impl Game for TwinGrids {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Turn;
    type Error = Error;
    type Query = Placement;
    type Answer = PlacementScore;

    const INFO: GameInfo = GameInfo {
        name: "twingrid",
        title: "Twin Grids",
        min_seats: 2,
        max_seats: 2,
    };

    fn new(config: &Config, seed: Seed, resources: &Resources) -> Result<Self, ConfigError> {
        TwinGrids::create(config, seed, resources)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn needs(config: &Config) -> Needs {
        Needs::seats(2).word_list("words", &config.lexicon)
    }

    fn settings() -> Vec<Setting> {
        vec![
            Setting {
                field: "width",
                label: "Width",
                help: "cells in a row of each grid",
                kind: SettingKind::Integer {
                    min: 3,
                    max: grid::MAX_WIDTH as i64,
                    optional: false,
                },
            },
            Setting {
                field: "turns",
                label: "Turns",
                help: "turns each player takes, the opening word included",
                kind: SettingKind::Integer {
                    min: 2,
                    max: 30,
                    optional: false,
                },
            },
            Setting {
                field: "anagram_bonus",
                label: "Anagram bonus",
                help: "points for an anagram of the opponent's last word",
                kind: SettingKind::Integer {
                    min: 0,
                    max: 1000,
                    optional: false,
                },
            },
            Setting {
                field: "challenges",
                label: "Challenges",
                help: "words may be challenged, and so bluffed",
                kind: SettingKind::Bool,
            },
            Setting {
                field: "vertical",
                label: "Vertical words",
                help: "which runs down a column count as words: every run ending in the new row, or only the whole column (as in a crossword)",
                kind: SettingKind::Choice {
                    options: vec![
                        SettingOption::text("every_run", "every run ending in the new row"),
                        SettingOption::text("whole_column", "only the whole column (crossword)"),
                    ],
                },
            },
            Setting {
                field: "lexicon",
                label: "Dictionary",
                help: "the words allowed, and the opening word's source",
                kind: SettingKind::WordList { role: "words" },
            },
        ]
    }

    fn presets() -> Vec<parlor_core::Preset> {
        use parlor_core::Preset;
        vec![
            Preset::new(
                "standard",
                "Standard",
                "grids nine cells wide, eight turns each, challenges on",
            )
            .set("width", 9)
            .set("turns", 8)
            .set("challenges", true),
            Preset::new(
                "short",
                "Short",
                "grids seven cells wide and five turns each: a quick game",
            )
            .set("width", 7)
            .set("turns", 5)
            .set("challenges", true),
            Preset::new(
                "long",
                "Long",
                "grids twelve cells wide and twelve turns each: room for long words",
            )
            .set("width", 12)
            .set("turns", 12)
            .set("challenges", true),
        ]
    }

    fn how_to_play() -> &'static str {
        "Each player writes words in their own grid, one row a turn. \
         A word scores the letters it shares with the opponent's last word, times the longest word \
         read downwards in your grid through it. The opener chooses where the first word goes; \
         the other player then chooses a side. The higher score after the last turn wins."
    }

    /// The game is the opening, the pie, and at most two actions a turn
    /// (a challenge and a word), plus the last challenge.
    fn action_bound(&self) -> usize {
        2 + 4 * self.config.turns + 2
    }

    fn seats(&self) -> usize {
        2
    }

    /// Twin Grids has no hidden chance beyond the opening word, which
    /// everyone sees the moment it is drawn; still, whoever picked the
    /// seed would pick the opening: the host draws it.
    fn hidden_chance(_: &Config) -> bool {
        true
    }

    fn to_act(&self) -> ToAct {
        match self.phase {
            Phase::Draw => ToAct::Chance,
            Phase::Open => ToAct::One(Seat(self.seat_of[0])),
            Phase::Pie => ToAct::One(Seat(self.seat_of[1])),
            Phase::Turn(r) | Phase::LastChallenge(r) => ToAct::One(Seat(self.seat_of[r])),
            Phase::Over => ToAct::Over,
        }
    }

    fn legal_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        if self.to_act() != ToAct::One(seat) {
            return Some(Vec::new());
        }
        match self.phase {
            Phase::Open => Some(
                (0..=self.config.width - self.opening.len())
                    .flat_map(|c| [(c, 0), (c, 1)])
                    .map(|(column, to)| Action::Open {
                        column,
                        to,
                        points: 0,
                    })
                    .collect(),
            ),
            Phase::Pie => Some(vec![
                Action::Pie { swap: false },
                Action::Pie { swap: true },
            ]),
            Phase::LastChallenge(_) => Some(vec![Action::Challenge, Action::Accept]),
            // Words are typed: their list would be the dictionary.
            Phase::Turn(_) => None,
            _ => Some(Vec::new()),
        }
    }

    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Turn>, Error> {
        if self.is_over() {
            return Err(Error::Over);
        }
        let before = self.log.len();
        if let (Actor::Referee, Action::Forfeit { seat }) = (actor, &action) {
            if *seat > 1 {
                return Err(Error::Illegal(format!("there is no seat {seat}")));
            }
            self.forfeited = Some(*seat);
            self.phase = Phase::Over;
            return Ok(Vec::new());
        }
        let seat = match actor {
            Actor::Seat(s) if s.0 < 2 => s.0,
            _ => {
                return Err(Error::NotNow(
                    "only the players act; the referee removes a player".into(),
                ))
            }
        };
        if self.to_act() != ToAct::One(Seat(seat)) {
            return Err(Error::NotNow("it is not your turn".into()));
        }
        match (&self.phase, action) {
            (Phase::Open, Action::Open { column, to, points }) => self.open(column, to, points)?,
            (Phase::Pie, Action::Pie { swap }) => self.pie(swap),
            (Phase::Turn(r), Action::Play { word, column }) => {
                let r = *r;
                self.play(r, &word, column)?
            }
            (Phase::Turn(r) | Phase::LastChallenge(r), Action::Challenge) => {
                if !self.config.challenges {
                    return Err(Error::Illegal("challenges are off at this table".into()));
                }
                let r = *r;
                let word = self.challengeable;
                self.challenge(r)?;
                // The challenge changes the word's entry in the log instead
                // of adding one: the event is that entry, now with its verdict.
                if let Some(entry) = word.and_then(|i| self.log.get(i)) {
                    let mut events = vec![entry.clone()];
                    events.extend_from_slice(&self.log[before..]);
                    return Ok(events);
                }
            }
            (Phase::LastChallenge(r), Action::Accept) => {
                // An entry of its own, so that the move list and the end
                // say who let the last word stand.
                self.log.push(Turn::Accepted { player: *r });
                self.challengeable = None;
                self.phase = Phase::Over;
            }
            (Phase::Open, _) => {
                return Err(Error::NotNow(
                    "first place the opening word and give its points".into(),
                ))
            }
            (Phase::Pie, _) => {
                return Err(Error::NotNow(
                    "first choose your side (the pie rule)".into(),
                ))
            }
            (Phase::LastChallenge(_), _) => {
                return Err(Error::NotNow(
                    "the game is over but for a challenge of the last word: challenge or accept"
                        .into(),
                ))
            }
            _ => return Err(Error::NotNow("that is not a move now".into())),
        }
        Ok(self.log[before..].to_vec())
    }

    fn resolve_chance(&mut self) -> Vec<Turn> {
        if self.phase == Phase::Draw {
            self.draw_opening();
        }
        Vec::new()
    }

    fn view(&self, viewer: Viewer) -> View {
        let seat = match viewer {
            Viewer::Seat(s) if s.0 < 2 => Some(s.0),
            _ => None,
        };
        let grid = |r: usize| -> Vec<String> {
            self.grids[r]
                .cells()
                .iter()
                .map(|row| row.iter().map(|c| c.map_or('.', char::from)).collect())
                .collect()
        };
        View {
            seat,
            role: seat.map(|s| self.role_of(s)),
            config: self.config.clone(),
            phase: match self.phase {
                Phase::Draw => "draw",
                Phase::Open => "open",
                Phase::Pie => "pie",
                Phase::Turn(_) => "turn",
                Phase::LastChallenge(_) => "last_challenge",
                Phase::Over => "over",
            },
            seat_of: self.seat_of,
            to_play: match self.phase {
                Phase::Turn(r) | Phase::LastChallenge(r) => Some(r),
                Phase::Open => Some(0),
                Phase::Pie => Some(1),
                _ => None,
            },
            opening: self.opening.clone(),
            grids: [grid(0), grid(1)],
            scores: self.scores,
            turns_taken: self.taken,
            last: self.last.clone(),
            can_challenge: self.challengeable.is_some(),
            challengeable: self.challengeable.and_then(|i| match &self.log[i] {
                Turn::Word { word, .. } => Some(word.clone()),
                _ => None,
            }),
            left: self.forfeited,
            log: self.log.clone(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let by_seat: Vec<i64> = (0..2).map(|s| self.scores[self.role_of(s)]).collect();
        if let Some(f) = self.forfeited {
            return Some(Outcome {
                ranking: vec![vec![Seat(1 - f)], vec![Seat(f)]],
                scores: Some(by_seat),
            });
        }
        Some(Outcome::from_scores(by_seat))
    }

    /// How a placement would score, for a player choosing one (see
    /// [`Placement`]). It does not say whether the word itself is in the
    /// dictionary (that is what a challenge is for).
    fn assist(
        &self,
        viewer: Viewer,
        query: &Placement,
        _budget: &parlor_core::Budget,
    ) -> Result<PlacementScore, HelpError> {
        let Viewer::Seat(Seat(seat)) = viewer else {
            return Err(HelpError::Closed(
                "only a player asks how a placement would score".into(),
            ));
        };
        if seat > 1 {
            return Err(HelpError::Closed(format!("there is no seat {seat}")));
        }
        let width = self.config.width;
        let word = &query.word;
        if word.is_empty() || word.len() > width || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(HelpError::BadQuery(format!(
                "word: 1 to {width} letters a-z"
            )));
        }
        let word = word.to_ascii_lowercase();
        if query.column.saturating_add(word.len()) > width {
            return Err(HelpError::BadQuery(format!(
                "column: from 0, with {word:?} fitting in {width} cells"
            )));
        }
        let role = self.role_of(seat);
        let (score, first) = self.placement_score(role, &word, query.column);
        Ok(PlacementScore {
            against: self.against(role).to_string(),
            row: self.grids[role].rows(),
            column: query.column,
            first,
            refusal: self.refusal(&word),
            word,
            score,
        })
    }

    /// The pie rule may make the second seat player 1: each seat is named
    /// by the role it plays now.
    fn seat_labels(&self) -> Option<Vec<String>> {
        Some(
            (0..2)
                .map(|s| format!("player {}", self.role_of(s) + 1))
                .collect(),
        )
    }

    fn seats_change_sides() -> bool {
        true
    }

    fn forfeit(&self, seat: Seat) -> Option<Action> {
        (seat.0 < 2 && !self.is_over()).then_some(Action::Forfeit { seat: seat.0 })
    }

    fn lexicons(&self) -> Vec<LexiconStamp> {
        vec![self.stamp.clone()]
    }

    fn agent(
        config: &Config,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Box<dyn Agent<Self>>, ConfigError> {
        Ok(Box::new(bot::Bot::new(config, level, seed, resources)?))
    }
}
