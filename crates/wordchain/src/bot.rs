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

use crate::best::{self, Candidate, Limits, Play, WordIndex};
use crate::card::Card;
use crate::config::Config;
use crate::pack::Pack;
use crate::scoring::ScoreRules;
use crate::{Action, LogEntry, View, WordCards, WordChain};
use parlor_core::{Agent, AgentContext, ConfigError, GameRng, Level, Resources, Seed};
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
        })
    }

    /// The play this seat would make now, if any.
    pub fn choose_play(&mut self, view: &View, me: usize) -> Option<Play> {
        let (Some(hand), Some(link)) = (&view.hand, view.link) else {
            return None;
        };
        let limits = Limits {
            max_from_hand: view.max_from_hand.unwrap_or(usize::MAX),
        };
        let index = Arc::clone(&self.index);
        let mut found = best::search(&index, hand, link, &self.rules, limits);
        if view.config.once_only {
            let played: BTreeSet<&str> = view
                .log
                .iter()
                .filter_map(|e| match e {
                    LogEntry::Play {
                        words, challenge, ..
                    } if challenge.is_none_or(|(_, up)| !up) => {
                        Some(words.iter().map(|w| w.word.as_str()))
                    }
                    _ => None,
                })
                .flatten()
                .collect();
            let index = &self.index;
            found
                .candidates
                .retain(|c| !played.contains(index.word(c.word as usize)));
        }
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
                let size = view.seats[next].cards.min(pool.len());
                (0..LOOK_AHEAD_SAMPLES)
                    .map(|_| {
                        self.rng.shuffle(&mut pool);
                        pool[..size].to_vec()
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
    /// displayed hands, the link card and the cards of plays that stood.
    fn unseen(&self, view: &View, me: usize) -> Vec<Card> {
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
        for e in &view.log {
            if let LogEntry::Play {
                words, challenge, ..
            } = e
            {
                if challenge.is_none_or(|(_, upheld)| !upheld) {
                    for w in words {
                        for (i, c) in w.cards.iter().enumerate() {
                            if i != w.link {
                                remove(c.card);
                            }
                        }
                    }
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
