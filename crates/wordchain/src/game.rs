//! The game as hosts see it: [`WordChain`] as a [`parlor_core::Game`],
//! the settings a table is made with, and its agents.

use crate::turns::{Action, Error, Event, Phase, WordChain, WordPlayed};
use crate::{bot, config, view, Config, View, WordCards};
use parlor_core::{
    Actor, Agent, ConfigError, Deadline, Game, GameInfo, HelpError, Level, LexiconStamp, Needs,
    Outcome, Resources, Seat, Seed, Setting, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};

/// The helper's query: a play's words, as a play action has them
/// (`{"words": [{"cards": ["Kh", "Nd", "Oc", "Ps"], "link": 0}]}`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayQuery {
    /// The play's words.
    pub words: Vec<WordCards>,
}

impl parlor_core::Query for PlayQuery {
    const EXAMPLE: &'static str = r#"{"words": [{"cards": ["Kh", "Nd", "Oc", "Ps"], "link": 0}]}"#;
}

/// The helper's answer: the words as the server would score them, or why
/// the play would be refused.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum PlayPreview {
    /// The play would stand (unless challenged).
    Scored {
        /// The play's score.
        score: u32,
        /// Each word with its breakdown.
        words: Vec<WordPlayed>,
    },
    /// The play would be refused.
    Refused {
        /// Why.
        refusal: String,
    },
}

impl Game for WordChain {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Event = Event;
    type Error = Error;
    type Query = PlayQuery;
    type Answer = PlayPreview;

    const INFO: GameInfo = GameInfo {
        name: "wordchain",
        title: "WORDCHAIN",
        min_seats: 2,
        max_seats: config::MAX_PLAYERS,
    };

    fn new(config: &Config, seed: Seed, resources: &Resources) -> Result<Self, ConfigError> {
        WordChain::create(config, seed, resources)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn needs(config: &Config) -> Needs {
        Needs::seats(config.players).word_list("words", &config.lexicon)
    }

    fn settings() -> Vec<Setting> {
        config::settings()
    }

    fn presets() -> Vec<parlor_core::Preset> {
        use parlor_core::Preset;
        vec![
            Preset::new(
                "standard",
                "Standard",
                "twelve cards each, card values with bonuses and penalties, challenges; first to 1000 wins",
            )
            .set("scoring", "standard")
            .set("hand", 12)
            .set("challenges", true)
            .set("target", 1000),
            Preset::new(
                "juniors",
                "Simple",
                "a point a card and no challenges: the juniors' game, to learn the chain",
            )
            .set("scoring", "simple")
            .set("hand", 12)
            .set("challenges", false)
            .set("target", 100),
            Preset::new(
                "dice",
                "With dice",
                "the standard game, and two dice limit the cards a word may take (a double: two words)",
            )
            .set("scoring", "standard")
            .set("hand", 12)
            .set("challenges", true)
            .set("dice", 2)
            .set("target", 1000),
        ]
    }

    fn how_to_play() -> &'static str {
        "Make words from the letter cards in your hand. Each word must begin with the last card of \
         the word before it (the link card), so the words form a chain. \
         Cards score their letter's value, with bonuses and penalties; the first to the target score wins."
    }

    /// Every turn is at most a throw, a play and the others' answers; each
    /// deal is one chance step; each seat displays once and leaves once.
    fn action_bound(&self) -> usize {
        let n = self.config.players;
        self.config.deals as usize + self.config.turn_limit as usize * (n + 2) + 2 * n + 2
    }

    fn seats(&self) -> usize {
        self.config.players
    }

    fn to_act(&self) -> ToAct {
        self.to_act_now()
    }

    /// The choices that can be listed: pass, the five cards, accept or
    /// challenge, display. Plays are not listed (a hand makes thousands,
    /// and the list would be the best words): the page spells them.
    fn legal_actions(&self, seat: Seat) -> Option<Vec<Action>> {
        let s = seat.0;
        if s >= self.config.players || matches!(self.phase, Phase::Over(_)) {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        match &self.phase {
            Phase::Turn if self.turn == s => {
                out.push(Action::Pass);
                if !self.five_used[s] && self.can_draw() {
                    out.push(Action::FiveCards { consonants: None });
                }
            }
            Phase::Challenge(p) if p.seat != s && !p.accepted[s] => {
                out.push(Action::Accept);
                out.push(Action::Challenge);
            }
            _ => {}
        }
        if !self.displayed[s] && !self.forfeited[s] {
            out.push(Action::Display);
        }
        Some(out)
    }

    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, Error> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(Error::Over);
        }
        match (actor, action) {
            (Actor::Referee, Action::TimeUp) => Ok(self.time_up()),
            (Actor::Referee, Action::Forfeit { seat }) => self.forfeit(seat),
            (Actor::Seat(_), Action::TimeUp | Action::Forfeit { .. }) => Err(Error::NotNow(
                "only the referee ends the game or removes a player".into(),
            )),
            (actor, action) => {
                let seat = self.check_seat(actor)?;
                if self.forfeited[seat] {
                    return Err(Error::NotNow("you have left this game".into()));
                }
                match (&self.phase, action) {
                    (_, Action::Display) => self.display(seat),
                    (Phase::Turn, Action::Play { words, consonants }) if self.turn == seat => {
                        self.play(seat, words, consonants)
                    }
                    (Phase::Turn, Action::Pass) if self.turn == seat => Ok(self.pass(seat)),
                    (Phase::Turn, Action::FiveCards { consonants }) if self.turn == seat => {
                        self.five_cards(seat, consonants)
                    }
                    (Phase::Challenge(p), Action::Accept)
                        if p.seat != seat && !p.accepted[seat] =>
                    {
                        Ok(self.accept(seat))
                    }
                    (Phase::Challenge(p), Action::Challenge)
                        if p.seat != seat && !p.accepted[seat] =>
                    {
                        Ok(self.challenge(seat))
                    }
                    (Phase::Challenge(p), _) if p.seat == seat => Err(Error::NotNow(
                        "your play waits for the others to accept or challenge it".into(),
                    )),
                    (Phase::Challenge(_), Action::Accept | Action::Challenge) => {
                        Err(Error::NotNow("you have let this play stand already".into()))
                    }
                    (Phase::Challenge(_), _) => Err(Error::NotNow(
                        "a play is on the table: accept it or challenge it first".into(),
                    )),
                    (Phase::Turn, Action::Accept | Action::Challenge) => Err(Error::NotNow(
                        "there is no play to accept or challenge".into(),
                    )),
                    (Phase::Turn, _) => Err(Error::NotNow(format!(
                        "it is player {}'s turn",
                        self.turn + 1
                    ))),
                    _ => Err(Error::NotNow("the cards or dice are not dealt yet".into())),
                }
            }
        }
    }

    fn resolve_chance(&mut self) -> Vec<Event> {
        match self.phase {
            Phase::Deal => self.deal_now(),
            Phase::Throw => self.throw(),
            _ => Vec::new(),
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        self.view_for(viewer)
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        Some(view::event_for(event, viewer))
    }

    fn outcome(&self) -> Option<Outcome> {
        if !matches!(self.phase, Phase::Over(_)) {
            return None;
        }
        // Sides by their score; sides with a player who left come last.
        let n = self.config.players;
        let of = self.config.team_of();
        let team = self.team_scores();
        let key = |s: usize| {
            let left = (0..n).any(|t| of[t] == of[s] && self.forfeited[t]);
            (left, std::cmp::Reverse(team[s]))
        };
        let mut seats: Vec<usize> = (0..n).collect();
        seats.sort_by_key(|&s| key(s));
        let mut ranking: Vec<Vec<Seat>> = Vec::new();
        for s in seats {
            match ranking.last_mut() {
                Some(place) if key(place[0].0) == key(s) => place.push(Seat(s)),
                _ => ranking.push(vec![Seat(s)]),
            }
        }
        Some(Outcome {
            ranking,
            scores: Some(self.scores.clone()),
        })
    }

    fn deadline(&self) -> Option<Deadline<Action>> {
        self.deadline_now()
    }

    fn forfeit(&self, seat: Seat) -> Option<Action> {
        (seat.0 < self.config.players
            && !self.forfeited[seat.0]
            && !matches!(self.phase, Phase::Over(_)))
        .then_some(Action::Forfeit { seat: seat.0 })
    }

    /// How a play would score, for the player to move building it (see
    /// [`PlayQuery`]). It never says whether a word is in the dictionary
    /// (that is what a challenge is for), but a table without challenges
    /// refuses an unknown word when it is played.
    fn assist(
        &self,
        viewer: Viewer,
        query: &PlayQuery,
        _budget: &parlor_core::Budget,
    ) -> Result<PlayPreview, HelpError> {
        let Viewer::Seat(Seat(seat)) = viewer else {
            return Err(HelpError::Closed(
                "only a player asks how a play would score".into(),
            ));
        };
        if seat >= self.config.players {
            return Err(HelpError::Closed(format!("there is no seat {seat}")));
        }
        if !matches!(self.phase, Phase::Turn) || self.turn != seat || self.forfeited[seat] {
            return Err(HelpError::Closed(
                "only the player to move asks how a play would score".into(),
            ));
        }
        Ok(match self.check_play(seat, &query.words, false) {
            Ok((played, _, _)) => PlayPreview::Scored {
                score: played.iter().map(|p| p.breakdown.score).sum(),
                words: played,
            },
            Err(e) => PlayPreview::Refused {
                refusal: e.to_string(),
            },
        })
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
