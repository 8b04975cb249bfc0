//! Sprouts at a parlor table: [`Sprouts`] implements [`parlor_core::Game`].
//!
//! Two seats alternate, seat 0 first; an action is one move in WGOSA
//! notation (a JSON string, `"1(4)2"`); everything is public. Under normal
//! play the last player to move wins, under misère the last player to move
//! loses.

use crate::canon::{canonical_reduced, labelled_key};
use crate::drawing::route::Drawing;
use crate::drawing::stroke::{self, StrokeError};
use crate::drawing::{Line, Picture, Pt};
use crate::moves::successors;
use crate::position::{Position, PositionTextError};
use crate::wgosa::{describe, resolve, NotationError, Record, RuleError, WgosaMove};
use crate::words::in_words;
use parlor_core::{
    Actor, Agent, ConfigError, ErrorKind, Game, GameError, GameInfo, GameRng, HelpError, Level,
    Needs, Outcome, Resources, Seat, Seed, Setting, SettingKind, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

/// The most starting spots a table may have.
pub const MAX_SPOTS: u32 = 32;

/// The rules of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Starting spots, 1 to [`MAX_SPOTS`].
    pub spots: u32,
    /// Misère: the last player to move loses.
    pub misere: bool,
    /// A game to go on from: a WGOSA record whose header matches `spots`
    /// and `misere` (`4+ 1(5)2 3(6)4`); its moves are the table's first
    /// moves. `None` (or empty): a new game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
}

/// The longest `start` record accepted, in characters: a game from 32
/// spots has at most 95 moves, each a few characters.
pub const MAX_START_LEN: usize = 4000;

impl Default for Config {
    fn default() -> Self {
        Config {
            spots: 3,
            misere: false,
            start: None,
        }
    }
}

/// One move: WGOSA move text (`"1(4)2"`, `"1(10)1[3,4]"`, `"6(16@2)14"`),
/// or a line drawn on the paper (`{"curve": [[x, y], ...]}`, optionally
/// with the `"move"` it is meant to be, which is then checked). A move
/// that no WGOSA text singles out (none is known, but the notation is not
/// proved complete) is listed as `=` and the position it leads to, and such
/// text is accepted too. `"resign"` gives the game up (the seat to move, or
/// the referee on its behalf: [`Game::forfeit`]); it is never listed.
///
/// A drawn line decides the move by where it runs: see
/// [`crate::drawing::stroke`]. A move given as text gets a line found for
/// it ([`crate::drawing::route`]), so every move has one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "ActionForm", into = "ActionForm")]
pub struct Action {
    text: String,
    curve: Option<Vec<Pt>>,
}

/// How an action is written in JSON: a string, or a drawn line.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum ActionForm {
    Written(String),
    Drawn {
        curve: Vec<Pt>,
        #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
}

impl From<ActionForm> for Action {
    fn from(form: ActionForm) -> Action {
        match form {
            ActionForm::Written(text) => Action { text, curve: None },
            ActionForm::Drawn { curve, text } => Action {
                text: text.unwrap_or_default(),
                curve: Some(curve),
            },
        }
    }
}

impl From<Action> for ActionForm {
    fn from(a: Action) -> ActionForm {
        match a.curve {
            None => ActionForm::Written(a.text),
            Some(curve) => ActionForm::Drawn {
                curve,
                text: (!a.text.is_empty()).then_some(a.text),
            },
        }
    }
}

impl Action {
    /// The action for a written move.
    pub fn new(text: impl Into<String>) -> Action {
        Action {
            text: text.into(),
            curve: None,
        }
    }

    /// A line drawn on the paper, from where it starts to where it ends.
    pub fn drawn(curve: Vec<Pt>) -> Action {
        Action {
            text: String::new(),
            curve: Some(curve),
        }
    }

    /// A drawn line that claims to be the move `text`.
    pub fn drawn_as(curve: Vec<Pt>, text: impl Into<String>) -> Action {
        Action {
            text: text.into(),
            curve: Some(curve),
        }
    }

    /// The move as written (empty for a drawn line that names none).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line drawn, if the move came as one.
    pub fn curve(&self) -> Option<&[Pt]> {
        self.curve.as_deref()
    }
}

/// What happened: a move, as written in the record, and the position after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// `seat` moved.
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move in its shortest WGOSA form.
        #[serde(rename = "move")]
        text: String,
        /// The position after it, in the card notation.
        position: String,
        /// The move in words ("joined 1 to 2 with new spot 4"), for a
        /// reader who does not read the notation.
        words: String,
    },
    /// `seat` gave the game up.
    Resigned {
        /// Who resigned.
        seat: Seat,
    },
}

/// What every viewer sees: the whole table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Starting spots.
    pub spots: u32,
    /// Misère play.
    pub misere: bool,
    /// The position in the card notation.
    pub position: String,
    /// The number the next new spot gets.
    pub next_spot: u32,
    /// Lives left on the table (each move uses one).
    pub lives: usize,
    /// The moves so far, in WGOSA notation.
    pub moves: Vec<String>,
    /// Each move in words, beside `moves` ("drew a loop at 1 with new spot
    /// 4, enclosing spot 2"): what a line encloses is judged here, not by
    /// the page.
    pub words: Vec<String>,
    /// Every spot on the table and the lines it may still take (0: dead),
    /// so a page tells live spots from dead without counting lines.
    pub spot_lives: std::collections::BTreeMap<u32, usize>,
    /// The position after each move, in the card notation (the page draws
    /// every move knowing what it must look like).
    pub positions: Vec<String>,
    /// The game record so far (`3+ 1(4)2 ...`).
    pub record: String,
    /// The paper: where every spot is and every line runs, as every
    /// viewer sees it.
    pub drawing: Picture,
    /// Each legal move as listed (one per class), in words ("joined 4 to
    /// 3 with new spot 6, enclosing spot 2"), for a player who chooses from
    /// the list rather than drawing.
    pub legal_words: std::collections::BTreeMap<String, String>,
    /// Who moves now, if the game is not over.
    pub to_move: Option<Seat>,
    /// The winner, once over.
    pub winner: Option<Seat>,
    /// Who resigned, if the game ended that way.
    pub resigned: Option<Seat>,
}

/// A refused action.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// Not this actor's turn.
    #[error("it is {expected}'s turn, not {got}'s")]
    NotYourTurn {
        /// Whose turn it is.
        expected: Seat,
        /// Who tried.
        got: Actor,
    },
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// Not move text.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A `=POSITION` action whose position cannot be read.
    #[error("{0}")]
    Position(#[from] PositionTextError),
    /// A move the rules refuse, or one that could mean several drawings.
    #[error("{text}: {error}")]
    Rule {
        /// The move as written.
        text: String,
        /// Why.
        error: RuleError,
    },
    /// A `=POSITION` action naming no position one move away.
    #[error("no legal move leads to {0}")]
    NotASuccessor(String),
    /// A drawn line that is not a move.
    #[error(transparent)]
    Stroke(#[from] StrokeError),
    /// A drawn line that is another move than the one it says it is.
    #[error("the line drawn is the move {drawn}, not {claimed}: send the line alone, or the move it draws")]
    NotTheDrawnMove {
        /// The move the action named.
        claimed: String,
        /// The move the line draws.
        drawn: String,
    },
}

impl GameError for Error {
    fn kind(&self) -> ErrorKind {
        match self {
            Error::NotYourTurn { .. } => ErrorKind::NotYourTurn,
            Error::Over => ErrorKind::GameOver,
            Error::Notation(_) | Error::Position(_) => ErrorKind::Malformed,
            Error::Rule {
                error: RuleError::Ambiguous(_),
                ..
            } => ErrorKind::Ambiguous,
            Error::Stroke(e) if e.is_malformed() => ErrorKind::Malformed,
            Error::Rule { .. }
            | Error::NotASuccessor(_)
            | Error::Stroke(_)
            | Error::NotTheDrawnMove { .. } => ErrorKind::Illegal,
        }
    }

    fn at(&self) -> Option<[i32; 2]> {
        match self {
            Error::Stroke(e) => e.at().map(|p| [p[0].round() as i32, p[1].round() as i32]),
            _ => None,
        }
    }
}

/// A Sprouts table.
#[derive(Clone, Debug, PartialEq)]
pub struct Sprouts {
    config: Config,
    position: Position,
    moves: Vec<String>,
    /// Each move in words.
    words: Vec<String>,
    /// The position after each move, as the view writes it.
    positions: Vec<String>,
    turn: Seat,
    over: bool,
    /// The seat that resigned, if one did.
    resigned: Option<Seat>,
    /// Each move's line as its player drew it: the new spot and the two
    /// lines (none for a move given as text).
    strokes: Vec<Option<(Pt, [Line; 2])>>,
    /// The paper, drawn as far as it has been needed: a stroke is read on
    /// it, a view shows it. Lines for moves given as text are found only
    /// then: finding one is the costly part, and a table's copies (a bot
    /// trying moves, a host checking one) never need them.
    paper: Kept<Drawing>,
    /// The legal moves of the position after this many moves, each with
    /// the position it leads to and its words: listed once for the seat's
    /// legal actions and every viewer's view.
    listed: Kept<Option<(usize, Listing)>>,
}

/// Legal moves as listed: each action, the position it leads to, its words.
type Listing = Vec<(Action, Position, String)>;

/// What a table works out only when asked, and keeps.
#[derive(Debug, Default)]
struct Kept<T>(std::sync::Mutex<T>);

impl<T> Kept<T> {
    fn new(value: T) -> Kept<T> {
        Kept(std::sync::Mutex::new(value))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, T> {
        // A panic while working it out leaves it as good as any: keep it.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<T: Clone> Clone for Kept<T> {
    fn clone(&self) -> Kept<T> {
        Kept::new(self.lock().clone())
    }
}

/// What is kept follows from the moves and strokes: tables equal in those
/// are equal, however much each has worked out.
impl<T> PartialEq for Kept<T> {
    fn eq(&self, _: &Kept<T>) -> bool {
        true
    }
}

impl Sprouts {
    /// Plays the moves of the record `text` (the config's `start`), after
    /// checking that it is this table's game: same spots, same convention,
    /// every move legal, and a move left to play.
    fn go_on_from(&mut self, text: &str) -> Result<(), ConfigError> {
        let bad = |why: String| ConfigError::new(format!("start: {why}"));
        if text.len() > MAX_START_LEN {
            return Err(bad(format!(
                "the record has {} characters; at most {MAX_START_LEN} are accepted",
                text.len()
            )));
        }
        let record = Record::parse(text).map_err(|e| bad(format!("not a WGOSA record: {e}")))?;
        if record.spots != self.config.spots || record.misere != self.config.misere {
            return Err(bad(format!(
                "the record is a game of {} spot{} at {} play ({}{}), this table {} at {} play: \
                 set spots and misère to match",
                record.spots,
                if record.spots == 1 { "" } else { "s" },
                if record.misere { "misère" } else { "normal" },
                record.spots,
                if record.misere { "-" } else { "+" },
                self.config.spots,
                if self.config.misere {
                    "misère"
                } else {
                    "normal"
                },
            )));
        }
        let replay = record.replay().map_err(|e| bad(e.to_string()))?;
        let last = replay.positions.last().expect("the start at least").clone();
        if !last.has_move() {
            return Err(bad(
                "the record's game is over (no move is left): there is nothing to play".into(),
            ));
        }
        self.moves = record.moves.iter().map(|m| m.to_string()).collect();
        self.words = replay
            .positions
            .windows(2)
            .zip(&record.moves)
            .map(|(w, wm)| words_for(&w[0], &w[1], Some(wm)))
            .collect();
        self.positions = replay.positions[1..]
            .iter()
            .map(|p| p.to_string())
            .collect();
        self.turn = Seat(self.moves.len() % 2);
        self.position = last;
        self.strokes = vec![None; self.moves.len()];
        Ok(())
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Each legal move once (equivalent results counted once), with its
    /// action text and the position it leads to.
    pub fn moves_with_text(&self) -> Vec<(Action, Position)> {
        self.with_listed(|listed| {
            listed
                .iter()
                .map(|(a, p, _)| (a.clone(), p.clone()))
                .collect()
        })
    }

    /// Calls `f` with the legal moves as listed (action, position after,
    /// words), listing them first if this position has not been.
    fn with_listed<R>(&self, f: impl FnOnce(&[(Action, Position, String)]) -> R) -> R {
        let mut kept = self.listed.lock();
        if kept.as_ref().is_none_or(|(at, _)| *at != self.moves.len()) {
            let listed = successors(&self.position)
                .into_iter()
                .map(|(mv, p, _)| {
                    let written = describe(&self.position, &mv);
                    let text = match &written {
                        Some(wm) => wm.to_string(),
                        None => format!("={p}"),
                    };
                    let words = words_for(&self.position, &p, written.as_ref());
                    (Action::new(text), p, words)
                })
                .collect();
            *kept = Some((self.moves.len(), listed));
        }
        f(&kept.as_ref().expect("listed just now").1)
    }

    fn winner(&self) -> Option<Seat> {
        if let Some(r) = self.resigned {
            return Some(Seat(1 - r.0));
        }
        // `turn` is the player who cannot move; under normal play the
        // other one (who moved last) wins.
        self.over.then(|| {
            if self.config.misere {
                self.turn
            } else {
                Seat(1 - self.turn.0)
            }
        })
    }

    /// The position `text` leads to, and the move as the record writes it.
    fn play(&self, text: &str) -> Result<(Position, String), Error> {
        if let Some(pos) = text.strip_prefix('=') {
            let target = Position::parse(pos.trim())?;
            // Same spots as the move must give (the old ones and the next
            // number), and equivalent to a legal successor.
            let mut expected = self.position.spots();
            expected.push(self.position.next_spot());
            if target.spots() != expected {
                return Err(Error::NotASuccessor(pos.trim().to_string()));
            }
            let key = canonical_reduced(&target);
            let Some((mv, p, _)) = successors(&self.position)
                .into_iter()
                .find(|(_, _, k)| *k == key)
            else {
                return Err(Error::NotASuccessor(pos.trim().to_string()));
            };
            let written = describe(&self.position, &mv)
                .filter(|_| labelled_key(&p) == labelled_key(&target))
                .map(|wm| wm.to_string())
                .unwrap_or_else(|| format!("={target}"));
            return Ok((target, written));
        }
        let wm: WgosaMove = text.parse()?;
        let (mv, p) = resolve(&self.position, &wm).map_err(|error| Error::Rule {
            text: text.trim().to_string(),
            error,
        })?;
        let written = describe(&self.position, &mv)
            .map(|w| w.to_string())
            .unwrap_or_else(|| wm.to_string());
        Ok((p, written))
    }

    /// The paper with every move drawn: a player's line as drawn, a line
    /// found for each move given as text.
    fn paper(&self) -> std::sync::MutexGuard<'_, Drawing> {
        let mut paper = self.paper.lock();
        while paper.moves.len() < self.moves.len() {
            let k = paper.moves.len();
            match &self.strokes[k] {
                Some((spot, lines)) => {
                    paper.add_drawn(&self.moves[k], lines[0].b, *spot, lines.clone())
                }
                None => {
                    let after = Position::parse(&self.positions[k]).ok();
                    paper.apply(&self.moves[k], after.as_ref());
                }
            }
        }
        paper
    }

    fn record(&self) -> String {
        let mut s = format!(
            "{}{}",
            self.config.spots,
            if self.config.misere { "-" } else { "+" }
        );
        for m in &self.moves {
            s.push(' ');
            s.push_str(m);
        }
        if let Some(w) = self.winner() {
            s.push_str(if w == Seat(0) { " I" } else { " II" });
        }
        s
    }
}

/// The helper's query: `{}` for the solver's verdict on every move of a
/// finished game, or `{"draw": "<position>"}` for a drawing of a position
/// in the card notation (`1,2,3;4/5`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SproutsQuery {
    /// A position to draw.
    #[serde(default)]
    pub draw: Option<String>,
}

impl parlor_core::Query for SproutsQuery {
    const EXAMPLE: &'static str = r#"{} (the verdicts) or {"draw": "1,2,3;4/5"}"#;
}

/// The helper's answer.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SproutsAnswer {
    /// The solver's verdict on every move.
    Verdicts(crate::analysis::Analysis),
    /// A position's drawing.
    Drawing {
        /// The picture.
        drawing: Picture,
    },
}

impl Game for Sprouts {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Error;
    type Query = SproutsQuery;
    type Answer = SproutsAnswer;

    const INFO: GameInfo = GameInfo {
        name: "sprouts",
        title: "Sprouts",
        min_seats: 2,
        max_seats: 2,
    };

    fn new(config: &Config, _seed: Seed, _: &Resources) -> Result<Self, ConfigError> {
        if !(1..=MAX_SPOTS).contains(&config.spots) {
            return Err(ConfigError::new(format!(
                "spots must be 1 to {MAX_SPOTS}, not {}",
                config.spots
            )));
        }
        let mut table = Sprouts {
            config: config.clone(),
            position: Position::start(config.spots),
            moves: Vec::new(),
            words: Vec::new(),
            positions: Vec::new(),
            turn: Seat(0),
            over: false,
            resigned: None,
            strokes: Vec::new(),
            paper: Kept::new(Drawing::new(config.spots, 0)),
            listed: Kept::default(),
        };
        if let Some(text) = config.start.as_deref().filter(|t| !t.trim().is_empty()) {
            table.go_on_from(text)?;
        }
        Ok(table)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn needs(_: &Config) -> Needs {
        Needs::seats(2)
    }

    fn settings() -> Vec<Setting> {
        vec![
            Setting {
                field: "spots",
                label: "Spots",
                help: "spots on the paper at the start",
                kind: SettingKind::Integer {
                    min: 1,
                    max: MAX_SPOTS as i64,
                    optional: false,
                },
            },
            Setting {
                field: "misere",
                label: "Misère",
                help: "the last player to move loses (normal play: wins)",
                kind: SettingKind::Bool,
            },
            Setting {
                field: "start",
                label: "Go on from",
                help: "a game record to continue (WGOSA, e.g. 3+ 1(4)2 2(5)3; spots and misère must match it); empty: a new game",
                kind: SettingKind::Text {
                    max_len: MAX_START_LEN,
                    optional: true,
                },
            },
        ]
    }

    fn presets() -> Vec<parlor_core::Preset> {
        use parlor_core::Preset;
        vec![
            Preset::new("quick", "Quick", "three spots: a game of a few minutes")
                .set("spots", 3)
                .set("misere", false),
            Preset::new(
                "classic",
                "Classic",
                "five spots, normal play: the last player to move wins",
            )
            .set("spots", 5)
            .set("misere", false),
            Preset::new(
                "misere",
                "Misère",
                "four spots, and the last player to move loses",
            )
            .set("spots", 4)
            .set("misere", true),
        ]
    }

    fn how_to_play() -> &'static str {
        "Start with a few spots. On your turn, draw a line from a spot to itself or to another spot \
         without crossing any line, and put a new spot on it; no spot may have more than three lines. \
         Whoever cannot move loses (in misère play, wins)."
    }

    /// Nothing is left to chance.
    fn hidden_chance(_: &Config) -> bool {
        false
    }

    /// Each move uses one of the 3n lives, and a move needs two: at most
    /// 3n - 1 moves, or fewer and a resignation.
    fn action_bound(&self) -> usize {
        3 * self.config.spots as usize
    }

    /// The seat to move may be resigned for (its player left).
    fn forfeit(&self, seat: Seat) -> Option<Action> {
        (!self.over && seat == self.turn).then(|| Action::new("resign"))
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_act(&self) -> ToAct {
        if self.over {
            ToAct::Over
        } else {
            ToAct::One(self.turn)
        }
    }

    fn legal_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        if self.over || seat != self.turn {
            return Some(Vec::new());
        }
        Some(self.with_listed(|listed| listed.iter().map(|(a, _, _)| a.clone()).collect()))
    }

    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, Error> {
        if self.over {
            return Err(Error::Over);
        }
        if action.curve().is_none() && action.text().trim() == "resign" {
            if actor != Actor::Referee && actor != Actor::Seat(self.turn) {
                return Err(Error::NotYourTurn {
                    expected: self.turn,
                    got: actor,
                });
            }
            let seat = self.turn;
            self.resigned = Some(seat);
            self.over = true;
            return Ok(vec![Event::Resigned { seat }]);
        }
        if actor != Actor::Seat(self.turn) {
            return Err(Error::NotYourTurn {
                expected: self.turn,
                got: actor,
            });
        }
        let (next, written, drawn) = match action.curve() {
            Some(curve) => {
                let drawn = {
                    let paper = self.paper();
                    stroke::read(
                        &paper.spots,
                        &paper.lines,
                        &self.position,
                        curve,
                        self.moves.len(),
                    )?
                };
                let written = describe(&self.position, &drawn.mv)
                    .map(|w| w.to_string())
                    .unwrap_or_else(|| format!("={}", drawn.after));
                let claimed = action.text().trim();
                if !claimed.is_empty() {
                    let (meant, _) = self.play(claimed)?;
                    if labelled_key(&meant) != labelled_key(&drawn.after) {
                        return Err(Error::NotTheDrawnMove {
                            claimed: claimed.to_string(),
                            drawn: written,
                        });
                    }
                }
                (drawn.after.clone(), written, Some(drawn))
            }
            None => {
                let (next, written) = self.play(action.text())?;
                (next, written, None)
            }
        };
        let seat = self.turn;
        let words = words_for(&self.position, &next, written.parse().ok().as_ref());
        self.position = next;
        self.strokes.push(drawn.map(|d| (d.spot, d.lines)));
        self.moves.push(written.clone());
        self.words.push(words.clone());
        self.positions.push(self.position.to_string());
        self.turn = Seat(1 - seat.0);
        self.over = !self.position.has_move();
        Ok(vec![Event::Moved {
            seat,
            text: written,
            position: self.position.to_string(),
            words,
        }])
    }

    fn view(&self, _: Viewer) -> View {
        View {
            spots: self.config.spots,
            misere: self.config.misere,
            position: self.position.to_string(),
            next_spot: self.position.next_spot(),
            lives: self.position.total_lives(),
            moves: self.moves.clone(),
            words: self.words.clone(),
            spot_lives: self.position.lives_map().into_iter().collect(),
            positions: self.positions.clone(),
            record: self.record(),
            drawing: self.paper().picture(),
            legal_words: if self.over {
                Default::default()
            } else {
                self.with_listed(|listed| {
                    listed
                        .iter()
                        .map(|(a, _, words)| (a.text().to_string(), words.clone()))
                        .collect()
                })
            },
            to_move: (!self.over).then_some(self.turn),
            resigned: self.resigned,
            winner: self.winner(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(|w| Outcome {
            ranking: vec![vec![w], vec![Seat(1 - w.0)]],
            scores: None,
        })
    }

    /// After the game, the solver's verdict on every move (see
    /// [`crate::analysis`]): who could win before each move and after it,
    /// and which moves gave a win away. Not during play: it would tell a
    /// player the winning move. At any time, a drawing of a pasted
    /// position (see [`SproutsQuery`]).
    fn assist(
        &self,
        _viewer: Viewer,
        query: &SproutsQuery,
        budget: &parlor_core::Budget,
    ) -> Result<SproutsAnswer, HelpError> {
        // One question about the game only: a host that keeps a finished
        // game's answer per query then runs the solver once per game.
        if let Some(text) = &query.draw {
            return draw_position(text).map(|drawing| SproutsAnswer::Drawing { drawing });
        }
        if !self.over {
            return Err(HelpError::Closed(
                "the solver's verdicts on the moves come once the game is over".into(),
            ));
        }
        let mut positions = vec![Position::start(self.config.spots)];
        for (i, text) in self.moves.iter().enumerate() {
            let here = positions.last().expect("the start at least");
            let next = match text.strip_prefix('=') {
                Some(t) => Position::parse(t).map_err(|e| e.to_string()),
                None => text
                    .parse::<WgosaMove>()
                    .map_err(|e| e.to_string())
                    .and_then(|wm| {
                        resolve(here, &wm)
                            .map(|(_, p)| p)
                            .map_err(|e| e.to_string())
                    }),
            };
            match next {
                Ok(p) => positions.push(p),
                Err(e) => {
                    return Err(HelpError::Stopped(format!(
                        "move {} ({text}) does not replay: {e}",
                        i + 1
                    )))
                }
            }
        }
        Ok(SproutsAnswer::Verdicts(crate::analysis::analyse_within(
            &positions,
            &self.moves,
            self.config.misere,
            budget,
        )))
    }

    fn agent(
        config: &Config,
        level: Level,
        seed: Seed,
        _: &Resources,
    ) -> Result<Box<dyn Agent<Self>>, ConfigError> {
        Ok(Box::new(crate::bot::Player::new(
            config.misere,
            level,
            GameRng::from_seed(seed),
        )))
    }
}

/// The longest position text [`Game::assist`] draws: a game from 32 spots
/// is well within it.
const MAX_DRAWN_POSITION: usize = 2000;

/// A position in the card notation laid out on the paper, for a reader
/// who pastes one: its spots and lines, as a view's `drawing`.
fn draw_position(text: &str) -> Result<Picture, HelpError> {
    if text.len() > MAX_DRAWN_POSITION {
        return Err(HelpError::BadQuery(format!(
            "draw: the position has {} characters; at most {MAX_DRAWN_POSITION} are drawn",
            text.len()
        )));
    }
    let position = Position::parse(text).map_err(|e| HelpError::BadQuery(format!("draw: {e}")))?;
    let drawing = Drawing::from_position(&position).ok_or_else(|| {
        HelpError::Stopped("draw: that position has no drawing this page can lay out".into())
    })?;
    Ok(drawing.picture())
}

/// A move in words, or (for a position that is not one move on, which a
/// legal move never gives) nothing to say.
fn words_for(before: &Position, after: &Position, written: Option<&WgosaMove>) -> String {
    in_words(before, after, written)
        .map(|w| w.to_string())
        .unwrap_or_default()
}

/// The conformance suite for `config`, with junk, misplaced and
/// out-of-turn moves as extra actions.
pub fn conformance_suite(config: Config) -> parlor_core::conformance::Suite<'static, Sprouts> {
    parlor_core::conformance::Suite::new(config).extra(0.2, |g: &Sprouts, rng: &mut GameRng| {
        const JUNK: &[&str] = &[
            "",
            "1",
            "1(2)",
            "(3)",
            "1(99)2",
            "1(4)1[2,3]",
            "1!(4)!2![9]",
            "=1;2",
            "=",
            "2(1)1",
            "1(4@9)2",
            "99999999(1)2",
        ];
        let actor = match rng.below(4) {
            0 => Actor::Referee,
            1 => Actor::Seat(Seat(1 - g.turn.0)),
            _ => Actor::Seat(g.turn),
        };
        let text = if rng.chance(0.5) {
            JUNK[rng.below(JUNK.len())].to_string()
        } else {
            // A plausible move between random spots, with the right number.
            let spots = g.position.spots();
            let f = spots[rng.below(spots.len())];
            let h = spots[rng.below(spots.len())];
            format!("{f}({}){h}", g.position.next_spot())
        };
        Some((actor, Action::new(text)))
    })
}
