//! The game: the cut, the deal, turns of plays, challenges, draws and dice,
//! and the end.
//!
//! [`WordChain`] implements [`parlor_core::Game`]. Each hand is hidden
//! from the other seats unless its holder displays it; the decks' order
//! never leaves the state. Shuffles, the cut and the dice come from the
//! state's own seeded generator ([`ToAct::Chance`]), so a record replays
//! exactly.

use crate::card::{Card, CardText, Letter, Played, Suit};
use crate::config::{Config, Discards};
use crate::pack::Pack;
use crate::scoring::{self, Breakdown, ScoreRules, Scoring};
use parlor_core::{
    Actor, ConfigError, Deadline, ErrorKind, GameError, GameRng, LexiconStamp, Resources, Seat,
    Seed, ToAct,
};
use parlor_lexicon::Lexicon;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The most cards a word may hold.
pub const MAX_WORD_CARDS: usize = 31;

/// One word of a play: its cards in order, the link card among them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WordCards {
    /// The cards in order, in the card notation (`["Ch", "*Ah", "Tc"]`);
    /// Multicards named.
    pub cards: Vec<CardText>,
    /// Where the link card stands (0, first, by default).
    #[serde(default)]
    pub link: usize,
    /// A two-word name (where the table allows them): how many cards the
    /// first word has (`VICE VERSA`: 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<usize>,
}

/// What a seat (or the referee) submits. JSON:
/// `{"type": "play", "words": [{"cards": ["Kh", "Nd", "Oc", "Ps"], "link": 0}], "consonants": 2}`,
/// `{"type": "five_cards", "consonants": 3}`, `{"type": "pass"}`,
/// `{"type": "accept"}`, `{"type": "challenge"}`, `{"type": "display"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play one word (two on a double with two dice). `consonants`: how
    /// many of the cards drawn afterwards come from the consonant deck
    /// (the rest from the vowel deck); left out, the same kinds as the
    /// cards played.
    Play {
        /// The word, or the two words of a double.
        words: Vec<WordCards>,
        /// Cards to draw from the consonant deck.
        #[serde(default)]
        consonants: Option<usize>,
    },
    /// Once a game, instead of playing: take five more cards (`consonants`
    /// of them from the consonant deck; left out, as balanced as the decks
    /// allow).
    FiveCards {
        /// Cards to draw from the consonant deck.
        #[serde(default)]
        consonants: Option<usize>,
    },
    /// Let the turn go by.
    Pass,
    /// Let the play on the table stand.
    Accept,
    /// Challenge the play on the table.
    Challenge,
    /// Lay one's hand face up for the rest of the game (each player's
    /// choice, rule 6).
    Display,
    /// Referee: the agreed time is up.
    TimeUp,
    /// Referee: this seat has left the game for good.
    Forfeit {
        /// The seat.
        seat: usize,
    },
}

/// A word as played and scored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WordPlayed {
    /// The word, lower case.
    pub word: String,
    /// The cards in order.
    pub cards: Vec<Played>,
    /// Where the link card stands.
    pub link: usize,
    /// The score, step by step.
    pub breakdown: Breakdown,
}

/// What happened. Cards a seat may not see are left out of what it is
/// shown ([`WordChain::event_view`](parlor_core::Game::event_view)).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The cut for dealer: each round's cards (a seat out of the running:
    /// `null`), then the dealer.
    Cut {
        /// The rounds of the cut.
        rounds: Vec<Vec<Option<Card>>>,
        /// The first dealer.
        dealer: usize,
    },
    /// A new deal by `dealer` (the second and later deals).
    NewDeal {
        /// Which deal, from 1.
        deal: u32,
        /// Its dealer.
        dealer: usize,
    },
    /// Cards dealt to a seat: shown to that seat (and to all once it
    /// displays its hand).
    Dealt {
        /// The seat.
        seat: usize,
        /// How many.
        count: usize,
        /// The cards, where the viewer may see them.
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<Card>>,
        /// Whether the seat's hand is displayed.
        shown: bool,
    },
    /// The first link card, face up.
    LinkTurned {
        /// The card.
        card: Card,
    },
    /// The dice thrown for a turn.
    Thrown {
        /// Whose turn.
        seat: usize,
        /// The dice.
        dice: Vec<u8>,
    },
    /// A play laid on the table (pending challenges where they are on).
    Played {
        /// Who played.
        seat: usize,
        /// The word or words.
        words: Vec<WordPlayed>,
        /// The play's score.
        score: u32,
        /// Whether it waits for the others to accept or challenge.
        pending: bool,
    },
    /// A seat let the play stand.
    Accepted {
        /// The seat.
        seat: usize,
    },
    /// A challenge and its result.
    Challenged {
        /// The challenger.
        by: usize,
        /// The player challenged.
        seat: usize,
        /// Whether the play was found invalid (the challenger gains its
        /// score) or valid (the challenger loses it, the player gains it
        /// again).
        upheld: bool,
        /// The words the dictionary does not hold.
        invalid: Vec<String>,
        /// The play's score.
        score: u32,
    },
    /// Points added (or taken away) to a seat's score.
    Scored {
        /// The seat.
        seat: usize,
        /// The points.
        points: i64,
        /// Why (`play`, `challenge`, `cards left`).
        reason: String,
    },
    /// The new link card.
    Link {
        /// The card.
        card: Card,
    },
    /// Cards drawn: how many from each deck, and the cards where the
    /// viewer may see them.
    Drew {
        /// The seat.
        seat: usize,
        /// From the consonant deck.
        consonants: usize,
        /// From the vowel deck.
        vowels: usize,
        /// The cards.
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<Card>>,
        /// Whether the seat's hand is displayed.
        shown: bool,
    },
    /// A deck ran out and its discards were shuffled back in.
    Reshuffled {
        /// `consonants` or `vowels`.
        deck: String,
        /// Cards shuffled back.
        count: usize,
    },
    /// A seat took its five extra cards.
    FiveCards {
        /// The seat.
        seat: usize,
    },
    /// A seat let its turn go by.
    Passed {
        /// The seat.
        seat: usize,
    },
    /// A seat laid its hand face up.
    Displayed {
        /// The seat.
        seat: usize,
        /// The hand.
        cards: Vec<Card>,
    },
    /// A deal ended.
    DealOver {
        /// Why.
        reason: String,
    },
    /// The game ended.
    GameOver {
        /// Why.
        reason: String,
    },
}

/// A refused action, with its kind.
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
    /// Cards that could not be read.
    #[error("{0}")]
    Malformed(String),
    /// A word the agreed dictionary does not hold (challenges off).
    #[error("{0:?} is not in the dictionary")]
    UnknownWord(String),
}

impl GameError for Error {
    fn kind(&self) -> ErrorKind {
        match self {
            Error::NotNow(_) => ErrorKind::NotYourTurn,
            Error::Over => ErrorKind::GameOver,
            Error::Illegal(_) => ErrorKind::Illegal,
            Error::Malformed(_) => ErrorKind::Malformed,
            Error::UnknownWord(_) => ErrorKind::UnknownWord,
        }
    }
}

/// A play on the table, waiting for the others.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pending {
    pub(crate) seat: usize,
    pub(crate) words: Vec<WordPlayed>,
    /// The cards it took from the hand, in the order given.
    pub(crate) used: Vec<Card>,
    pub(crate) draw: Option<usize>,
    pub(crate) score: u32,
    /// Seats that have let it stand.
    pub(crate) accepted: Vec<bool>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Phase {
    /// The cut (first deal) and the deal: chance.
    Deal,
    /// The turn's dice: chance.
    Throw,
    /// `turn` plays, passes or takes five cards.
    Turn,
    /// The others accept or challenge.
    Challenge(Pending),
    /// Over, and why.
    Over(String),
}

/// One entry of the game's public log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogEntry {
    /// A play and what became of it.
    Play {
        /// Who played.
        seat: usize,
        /// The words.
        words: Vec<WordPlayed>,
        /// Its score.
        score: u32,
        /// The dice, if thrown.
        #[serde(skip_serializing_if = "Option::is_none")]
        dice: Option<Vec<u8>>,
        /// Who challenged, and whether the challenge was upheld.
        #[serde(skip_serializing_if = "Option::is_none")]
        challenge: Option<(usize, bool)>,
    },
    /// A pass.
    Pass {
        /// Who.
        seat: usize,
    },
    /// Five extra cards.
    FiveCards {
        /// Who.
        seat: usize,
    },
}

/// A WORDCHAIN table.
#[derive(Clone, Debug)]
pub struct WordChain {
    pub(crate) config: Config,
    pub(crate) rules: ScoreRules,
    pub(crate) pack: Pack,
    pub(crate) lexicon: Arc<Lexicon>,
    pub(crate) index: Arc<crate::best::WordIndex>,
    pub(crate) stamp: LexiconStamp,
    pub(crate) rng: GameRng,
    /// The consonant deck (the only one with one deck), then the vowel
    /// deck; the top card is the last.
    pub(crate) decks: [Vec<Card>; 2],
    pub(crate) discards: [Vec<Card>; 2],
    pub(crate) hands: Vec<Vec<Card>>,
    pub(crate) displayed: Vec<bool>,
    pub(crate) five_used: Vec<bool>,
    pub(crate) forfeited: Vec<bool>,
    pub(crate) scores: Vec<i64>,
    pub(crate) link: Option<Card>,
    pub(crate) dealer: usize,
    pub(crate) turn: usize,
    pub(crate) deal: u32,
    pub(crate) turns: u32,
    pub(crate) passes: usize,
    pub(crate) dice: Option<Vec<u8>>,
    pub(crate) phase: Phase,
    pub(crate) words_played: BTreeSet<String>,
    pub(crate) log: Vec<LogEntry>,
}

impl PartialEq for WordChain {
    fn eq(&self, o: &Self) -> bool {
        self.config == o.config
            && self.rng == o.rng
            && self.decks == o.decks
            && self.discards == o.discards
            && self.hands == o.hands
            && self.displayed == o.displayed
            && self.five_used == o.five_used
            && self.forfeited == o.forfeited
            && self.scores == o.scores
            && self.link == o.link
            && self.dealer == o.dealer
            && self.turn == o.turn
            && self.deal == o.deal
            && self.turns == o.turns
            && self.passes == o.passes
            && self.dice == o.dice
            && self.phase == o.phase
            && self.log == o.log
    }
}

fn deck_name(d: usize) -> &'static str {
    if d == 0 {
        "consonants"
    } else {
        "vowels"
    }
}

impl WordChain {
    pub(crate) fn create(
        config: &Config,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Self, ConfigError> {
        let pack = config.check()?;
        let lexicon = resources.lexicon(&config.lexicon)?;
        let n = config.players;
        let index = crate::best::index_for(resources, &config.lexicon)?;
        Ok(WordChain {
            index,
            rules: config.score_rules(),
            stamp: LexiconStamp::of(&lexicon),
            lexicon,
            pack,
            rng: GameRng::from_seed(seed),
            decks: [Vec::new(), Vec::new()],
            discards: [Vec::new(), Vec::new()],
            hands: vec![Vec::new(); n],
            displayed: vec![false; n],
            five_used: vec![false; n],
            forfeited: vec![false; n],
            scores: vec![0; n],
            link: None,
            dealer: 0,
            turn: 0,
            deal: 0,
            turns: 0,
            passes: 0,
            dice: None,
            phase: Phase::Deal,
            words_played: BTreeSet::new(),
            log: Vec::new(),
            config: config.clone(),
        })
    }

    /// The scores by seat.
    pub fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// A seat's hand (for tests and hosts that may see it).
    pub fn hand(&self, seat: usize) -> &[Card] {
        &self.hands[seat]
    }

    /// The link card.
    pub fn link(&self) -> Option<Card> {
        self.link
    }

    /// Whose turn it is (or was last).
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The word list.
    pub fn lexicon(&self) -> &Arc<Lexicon> {
        &self.lexicon
    }

    /// Whether the dictionary holds `word` (a two-word name: both words).
    pub fn valid(&self, word: &str) -> bool {
        word.split(' ').all(|w| self.lexicon.contains(w))
    }

    /// The word list's index for [`crate::best::search`].
    pub fn word_index(&self) -> &crate::best::WordIndex {
        &self.index
    }

    /// The scoring rules.
    pub fn score_rules(&self) -> &ScoreRules {
        &self.rules
    }

    /// The public log of plays, passes and draws.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Cards left in the consonant and vowel decks.
    pub fn deck_sizes(&self) -> [usize; 2] {
        [self.decks[0].len(), self.decks[1].len()]
    }

    /// The most cards this turn's word may take from the hand, and whether
    /// the throw is a double (two words allowed), under dice.
    pub fn dice_limit(&self) -> Option<(usize, bool)> {
        let d = self.dice.as_ref()?;
        let sum: usize = d.iter().map(|&x| usize::from(x)).sum();
        Some((sum, d.len() == 2 && d[0] == d[1]))
    }

    pub(crate) fn to_act_now(&self) -> ToAct {
        match &self.phase {
            Phase::Deal | Phase::Throw => ToAct::Chance,
            Phase::Turn => ToAct::One(Seat(self.turn)),
            Phase::Challenge(p) => ToAct::Simultaneous(
                (0..self.config.players)
                    .filter(|&s| s != p.seat && !p.accepted[s])
                    .map(Seat)
                    .collect(),
            ),
            Phase::Over(_) => ToAct::Over,
        }
    }

    /// The deck a card goes back to.
    fn deck_of(&self, card: Card) -> usize {
        if self.config.one_deck || !card.in_vowel_deck() {
            0
        } else {
            1
        }
    }

    // ---- chance ----

    pub(crate) fn deal_now(&mut self) -> Vec<Event> {
        let n = self.config.players;
        let mut events = Vec::new();
        self.decks = [self.pack.consonants.clone(), self.pack.vowels.clone()];
        if self.config.one_deck {
            let v = std::mem::take(&mut self.decks[1]);
            self.decks[0].extend(v);
        }
        self.discards = [Vec::new(), Vec::new()];
        for h in &mut self.hands {
            h.clear();
        }
        self.link = None;
        for d in &mut self.decks {
            self.rng.shuffle(d);
        }
        if self.deal == 0 {
            let (rounds, dealer) = self.cut();
            self.dealer = dealer;
            events.push(Event::Cut { rounds, dealer });
            // The dealer shuffles again after the cut.
            for d in &mut self.decks {
                self.rng.shuffle(d);
            }
        } else {
            self.dealer = (self.dealer + 1) % n;
            events.push(Event::NewDeal {
                deal: self.deal + 1,
                dealer: self.dealer,
            });
        }
        self.deal += 1;
        let from_consonants = if self.config.one_deck {
            self.config.hand
        } else {
            self.config.consonants
        };
        // One card at a time to each player, from the dealer's left.
        for i in 0..self.config.hand {
            for k in 1..=n {
                let seat = (self.dealer + k) % n;
                let d = if i < from_consonants { 0 } else { 1 };
                if let Some(c) = self.decks[d].pop() {
                    self.hands[seat].push(c);
                }
            }
        }
        for seat in 0..n {
            self.hands[seat].sort();
            events.push(Event::Dealt {
                seat,
                count: self.hands[seat].len(),
                cards: Some(self.hands[seat].clone()),
                shown: self.displayed[seat],
            });
        }
        // The top consonant, face up (checked to exist by the config).
        let link = match self.decks[0].iter().rposition(|c| c.letter().is_some()) {
            Some(i) => self.decks[0].remove(i),
            None => self.decks[0].pop().unwrap_or(Card::Multi),
        };
        self.link = Some(link);
        events.push(Event::LinkTurned { card: link });
        self.turn = self.next_active(self.dealer);
        self.passes = 0;
        self.start_turn();
        events
    }

    /// Rule 3: each player cuts the consonant deck and shows a card; the
    /// card closest to A deals; equal cards (and, without seniority,
    /// Multicards) cut again.
    fn cut(&mut self) -> (Vec<Vec<Option<Card>>>, usize) {
        let n = self.config.players;
        let mut contenders: Vec<usize> = (0..n).collect();
        let mut rounds = Vec::new();
        let deck = self.decks[0].clone();
        for _ in 0..64 {
            let mut round = vec![None; n];
            for &s in &contenders {
                round[s] = Some(deck[self.rng.below(deck.len())]);
            }
            // Lower is better: a Multicard is top with seniority and
            // cuts again without it.
            let rank = |c: Card| -> Option<(usize, usize)> {
                match c {
                    Card::Multi if self.config.seniority => Some((0, 0)),
                    Card::Multi => None,
                    Card::Letter(l, s) => Some((
                        1 + l.index(),
                        if self.config.seniority { s.index() } else { 0 },
                    )),
                }
            };
            let ranked: Vec<(usize, Option<(usize, usize)>)> = contenders
                .iter()
                .map(|&s| (s, round[s].and_then(rank)))
                .collect();
            rounds.push(round);
            let best = ranked.iter().filter_map(|(_, r)| *r).min();
            let Some(best) = best else { continue };
            let tied: Vec<usize> = ranked
                .iter()
                .filter(|(_, r)| *r == Some(best))
                .map(|(s, _)| *s)
                .collect();
            if tied.len() == 1 {
                return (rounds, tied[0]);
            }
            contenders = tied;
        }
        // Never in practice: sixty-four tied rounds. The first contender deals.
        let first = contenders[0];
        (rounds, first)
    }

    fn start_turn(&mut self) {
        self.dice = None;
        self.phase = if self.config.dice > 0 {
            Phase::Throw
        } else {
            Phase::Turn
        };
    }

    pub(crate) fn throw(&mut self) -> Vec<Event> {
        let dice: Vec<u8> = (0..self.config.dice)
            .map(|_| 1 + self.rng.below(6) as u8)
            .collect();
        self.dice = Some(dice.clone());
        self.phase = Phase::Turn;
        vec![Event::Thrown {
            seat: self.turn,
            dice,
        }]
    }

    // ---- the turn ----

    /// Checks a play of `seat`'s against the rules, and scores it: the
    /// words as they would be played, the cards they take from the hand,
    /// and the hand left. `judge` refuses words the dictionary does not
    /// hold (a table without challenges).
    #[allow(clippy::type_complexity)]
    pub(crate) fn check_play(
        &self,
        seat: usize,
        words: &[WordCards],
        judge: bool,
    ) -> Result<(Vec<WordPlayed>, Vec<Card>, Vec<Card>), Error> {
        let illegal = |m: String| Err(Error::Illegal(m));
        let link = self
            .link
            .ok_or_else(|| Error::Illegal("there is no link card".into()))?;
        match (words.len(), self.dice_limit()) {
            (1, _) => {}
            (2, Some((_, true))) => {}
            (2, _) => return illegal("two words only on a double with two dice".into()),
            (n, _) => return illegal(format!("a play is one word (two on a double), not {n}")),
        }
        let mut hand = self.hands[seat].clone();
        let mut used = Vec::new();
        let mut played = Vec::new();
        for (w, word) in words.iter().enumerate() {
            let which = if words.len() == 2 {
                format!("word {}: ", w + 1)
            } else {
                String::new()
            };
            let len = word.cards.len();
            if !(2..=MAX_WORD_CARDS).contains(&len) {
                return illegal(format!(
                    "{which}a word is the link card and 1 to {} cards from the hand, not {len} cards",
                    MAX_WORD_CARDS - 1
                ));
            }
            if word.link >= len {
                return illegal(format!(
                    "{which}the link card's place {} is past the word's {len} cards",
                    word.link
                ));
            }
            let mut cards = Vec::with_capacity(len);
            for (i, t) in word.cards.iter().enumerate() {
                let p = t.played().ok_or_else(|| {
                    Error::Malformed(format!(
                        "{which}card {} is a Multicard: name its letter and suit (*Eh)",
                        i + 1
                    ))
                })?;
                if i == word.link {
                    if t.card() != link {
                        return illegal(format!(
                            "{which}card {} must be the link card {link}, not {t}",
                            i + 1
                        ));
                    }
                } else {
                    let c = t.card();
                    let Some(k) = hand.iter().position(|&h| h == c) else {
                        return illegal(format!("{which}you hold no {c} for card {}", i + 1));
                    };
                    hand.remove(k);
                    used.push(c);
                }
                cards.push(p);
            }
            let from_hand = len - 1;
            if let Some((sum, double)) = self.dice_limit() {
                let d = self.dice.as_ref().map(|d| usize::from(d[0])).unwrap_or(0);
                let limit = if words.len() == 2 && double { d } else { sum };
                if from_hand > limit {
                    return illegal(format!(
                        "{which}the throw allows {limit} cards from the hand (the link card not counted), not {from_hand}"
                    ));
                }
            }
            let mut text: String = cards.iter().map(|c| c.letter.lower()).collect();
            if let Some(at) = word.space {
                if !self.config.two_word_names {
                    return illegal(format!(
                        "{which}two-word names are not agreed at this table"
                    ));
                }
                if at == 0 || at >= len {
                    return illegal(format!(
                        "{which}a two-word name has a space between two of its {len} cards, not after {at}"
                    ));
                }
                text.insert(at, ' ');
            }
            if self.config.once_only
                && (self.words_played.contains(&text)
                    || played.iter().any(|p: &WordPlayed| p.word == text))
            {
                return illegal(format!(
                    "{which}{text:?} has been played already (each word once)"
                ));
            }
            if judge && !self.valid(&text) {
                return Err(Error::UnknownWord(text));
            }
            let breakdown = scoring::score(&cards, word.link, hand.len(), &self.rules);
            played.push(WordPlayed {
                word: text,
                cards,
                link: word.link,
                breakdown,
            });
        }
        Ok((played, used, hand))
    }

    /// Checks a play and lays it on the table.
    pub(crate) fn play(
        &mut self,
        seat: usize,
        words: Vec<WordCards>,
        draw: Option<usize>,
    ) -> Result<Vec<Event>, Error> {
        let (played, used, hand) = self.check_play(seat, &words, !self.config.challenges)?;
        let n = self.config.players;
        let score = played.iter().map(|p| p.breakdown.score).sum();
        self.hands[seat] = hand;
        let pending = Pending {
            seat,
            words: played.clone(),
            used,
            draw,
            score,
            accepted: vec![false; n],
        };
        let mut events = vec![Event::Played {
            seat,
            words: played,
            score,
            pending: self.config.challenges,
        }];
        if self.config.challenges {
            let mut p = pending;
            for (s, a) in p.accepted.iter_mut().enumerate() {
                // A seat that has left never challenges.
                *a = s == seat || self.forfeited[s];
            }
            if p.accepted.iter().all(|&a| a) {
                events.extend(self.settle(p, None));
            } else {
                self.phase = Phase::Challenge(p);
            }
        } else {
            events.extend(self.settle(pending, None));
        }
        Ok(events)
    }

    /// The play stands (no challenge, or one that failed: `failed_by`).
    fn settle(&mut self, p: Pending, failed_by: Option<usize>) -> Vec<Event> {
        let mut events = Vec::new();
        let score = i64::from(p.score);
        self.add(&mut events, p.seat, score, "play");
        if let Some(by) = failed_by {
            if self.rules.scoring == Scoring::Standard {
                self.add(&mut events, by, -score, "challenge failed");
                self.add(&mut events, p.seat, score, "challenge failed");
            }
        }
        // Every card of the play but the last word's last card, and the
        // old link card, are discarded (the link may itself end the word).
        let last_word = &p.words[p.words.len() - 1];
        let last_is_link = last_word.link == last_word.cards.len() - 1;
        let new_link = last_word.cards[last_word.cards.len() - 1].card;
        let mut gone = p.used.clone();
        if !last_is_link {
            // The old link card goes with the word, unless it ends it
            // (then it stays the link).
            gone.extend(self.link);
            if let Some(k) = gone.iter().rposition(|&c| c == new_link) {
                gone.remove(k);
            }
            self.link = Some(new_link);
            events.push(Event::Link { card: new_link });
        }
        for c in gone {
            let d = self.deck_of(c);
            self.discards[d].push(c);
        }
        for w in &p.words {
            self.words_played.insert(w.word.clone());
        }
        self.log.push(LogEntry::Play {
            seat: p.seat,
            words: p.words.clone(),
            score: p.score,
            dice: self.dice.clone(),
            challenge: failed_by.map(|b| (b, false)),
        });
        let n = p.used.len();
        let from_consonants = p
            .draw
            .unwrap_or_else(|| p.used.iter().filter(|&&c| self.deck_of(c) == 0).count());
        events.extend(self.draw(p.seat, n, Some(from_consonants)));
        self.passes = 0;
        events.extend(self.end_turn(true));
        events
    }

    fn add(&mut self, events: &mut Vec<Event>, seat: usize, points: i64, reason: &str) {
        self.scores[seat] += points;
        events.push(Event::Scored {
            seat,
            points,
            reason: reason.to_string(),
        });
    }

    /// The challenge: the first challenger settles the play.
    pub(crate) fn challenge(&mut self, by: usize) -> Vec<Event> {
        let Phase::Challenge(p) = std::mem::replace(&mut self.phase, Phase::Turn) else {
            return Vec::new();
        };
        let invalid: Vec<String> = p
            .words
            .iter()
            .filter(|w| !self.valid(&w.word))
            .map(|w| w.word.clone())
            .collect();
        let upheld = !invalid.is_empty();
        let mut events = vec![Event::Challenged {
            by,
            seat: p.seat,
            upheld,
            invalid,
            score: p.score,
        }];
        if upheld {
            // The word is taken back: the cards return to the hand, the
            // link stays, the challenger gains the score.
            self.add(&mut events, by, i64::from(p.score), "challenge upheld");
            self.hands[p.seat].extend(p.used.iter().copied());
            self.hands[p.seat].sort();
            self.log.push(LogEntry::Play {
                seat: p.seat,
                words: p.words,
                score: 0,
                dice: self.dice.clone(),
                challenge: Some((by, true)),
            });
            self.passes = 0;
            events.extend(self.end_turn(true));
        } else {
            events.extend(self.settle(p, Some(by)));
        }
        events
    }

    pub(crate) fn accept(&mut self, seat: usize) -> Vec<Event> {
        let mut events = vec![Event::Accepted { seat }];
        let Phase::Challenge(p) = &mut self.phase else {
            return events;
        };
        p.accepted[seat] = true;
        if p.accepted.iter().all(|&a| a) {
            let Phase::Challenge(p) = std::mem::replace(&mut self.phase, Phase::Turn) else {
                return events;
            };
            events.extend(self.settle(p, None));
        }
        events
    }

    /// Draws `n` cards for `seat`, `consonants` of them from the consonant
    /// deck where it has them (the rest from the other), reshuffling
    /// discards into an empty deck where the table plays so.
    pub(crate) fn draw(&mut self, seat: usize, n: usize, consonants: Option<usize>) -> Vec<Event> {
        let mut events = Vec::new();
        if n == 0 {
            return events;
        }
        let want_c = if self.config.one_deck {
            n
        } else {
            consonants.unwrap_or(n / 2 + n % 2).min(n)
        };
        let mut got = Vec::new();
        let mut from = [0usize; 2];
        for (d, k) in [(0, want_c), (1, n - want_c)] {
            for _ in 0..k {
                if let Some(c) = self
                    .take(d, &mut events)
                    .or_else(|| self.take(1 - d, &mut events))
                {
                    from[if self.config.one_deck || !c.in_vowel_deck() {
                        0
                    } else {
                        1
                    }] += 1;
                    got.push(c);
                }
            }
        }
        if got.is_empty() {
            return events;
        }
        self.hands[seat].extend(got.iter().copied());
        self.hands[seat].sort();
        got.sort();
        events.push(Event::Drew {
            seat,
            consonants: from[0],
            vowels: from[1],
            cards: Some(got),
            shown: self.displayed[seat],
        });
        events
    }

    fn take(&mut self, d: usize, events: &mut Vec<Event>) -> Option<Card> {
        if self.decks[d].is_empty()
            && self.config.discards == Discards::Reshuffle
            && !self.discards[d].is_empty()
        {
            let mut back = std::mem::take(&mut self.discards[d]);
            self.rng.shuffle(&mut back);
            events.push(Event::Reshuffled {
                deck: deck_name(d).into(),
                count: back.len(),
            });
            self.decks[d] = back;
        }
        self.decks[d].pop()
    }

    pub(crate) fn pass(&mut self, seat: usize) -> Vec<Event> {
        self.passes += 1;
        self.log.push(LogEntry::Pass { seat });
        let mut events = vec![Event::Passed { seat }];
        events.extend(self.end_turn(false));
        events
    }

    pub(crate) fn five_cards(
        &mut self,
        seat: usize,
        consonants: Option<usize>,
    ) -> Result<Vec<Event>, Error> {
        if self.five_used[seat] {
            return Err(Error::Illegal(
                "the five extra cards may be taken once a game, and you have taken them".into(),
            ));
        }
        if !self.can_draw() {
            return Err(Error::Illegal("the decks are empty".into()));
        }
        self.five_used[seat] = true;
        self.log.push(LogEntry::FiveCards { seat });
        let mut events = vec![Event::FiveCards { seat }];
        let consonants = consonants.or_else(|| Some(self.balanced_draw(seat, 5)));
        events.extend(self.draw(seat, 5, consonants));
        self.passes = 0;
        events.extend(self.end_turn(false));
        Ok(events)
    }

    /// Whether a card can still be drawn: from a deck, or from discards
    /// that will be shuffled back where the table plays so.
    pub(crate) fn can_draw(&self) -> bool {
        self.decks.iter().any(|d| !d.is_empty())
            || (self.config.discards == Discards::Reshuffle
                && self.discards.iter().any(|d| !d.is_empty()))
    }

    /// How many of `n` cards to take from the consonant deck to bring the
    /// hand nearest an even split.
    pub fn balanced_draw(&self, seat: usize, n: usize) -> usize {
        let v = self.hands[seat]
            .iter()
            .filter(|c| c.in_vowel_deck())
            .count();
        let c = self.hands[seat].len() - v;
        let total = v + c + n;
        (total / 2).saturating_sub(c).min(n)
    }

    pub(crate) fn display(&mut self, seat: usize) -> Result<Vec<Event>, Error> {
        if self.displayed[seat] {
            return Err(Error::Illegal("your hand is displayed already".into()));
        }
        self.displayed[seat] = true;
        Ok(vec![Event::Displayed {
            seat,
            cards: self.hands[seat].clone(),
        }])
    }

    /// After a turn: the deal's end, the target, the turn limit, or the
    /// next player.
    fn end_turn(&mut self, played: bool) -> Vec<Event> {
        let mut events = Vec::new();
        self.turns += 1;
        let n = self.config.players;
        if let Some(t) = self.config.target {
            if self.team_scores().iter().any(|&s| s >= i64::from(t)) {
                return self.game_over(format!("a score reached the target of {t}"));
            }
        }
        if self.turns >= self.config.turn_limit {
            return self.game_over(format!(
                "the agreed {} turns have been played",
                self.config.turn_limit
            ));
        }
        let out = played && !self.can_draw() && self.hands[self.turn].is_empty();
        let active = self.forfeited.iter().filter(|f| !**f).count();
        let stuck = if self.config.passes_end {
            self.passes >= active
        } else {
            !self.anyone_can_form()
        };
        if out || stuck {
            let reason = if out {
                format!(
                    "player {} used all their cards and the decks are empty",
                    self.turn + 1
                )
            } else if self.config.passes_end {
                "every player passed in a row (the house rule)".to_string()
            } else {
                "no player could form a word".to_string()
            };
            events.push(Event::DealOver {
                reason: reason.clone(),
            });
            if self.config.count_hand {
                for s in 0..n {
                    let left: i64 = self.hands[s].iter().map(|c| i64::from(c.value())).sum();
                    if left > 0 {
                        self.add(&mut events, s, -left, "cards left");
                    }
                }
            }
            if self.deal >= self.config.deals {
                events.extend(self.game_over(reason));
            } else {
                self.phase = Phase::Deal;
            }
            return events;
        }
        self.turn = self.next_active(self.turn);
        self.start_turn();
        events
    }

    /// Whether a player still in the game can form a word of the agreed
    /// dictionary from their hand on the link card: exactly, by the search
    /// of [`crate::best`] stopping at the first word (each word once where
    /// the table plays so). Under dice, a word may take what the best
    /// throw allows. A bluff is not a word, and the five cards a player
    /// may still take are not in their hand: when no hand can form a word,
    /// nobody can. One pass over the word index per hand at most.
    pub fn anyone_can_form(&self) -> bool {
        let Some(link) = self.link else {
            return false;
        };
        let limits = crate::best::Limits {
            max_from_hand: if self.config.dice > 0 {
                6 * usize::from(self.config.dice)
            } else {
                usize::MAX
            },
        };
        let allowed = |w: &str| !self.config.once_only || !self.words_played.contains(w);
        // The player to move first: the usual answer comes from them.
        let n = self.config.players;
        (1..=n)
            .map(|k| (self.turn + k) % n)
            .filter(|&s| !self.forfeited[s])
            .any(|s| crate::best::can_form(&self.index, &self.hands[s], link, limits, allowed))
    }

    /// The next seat after `seat`, to the left, still in the game.
    fn next_active(&self, seat: usize) -> usize {
        let n = self.config.players;
        (1..=n)
            .map(|k| (seat + k) % n)
            .find(|&s| !self.forfeited[s])
            .unwrap_or(seat)
    }

    pub(crate) fn game_over(&mut self, reason: String) -> Vec<Event> {
        self.phase = Phase::Over(reason.clone());
        vec![Event::GameOver { reason }]
    }

    /// The score of each seat's side (the seat's own without teams).
    pub fn team_scores(&self) -> Vec<i64> {
        let of = self.config.team_of();
        (0..self.config.players)
            .map(|s| {
                (0..self.config.players)
                    .filter(|&t| of[t] == of[s])
                    .map(|t| self.scores[t])
                    .sum()
            })
            .collect()
    }

    pub(crate) fn forfeit(&mut self, seat: usize) -> Result<Vec<Event>, Error> {
        if seat >= self.config.players || self.forfeited[seat] {
            return Err(Error::Illegal(format!("seat {seat} cannot forfeit")));
        }
        self.forfeited[seat] = true;
        let active = self.forfeited.iter().filter(|f| !**f).count();
        if active < 2 {
            return Ok(self.game_over(format!("player {} left the game", seat + 1)));
        }
        let mut events = Vec::new();
        match &mut self.phase {
            Phase::Challenge(p) if p.seat != seat => {
                p.accepted[seat] = true;
                if p.accepted.iter().all(|&a| a) {
                    let Phase::Challenge(p) = std::mem::replace(&mut self.phase, Phase::Turn)
                    else {
                        unreachable!()
                    };
                    events.extend(self.settle(p, None));
                }
            }
            Phase::Challenge(_) | Phase::Turn | Phase::Throw if self.turn == seat => {
                // The player on turn leaves: its play on the table stands
                // unscored; its turn goes by.
                if let Phase::Challenge(p) = std::mem::replace(&mut self.phase, Phase::Turn) {
                    self.hands[seat].extend(p.used);
                }
                events.extend(self.end_turn(false));
            }
            _ => {}
        }
        Ok(events)
    }

    pub(crate) fn check_seat(&self, actor: Actor) -> Result<usize, Error> {
        match actor {
            Actor::Seat(Seat(s)) if s < self.config.players => Ok(s),
            Actor::Seat(s) => Err(Error::NotNow(format!("there is no seat {}", s.0))),
            Actor::Referee => Err(Error::NotNow("the referee only ends the game".into())),
        }
    }

    /// The dice thrown this turn.
    pub fn dice(&self) -> Option<&[u8]> {
        self.dice.as_deref()
    }

    /// The config.
    pub fn rules_config(&self) -> &Config {
        &self.config
    }

    pub(crate) fn deadline_now(&self) -> Option<Deadline<Action>> {
        let m = self.config.minutes?;
        (!matches!(self.phase, Phase::Over(_))).then(|| Deadline {
            key: "game".into(),
            seconds: f64::from(m) * 60.0,
            action: Action::TimeUp,
        })
    }

    pub(crate) fn time_up(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if let Phase::Challenge(p) = std::mem::replace(&mut self.phase, Phase::Turn) {
            events.extend(self.settle(p, None));
        }
        if !matches!(self.phase, Phase::Over(_)) {
            events.extend(self.game_over("the agreed time is up".into()));
        }
        events
    }

    /// Whether the letter and suit are a legal naming (always: any).
    pub fn name_multicard(letter: Letter, suit: Suit) -> Played {
        Played::multi(letter, suit)
    }
}
