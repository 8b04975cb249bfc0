//! What each seat sees: its own hand, the displayed hands, the link card,
//! the deck sizes, the table's play, the scores and the log. Never another
//! seat's hidden cards, nor the order of the decks.

use crate::card::Card;
use crate::config::Config;
use crate::turns::{Event, LogEntry, Phase, WordChain, WordPlayed};
use parlor_core::Viewer;
use serde::Serialize;

/// One seat as others see it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// Cards in hand.
    pub cards: usize,
    /// The hand, where it is displayed (or the viewer's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// Whether the hand is displayed.
    pub displayed: bool,
    /// Whether it has taken its five extra cards.
    pub five_used: bool,
    /// Its score.
    pub score: i64,
    /// Whether it has left the game.
    pub left: bool,
}

/// The play on the table, waiting for the others.
#[derive(Clone, Debug, Serialize)]
pub struct PendingView {
    /// Who played it.
    pub seat: usize,
    /// The words.
    pub words: Vec<WordPlayed>,
    /// Its score.
    pub score: u32,
    /// The seats that have let it stand.
    pub accepted: Vec<usize>,
}

/// What one viewer sees.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The viewer's seat, if a player.
    pub seat: Option<usize>,
    /// The table's rules.
    pub config: Config,
    /// `deal`, `throw`, `turn`, `challenge` or `over`.
    pub phase: &'static str,
    /// Whose turn.
    pub turn: usize,
    /// The dealer of this deal.
    pub dealer: usize,
    /// Which deal, from 1.
    pub deal: u32,
    /// Turns played in all.
    pub turns: u32,
    /// When the game ends at this table, in words (`at 1000 points, or at
    /// the end of the deal`).
    pub ends: String,
    /// What a pass does at this table, in words, for the player about to
    /// pass.
    pub pass_rule: String,
    /// The link card.
    pub link: Option<Card>,
    /// The viewer's hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    /// Every seat.
    pub seats: Vec<SeatView>,
    /// Scores of each seat's side (its own without teams).
    pub team_scores: Vec<i64>,
    /// Cards left in the consonant and the vowel deck.
    pub decks: [usize; 2],
    /// Cards in the discard piles.
    pub discards: [usize; 2],
    /// The dice of this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<Vec<u8>>,
    /// Cards this turn's word may take from the hand, under dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_from_hand: Option<usize>,
    /// Whether this turn's throw is a double (two words allowed).
    pub double: bool,
    /// The play waiting for accepts or a challenge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<PendingView>,
    /// Every play, pass and draw so far.
    pub log: Vec<LogEntry>,
    /// Why the game ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
}

impl WordChain {
    pub(crate) fn view_for(&self, viewer: Viewer) -> View {
        let me = match viewer {
            Viewer::Seat(s) if s.0 < self.config.players => Some(s.0),
            _ => None,
        };
        let seats = (0..self.config.players)
            .map(|s| SeatView {
                cards: self.hands[s].len(),
                hand: (self.displayed[s] || me == Some(s)).then(|| self.hands[s].clone()),
                displayed: self.displayed[s],
                five_used: self.five_used[s],
                score: self.scores[s],
                left: self.forfeited[s],
            })
            .collect();
        let limit = self.dice_limit();
        View {
            seat: me,
            config: self.config.clone(),
            phase: match self.phase {
                Phase::Deal => "deal",
                Phase::Throw => "throw",
                Phase::Turn => "turn",
                Phase::Challenge(_) => "challenge",
                Phase::Over(_) => "over",
            },
            turn: self.turn,
            dealer: self.dealer,
            deal: self.deal,
            turns: self.turns,
            ends: self.ends(),
            pass_rule: self.pass_rule(),
            link: self.link,
            hand: me.map(|s| self.hands[s].clone()),
            seats,
            team_scores: self.team_scores(),
            decks: self.deck_sizes(),
            discards: [self.discards[0].len(), self.discards[1].len()],
            dice: self.dice.clone(),
            max_from_hand: limit.map(|(sum, _)| sum),
            double: limit.is_some_and(|(_, d)| d),
            pending: match &self.phase {
                Phase::Challenge(p) => Some(PendingView {
                    seat: p.seat,
                    words: p.words.clone(),
                    score: p.score,
                    accepted: (0..self.config.players)
                        .filter(|&s| p.accepted[s] && s != p.seat)
                        .collect(),
                }),
                _ => None,
            },
            log: self.log.clone(),
            over: match &self.phase {
                Phase::Over(r) => Some(r.clone()),
                _ => None,
            },
        }
    }
}

impl WordChain {
    /// The agreed end, in words: the target, the time, the deals (and the
    /// turn limit where the table agreed one other than the default, which
    /// is otherwise only a bound no game reaches).
    pub fn ends(&self) -> String {
        let c = &self.config;
        let mut ends = Vec::new();
        if let Some(t) = c.target {
            ends.push(format!("at {t} points"));
        }
        if let Some(m) = c.minutes {
            ends.push(format!("after {m} minute{}", if m == 1 { "" } else { "s" }));
        }
        if c.turn_limit != Config::default().turn_limit {
            ends.push(format!("after {} turns", c.turn_limit));
        }
        ends.push(if c.deals == 1 {
            "at the end of the deal".to_string()
        } else {
            format!("at the end of the last of {} deals", c.deals)
        });
        let last = ends.pop().unwrap_or_default();
        if ends.is_empty() {
            last
        } else {
            format!("{}, or {last}", ends.join(", "))
        }
    }

    /// What a pass does at this table, in words.
    pub fn pass_rule(&self) -> String {
        let what = "A pass lets your turn go: you keep your cards and draw none, and the link card stays for the next player.";
        if !self.config.passes_end {
            return format!(
                "{what} Passes do not end the deal: it ends when no player can form a word from their hand (the server checks every hand)."
            );
        }
        let active = self.forfeited.iter().filter(|f| !**f).count();
        let ends = if self.deal >= self.config.deals {
            "the deal, and the game"
        } else {
            "the deal"
        };
        let now = if self.passes + 1 >= active {
            format!(" Every other player has passed since the last play: your pass ends {ends}.")
        } else {
            String::new()
        };
        format!(
            "{what} House rule: a full round of passes (every player in a row) ends {ends}.{now}"
        )
    }
}

/// What `viewer` may see of `event`: cards dealt or drawn only by their
/// holder, unless the hand is displayed.
pub(crate) fn event_for(event: &Event, viewer: Viewer) -> Event {
    let sees = |seat: usize, shown: bool| shown || viewer == Viewer::Seat(parlor_core::Seat(seat));
    match event {
        Event::Dealt {
            seat, count, shown, ..
        } if !sees(*seat, *shown) => Event::Dealt {
            seat: *seat,
            count: *count,
            cards: None,
            shown: *shown,
        },
        Event::Drew {
            seat,
            consonants,
            vowels,
            shown,
            ..
        } if !sees(*seat, *shown) => Event::Drew {
            seat: *seat,
            consonants: *consonants,
            vowels: *vowels,
            cards: None,
            shown: *shown,
        },
        e => e.clone(),
    }
}
