//! Computer players.
//!
//! - **Easy** plays a random word from the lower-scoring half of what its
//!   hand can make, and notices a false word only half the time.
//! - **Medium** plays the highest-scoring word.
//! - **Hard** plays the best tactical value ([`crate::best`]): the score,
//!   less the link handed to the next player, the Multicards spent and the
//!   imbalance a redraw cannot mend; takes its five cards when its best
//!   word is poor.
//! - **Best** looks one turn ahead: for its best plays by tactical value
//!   and by score it estimates what the next player could score on the
//!   link each leaves, over three hands drawn from the cards it has not
//!   seen (the pack less its hand, the displayed hands, the link and the
//!   cards of plays that stood) or the next player's displayed hand, and
//!   weighs that instead of the link's face value; it goes for points alone
//!   when a play reaches the target, and draws a card more from the vowel
//!   deck while Multicards are unseen.
//!
//! Computer players never bluff; they challenge a word the dictionary
//! does not hold.
//!
//! A bot follows the game through what its seat is shown
//! ([`Agent::observe`]): the cards played since the pack was last gathered
//! (a new deal gathers it, a reshuffle brings a deck's played cards back)
//! and the cards a challenge sent back into a hand. The view alone cannot
//! tell it either: its log keeps the plays of every deal, and a hand's
//! taken-back cards are not shown again.

use crate::best::{self, Candidate, Limits, Play, WordIndex};
use crate::card::Card;
use crate::config::Config;
use crate::pack::Pack;
use crate::scoring::ScoreRules;
use crate::{Action, Event, LogEntry, View, WordCards, WordChain};
use parlor_core::{Agent, AgentContext, ConfigError, GameRng, Level, Resources, Seat, Seed};
use parlor_lexicon::Lexicon;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Hands of the next player Best draws from the unseen cards.
const LOOK_AHEAD_SAMPLES: usize = 3;

/// A computer player for one seat.
pub struct Bot {
    level: Level,
    rng: GameRng,
    lexicon: Arc<Lexicon>,
    index: Arc<WordIndex>,
    rules: ScoreRules,
    pack: Pack,
    one_deck: bool,
    seen: Seen,
}

/// What a seat has seen of the cards since the pack was last gathered.
#[derive(Default)]
struct Seen {
    /// Cards of plays that stood (the link card each found left out): in
    /// the discards, out of every hand and deck.
    gone: Vec<Card>,
    /// The last play laid down, by whom, with its cards from the hand:
    /// back in that hand if a challenge is upheld.
    last_play: Option<(usize, Vec<Card>)>,
    /// Cards known to be in a seat's hand (taken back after a challenge).
    held: Vec<Vec<Card>>,
}

impl Seen {
    fn take(cards: &mut Vec<Card>, c: Card) -> bool {
        match cards.iter().position(|x| *x == c) {
            Some(k) => {
                cards.swap_remove(k);
                true
            }
            None => false,
        }
    }

    fn observe(&mut self, event: &Event, one_deck: bool) {
        match event {
            Event::Cut { .. } | Event::NewDeal { .. } => *self = Seen::default(),
            Event::Played { seat, words, .. } => {
                let cards: Vec<Card> = words
                    .iter()
                    .flat_map(|w| {
                        w.cards
                            .iter()
                            .enumerate()
                            .filter(move |&(i, _)| i != w.link)
                            .map(|(_, c)| c.card)
                    })
                    .collect();
                if let Some(held) = self.held.get_mut(*seat) {
                    for &c in &cards {
                        Seen::take(held, c);
                    }
                }
                self.gone.extend(&cards);
                self.last_play = Some((*seat, cards));
            }
            Event::Challenged {
                seat, upheld: true, ..
            } => {
                if let Some((owner, cards)) = self.last_play.take().filter(|(s, _)| s == seat) {
                    if self.held.len() <= owner {
                        self.held.resize(owner + 1, Vec::new());
                    }
                    for c in cards {
                        if Seen::take(&mut self.gone, c) {
                            self.held[owner].push(c);
                        }
                    }
                }
            }
            Event::Reshuffled { deck, .. } => {
                let vowels = deck == "vowels";
                self.gone
                    .retain(|c| !one_deck && c.in_vowel_deck() != vowels);
            }
            _ => {}
        }
    }
}

/// The words played so far that stand (none a challenge took off), in
/// the order they were played: those a table where each word may be
/// played once refuses again.
pub fn standing_words(view: &View) -> impl Iterator<Item = &str> {
    view.log
        .iter()
        .filter_map(|e| match e {
            LogEntry::Play {
                words, challenge, ..
            } if challenge.is_none_or(|(_, up)| !up) => Some(words.iter().map(|w| w.word.as_str())),
            _ => None,
        })
        .flatten()
}

/// Every play the hand in `view` may make on its link card: the cards it
/// may take (a dice throw's limit) and, where each word may be played once,
/// none played before. `None` where the view shows no hand or no link.
pub fn search_view<'a>(
    index: &'a WordIndex,
    view: &View,
    rules: &ScoreRules,
) -> Option<best::Search<'a>> {
    let (Some(hand), Some(link)) = (&view.hand, view.link) else {
        return None;
    };
    let limits = Limits {
        max_from_hand: view.max_from_hand.unwrap_or(usize::MAX),
    };
    let mut found = best::search(index, hand, link, rules, limits);
    if view.config.once_only {
        let played: BTreeSet<&str> = standing_words(view).collect();
        found
            .candidates
            .retain(|c| !played.contains(index.word(c.word as usize)));
    }
    Some(found)
}

impl Bot {
    /// A bot at `level` for a table with `config`.
    pub fn new(
        config: &Config,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Bot, ConfigError> {
        let pack = config.check()?;
        let lexicon = resources.lexicon(&config.lexicon)?;
        Ok(Bot {
            index: best::index_for(resources, &config.lexicon)?,
            level,
            rng: GameRng::from_seed(seed),
            lexicon,
            rules: config.score_rules(),
            pack,
            one_deck: config.one_deck,
            seen: Seen::default(),
        })
    }

    /// The play this seat would make now, if any.
    pub fn choose_play(&mut self, view: &View, me: usize) -> Option<Play> {
        let index = Arc::clone(&self.index);
        let mut found = search_view(&index, view, &self.rules)?;
        let mut cands = std::mem::take(&mut found.candidates);
        if cands.is_empty() {
            return None;
        }
        let pick = |cands: &[Candidate], key: &dyn Fn(&Candidate) -> f64| -> Candidate {
            let mut bestc = cands[0];
            let mut bestk = key(&bestc);
            for c in &cands[1..] {
                let k = key(c);
                if k > bestk {
                    bestk = k;
                    bestc = *c;
                }
            }
            bestc
        };
        let chosen = match self.level {
            Level::Easy => {
                cands.sort_by_key(|c| c.score);
                let half = cands.len().div_ceil(2);
                cands[self.rng.below(half)]
            }
            Level::Medium => pick(&cands, &|c| f64::from(c.score) + c.tactical as f64 * 1e-6),
            Level::Hard => pick(&cands, &|c| c.tactical as f64 + f64::from(c.score) * 1e-6),
            Level::Best => {
                let reach = view.config.target.and_then(|t| {
                    let mine = view.team_scores[me];
                    cands
                        .iter()
                        .filter(|c| mine + i64::from(c.score) >= i64::from(t))
                        .max_by_key(|c| c.score)
                        .copied()
                });
                match reach {
                    Some(c) => c,
                    None => self.look_ahead(&found, &cands, view, me),
                }
            }
        };
        Some(found.play(&chosen))
    }

    /// Best's choice: the few best plays by tactical value and by score,
    /// each weighed by what the next player could score on the link it
    /// leaves, over hands drawn from the cards still unseen (or their
    /// displayed hand).
    fn look_ahead(
        &mut self,
        found: &best::Search<'_>,
        cands: &[Candidate],
        view: &View,
        me: usize,
    ) -> Candidate {
        let mut shortlist: Vec<Candidate> = Vec::new();
        let mut by = |key: &dyn Fn(&Candidate) -> (i64, i64), k: usize| {
            let mut c: Vec<Candidate> = cands.to_vec();
            let k = k.min(c.len());
            c.select_nth_unstable_by(k.saturating_sub(1), |a, b| key(b).cmp(&key(a)));
            for x in &c[..k] {
                if !shortlist.iter().any(|y| y.word == x.word) {
                    shortlist.push(*x);
                }
            }
        };
        by(&|c| (c.tactical, i64::from(c.score)), 8);
        by(&|c| (i64::from(c.score), c.tactical), 4);
        let n = view.seats.len();
        let next = (1..n)
            .map(|k| (me + k) % n)
            .find(|&s| !view.seats[s].left)
            .unwrap_or(me);
        let hands: Vec<Vec<Card>> = match &view.seats[next].hand {
            Some(h) if next != me => vec![h.clone()],
            _ => {
                let mut pool = self.unseen(view, me);
                // Cards a challenge sent back are in that hand for sure.
                let held = self.seen.held.get(next).cloned().unwrap_or_default();
                let size = view.seats[next]
                    .cards
                    .saturating_sub(held.len())
                    .min(pool.len());
                (0..LOOK_AHEAD_SAMPLES)
                    .map(|_| {
                        self.rng.shuffle(&mut pool);
                        let mut hand = held.clone();
                        hand.extend_from_slice(&pool[..size]);
                        hand
                    })
                    .collect()
            }
        };
        let mut best = shortlist[0];
        let mut best_value = f64::NEG_INFINITY;
        for c in shortlist {
            let play = found.play(&c);
            let Some(last) = play.cards.last() else {
                continue;
            };
            let their: f64 = hands
                .iter()
                .map(|h| {
                    let s = best::search(&self.index, h, last.card, &self.rules, Limits::default());
                    f64::from(s.candidates.iter().map(|c| c.score).max().unwrap_or(0))
                })
                .sum::<f64>()
                / hands.len().max(1) as f64;
            let gift = if c.last_multi {
                best::MULTICARD_LINK_GIFT
            } else {
                i64::from(c.last) + 1
            };
            // The tactical value less its flat guess at the link's worth
            // to the next player, less the estimate instead.
            let value = (c.tactical + gift) as f64 - their;
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// The cards this seat has not seen: the pack, less its hand, the
    /// displayed hands, the link card, the cards of plays that stood since
    /// the pack was last gathered and those known to be in other hands.
    pub(crate) fn unseen(&self, view: &View, me: usize) -> Vec<Card> {
        let mut pool: Vec<Card> = self
            .pack
            .consonants
            .iter()
            .chain(&self.pack.vowels)
            .copied()
            .collect();
        let mut remove = |c: Card| {
            if let Some(k) = pool.iter().position(|p| *p == c) {
                pool.swap_remove(k);
            }
        };
        for (s, seat) in view.seats.iter().enumerate() {
            if s != me {
                for &c in seat.hand.iter().flatten() {
                    remove(c);
                }
            }
        }
        for &c in view.hand.iter().flatten() {
            remove(c);
        }
        if let Some(l) = view.link {
            remove(l);
        }
        for &c in &self.seen.gone {
            remove(c);
        }
        for (s, held) in self.seen.held.iter().enumerate() {
            // A displayed hand is already out of the pool.
            if s != me && view.seats.get(s).is_some_and(|v| v.hand.is_none()) {
                for &c in held {
                    remove(c);
                }
            }
        }
        pool.sort();
        pool
    }

    /// How many cards to draw from the consonant deck after using `used`.
    fn draw_choice(&self, view: &View, me: usize, play: &Play) -> Option<usize> {
        let hand = view.hand.as_ref()?;
        let used: Vec<Card> = play
            .cards
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != play.link)
            .map(|(_, c)| c.card)
            .collect();
        let n = used.len();
        let mut left = hand.clone();
        for c in &used {
            if let Some(k) = left.iter().position(|h| h == c) {
                left.remove(k);
            }
        }
        let v = left.iter().filter(|c| c.in_vowel_deck()).count();
        let c = left.len() - v;
        // An even split, a card more from the vowel deck when it holds
        // unseen Multicards worth drawing for (Best).
        let total = left.len() + n;
        let mut want_c = (total / 2).saturating_sub(c).min(n);
        if self.level == Level::Best && want_c > 0 && self.unseen_multis(view, me) > 0 {
            want_c -= 1;
        }
        Some(want_c)
    }

    /// Multicards not in sight: the pack's, less those in this hand, the
    /// displayed hands and on the table.
    fn unseen_multis(&self, view: &View, me: usize) -> usize {
        let total = self
            .pack
            .consonants
            .iter()
            .chain(&self.pack.vowels)
            .filter(|c| **c == Card::Multi)
            .count();
        let seen = view
            .seats
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != me)
            .filter_map(|(_, s)| s.hand.as_ref())
            .chain(view.hand.as_ref())
            .flatten()
            .filter(|c| **c == Card::Multi)
            .count()
            + usize::from(view.link == Some(Card::Multi));
        total.saturating_sub(seen)
    }
}

impl Agent<WordChain> for Bot {
    fn observe(&mut self, _seat: Seat, events: &[Event]) {
        for e in events {
            self.seen.observe(e, self.one_deck);
        }
    }

    fn choose(&mut self, ctx: &AgentContext<'_, WordChain>) -> Option<Action> {
        let view = ctx.view;
        let me = ctx.seat.0;
        match view.phase {
            "challenge" => {
                let p = view.pending.as_ref()?;
                if p.seat == me || p.accepted.contains(&me) {
                    return None;
                }
                let false_word = p
                    .words
                    .iter()
                    .any(|w| !w.word.split(' ').all(|x| self.lexicon.contains(x)));
                let notices = self.level != Level::Easy || self.rng.chance(0.5);
                Some(if false_word && notices {
                    Action::Challenge
                } else {
                    Action::Accept
                })
            }
            "turn" if view.turn == me => {
                let play = self.choose_play(view, me);
                let decks = view.decks[0] + view.decks[1] >= 5;
                let five = !view.seats[me].five_used && decks;
                let poor = play.as_ref().is_none_or(|p| p.score < 15);
                match play {
                    Some(_) if five && poor && matches!(self.level, Level::Hard | Level::Best) => {
                        let left = view.hand.as_ref().map(Vec::len).unwrap_or(0);
                        let v = view
                            .hand
                            .as_ref()
                            .map(|h| h.iter().filter(|c| c.in_vowel_deck()).count())
                            .unwrap_or(0);
                        Some(Action::FiveCards {
                            consonants: Some(((left + 5) / 2).saturating_sub(left - v).min(5)),
                        })
                    }
                    Some(p) => Some(Action::Play {
                        consonants: self.draw_choice(view, me, &p),
                        words: vec![WordCards {
                            cards: p.cards.iter().map(|c| c.text()).collect(),
                            link: p.link,
                            space: None,
                        }],
                    }),
                    None if five => Some(Action::FiveCards { consonants: None }),
                    None => Some(Action::Pass),
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::{events_seen_by, Actor, Game, Match, ToAct, Viewer};

    /// After a new deal the pack is gathered and shuffled: a bot that
    /// follows the events counts the cards of the new deal only, where
    /// the view's log still lists the plays of the first.
    #[test]
    fn a_bot_counts_the_cards_of_this_deal_only() {
        let res = Resources::embedded();
        let config = Config {
            deals: 2,
            target: None,
            hand: 7,
            consonants: 4,
            passes_end: true,
            ..Config::default()
        };
        let mut m = Match::<WordChain>::new(config.clone(), 3, &res).unwrap();
        let mut bots: Vec<Bot> = (0..2)
            .map(|s| Bot::new(&config, Level::Medium, 10 + s, &res).unwrap())
            .collect();
        let show = |bots: &mut Vec<Bot>, step: &[Event]| {
            for (s, b) in bots.iter_mut().enumerate() {
                let seen = events_seen_by::<WordChain>(step, Viewer::Seat(Seat(s)));
                b.observe(Seat(s), &seen);
            }
        };
        for step in m.history().to_vec() {
            show(&mut bots, &step);
        }
        let mut plays_before = 0;
        for _ in 0..2_000 {
            let seat = match m.state().to_act() {
                ToAct::Over | ToAct::Chance => break,
                t => t.seats()[0],
            };
            let view = m.state().view(Viewer::Seat(seat));
            let legal = m.state().legal_actions(seat);
            let ctx = AgentContext {
                seat,
                view: &view,
                legal: legal.as_deref(),
                budget: parlor_core::Budget::UNLIMITED,
            };
            let action = bots[seat.0].choose(&ctx).unwrap_or(Action::Pass);
            let events = match m.apply(Actor::Seat(seat), action) {
                Ok(e) => e,
                Err(_) => m
                    .apply(Actor::Seat(seat), Action::Pass)
                    .or_else(|_| m.apply(Actor::Seat(seat), Action::Accept))
                    .unwrap(),
            };
            show(&mut bots, &events);
            if !events.iter().any(|e| matches!(e, Event::NewDeal { .. })) {
                continue;
            }
            let g = m.state();
            plays_before = g
                .log()
                .iter()
                .filter(|e| matches!(e, LogEntry::Play { .. }))
                .count();
            let view = g.view(Viewer::Seat(Seat(0)));
            let mut truth: Vec<Card> = g.decks.iter().flatten().copied().collect();
            for s in 1..g.hands.len() {
                if !g.displayed[s] {
                    truth.extend(&g.hands[s]);
                }
            }
            truth.sort();
            assert_eq!(bots[0].unseen(&view, 0), truth);
            break;
        }
        assert!(
            plays_before > 0,
            "the first deal had plays, and a second deal came"
        );
    }
}
