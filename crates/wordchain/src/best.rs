//! The best plays from a hand: every word of the lexicon that the hand and
//! the link card can form, each with the cards that score it best, ranked
//! by score and by a tactical value.
//!
//! Exact: a word is considered when its letters, less one for the link
//! card, fit in the hand's letters and Multicards. The link card stands
//! first where the word begins with its letter (no penalty), elsewhere
//! otherwise (rule L); a Multicard link is named for the first letter
//! wherever the hand can spell the rest. For each word the cards are chosen
//! per aim — any suits, all red, all black, all of one suit — taking a
//! letter card of an allowed suit where the hand has one (it adds its
//! value) and a Multicard named for the letter and suit otherwise; the
//! best score over the aims is the word's.

use crate::card::{Card, Letter, Played, Suit};
use crate::scoring::{self, LinkBonus, Pattern, ScoreRules, Scoring};
use parlor_lexicon::Lexicon;
use serde::Serialize;

/// What a Multicard is worth kept in hand, in points, for the tactical
/// value: it fits any word and any suit bonus later.
pub const MULTICARD_WORTH: i64 = 12;

/// The link a Multicard left at the end of a word hands the next player
/// (who names it), in points, for the tactical value.
pub const MULTICARD_LINK_GIFT: i64 = 13;

/// One play: a word and the cards that spell it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Play {
    /// The word, lower case.
    pub word: String,
    /// The cards in order, the link card among them, Multicards named.
    pub cards: Vec<Played>,
    /// Where the link card stands (0: first).
    pub link: usize,
    /// The word's score under the table's rules.
    pub score: u32,
    /// The score weighed for what the play leaves: the link handed to the
    /// next player, Multicards spent, the hand's balance.
    pub tactical: i64,
    /// The pattern bonus the cards earn.
    pub pattern: Pattern,
}

/// What the search may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most cards the word may take from the hand (a dice throw), or
    /// `usize::MAX`.
    pub max_from_hand: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_from_hand: usize::MAX,
        }
    }
}

/// The suits an aim allows, as a 4-bit set (bit 0 hearts ... bit 3 spades).
const AIMS: [u8; 7] = [0b1111, 0b0011, 0b1100, 0b0001, 0b0010, 0b0100, 0b1000];

fn suit_bit(s: Suit) -> u8 {
    1 << s.index()
}

/// The hand, counted for the search.
struct HandCounts {
    /// Letter cards by letter and suit.
    cards: [[u8; 4]; 26],
    /// Letter cards by aim and letter.
    by_aim: [[u8; 26]; 7],
    multis: usize,
    size: usize,
    /// Cards of the vowel deck held (for the balance).
    vowels: usize,
}

impl HandCounts {
    fn new(hand: &[Card]) -> HandCounts {
        let mut h = HandCounts {
            cards: [[0; 4]; 26],
            by_aim: [[0; 26]; 7],
            multis: 0,
            size: hand.len(),
            vowels: hand.iter().filter(|c| c.in_vowel_deck()).count(),
        };
        for c in hand {
            match *c {
                Card::Letter(l, s) => {
                    h.cards[l.index()][s.index()] += 1;
                    for (a, aim) in AIMS.iter().enumerate() {
                        if aim & suit_bit(s) != 0 {
                            h.by_aim[a][l.index()] += 1;
                        }
                    }
                }
                Card::Multi => h.multis += 1,
            }
        }
        h
    }
}

/// Every play from `hand` on `link`, best score first (ties: better
/// tactical value, then the word).
pub fn plays(
    hand: &[Card],
    link: Card,
    lexicon: &Lexicon,
    rules: &ScoreRules,
    limits: Limits,
) -> Vec<Play> {
    let counts = HandCounts::new(hand);
    let mut letters: String = hand
        .iter()
        .filter_map(|c| c.letter())
        .map(|l| l.lower())
        .collect();
    let mut blanks = counts.multis;
    match link {
        Card::Letter(l, _) => letters.push(l.lower()),
        Card::Multi => blanks += 1,
    }
    let mut out = Vec::new();
    for word in lexicon.formable(&letters, blanks) {
        let w = word.as_bytes();
        if w.len() < 2 || w.len() - 1 > limits.max_from_hand || w.len() - 1 > counts.size {
            continue;
        }
        if let Some(play) = best_for_word(word, &counts, link, rules) {
            out.push(play);
        }
    }
    out.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.tactical.cmp(&a.tactical))
            .then_with(|| a.word.cmp(&b.word))
    });
    out
}

/// The plays ranked by tactical value instead.
pub fn by_tactical(mut plays: Vec<Play>) -> Vec<Play> {
    plays.sort_by(|a, b| {
        b.tactical
            .cmp(&a.tactical)
            .then(b.score.cmp(&a.score))
            .then_with(|| a.word.cmp(&b.word))
    });
    plays
}

/// Where the link card stands in `w`, and the letters the hand must give,
/// counted; `None` if the hand cannot spell the rest.
fn place_link(w: &[u8], counts: &HandCounts, link: Card) -> Option<(usize, [u8; 26])> {
    let mut need = [0u8; 26];
    for &c in w {
        need[usize::from(c - b'a')] += 1;
    }
    let fits = |need: &[u8; 26]| {
        let mut missing = 0usize;
        for (l, &n) in need.iter().enumerate() {
            let have: u8 = counts.cards[l].iter().sum();
            missing += usize::from(n.saturating_sub(have));
        }
        missing <= counts.multis
    };
    let positions: Vec<usize> = match link {
        // First where the word begins with it; otherwise any place costs
        // the same penalty, so the first.
        Card::Letter(l, _) => (0..w.len())
            .filter(|&i| usize::from(w[i] - b'a') == l.index())
            .take(1)
            .collect(),
        Card::Multi => (0..w.len()).collect(),
    };
    for p in positions {
        let mut n = need;
        n[usize::from(w[p] - b'a')] -= 1;
        if fits(&n) {
            return Some((p, n));
        }
    }
    None
}

/// The link card as it stands at `p` of `w`: itself, or a Multicard named
/// for the letter there in the aim's first suit.
fn link_played(link: Card, letter: Letter, aim: u8) -> Option<Played> {
    match link {
        Card::Letter(l, s) => (aim & suit_bit(s) != 0).then_some(Played::real(l, s)),
        Card::Multi => Some(Played::multi(letter, first_suit(aim))),
    }
}

fn first_suit(aim: u8) -> Suit {
    Suit::ALL[aim.trailing_zeros() as usize]
}

/// The score of the standard rules from a word's base value, by the same
/// steps as [`scoring::score`].
fn standard_score(
    base: u32,
    pattern: Pattern,
    hand_left: usize,
    link_bonus: u32,
    link: usize,
    len: usize,
    rules: &ScoreRules,
) -> u32 {
    let mut t = scoring::plus_percent(base, pattern.percent());
    if hand_left == 0 {
        t = scoring::plus_percent(t, 50);
    }
    if link == 0 {
        t += link_bonus;
    } else {
        t = scoring::less_third(t);
    }
    if hand_left == 0 && len >= rules.long_word {
        t = scoring::plus_percent(t, 50);
    }
    t
}

fn best_for_word(word: &str, counts: &HandCounts, link: Card, rules: &ScoreRules) -> Option<Play> {
    let w = word.as_bytes();
    let (p, need) = place_link(w, counts, link)?;
    let used = w.len() - 1;
    let hand_left = counts.size - used;
    let letters = w.iter().map(|&c| usize::from(c - b'a'));
    let seq = scoring::sequenced(letters);
    let link_letter = Letter::from_index(usize::from(w[p] - b'a'))?;
    let last = usize::from(w[w.len() - 1] - b'a');
    // The best aim: (score, aim index, multis used).
    let mut best: Option<(u32, usize, usize)> = None;
    for (a, &aim) in AIMS.iter().enumerate() {
        if link_played(link, link_letter, aim).is_none() {
            continue;
        }
        let mut multis = 0usize;
        let mut base = link.value();
        for (l, &n) in need.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let real = n.min(counts.by_aim[a][l]);
            multis += usize::from(n - real);
            base += u32::from(real) * (l as u32 + 1);
        }
        // The last card is spelt first (see `spell`): a letter card
        // whenever the hand has one of an allowed suit.
        let last_is_multi = counts.by_aim[a][last] == 0;
        if multis > counts.multis {
            continue;
        }
        let score = if rules.scoring == Scoring::Simple {
            w.len() as u32
        } else {
            let pattern = aim_pattern(a, seq);
            let last_value = if p == w.len() - 1 {
                link.value()
            } else if last_is_multi {
                0
            } else {
                last as u32 + 1
            };
            let bonus =
                if rules.link_bonus == LinkBonus::SameLetter && p == 0 && w[0] == w[w.len() - 1] {
                    2 * last_value
                } else {
                    0
                };
            standard_score(base, pattern, hand_left, bonus, p, w.len(), rules)
        };
        if best.is_none_or(|(s, _, m)| score > s || (score == s && multis < m)) {
            best = Some((score, a, multis));
        }
    }
    let (_, a, _) = best?;
    let cards = spell(w, p, counts, link, AIMS[a])?;
    let breakdown = scoring::score(&cards, p, hand_left, rules);
    let pattern = if rules.scoring == Scoring::Simple {
        Pattern::Plain
    } else {
        aim_pattern(a, seq)
    };
    let tactical = tactical(breakdown.score, &cards, p, counts);
    Some(Play {
        word: word.to_string(),
        cards,
        link: p,
        score: breakdown.score,
        tactical,
        pattern,
    })
}

fn aim_pattern(aim_index: usize, seq: bool) -> Pattern {
    match aim_index {
        0 => Pattern::of(false, false, seq),
        1 | 2 => Pattern::of(true, false, seq),
        _ => Pattern::of(true, true, seq),
    }
}

/// The cards that spell `w` for an aim: letter cards of the allowed suits
/// first, Multicards for the rest; the last letter taken from a letter
/// card where one is left for it.
fn spell(w: &[u8], p: usize, counts: &HandCounts, link: Card, aim: u8) -> Option<Vec<Played>> {
    let mut left = counts.cards;
    let mut multis = counts.multis;
    let mut cards = vec![None; w.len()];
    let link_letter = Letter::from_index(usize::from(w[p] - b'a'))?;
    cards[p] = Some(link_played(link, link_letter, aim)?);
    // The last card first, so that a letter card ends the word when there is one.
    let order = std::iter::once(w.len() - 1).chain(0..w.len() - 1);
    for i in order {
        if i == p {
            continue;
        }
        let l = usize::from(w[i] - b'a');
        let letter = Letter::from_index(l)?;
        let suit = Suit::ALL
            .into_iter()
            .find(|&s| aim & suit_bit(s) != 0 && left[l][s.index()] > 0);
        cards[i] = Some(match suit {
            Some(s) => {
                left[l][s.index()] -= 1;
                Played::real(letter, s)
            }
            None if multis > 0 => {
                multis -= 1;
                Played::multi(letter, first_suit(aim))
            }
            None => return None,
        });
    }
    cards.into_iter().collect()
}

/// The score, less the link handed on, the Multicards spent and the
/// imbalance of vowels and consonants a redraw cannot mend.
fn tactical(score: u32, cards: &[Played], link: usize, counts: &HandCounts) -> i64 {
    let last = cards[cards.len() - 1];
    let gift = if last.is_multi() {
        MULTICARD_LINK_GIFT
    } else {
        i64::from(last.value())
    };
    let from_hand: Vec<&Played> = cards
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != link)
        .map(|(_, c)| c)
        .collect();
    let multis = from_hand.iter().filter(|c| c.is_multi()).count() as i64;
    let vowels_used = from_hand
        .iter()
        .filter(|c| c.is_multi() || c.letter.in_vowel_deck())
        .count();
    let used = from_hand.len();
    let v = counts.vowels.saturating_sub(vowels_used) as i64;
    let c = (counts.size - used) as i64 - v;
    let imbalance = ((v - c).abs() - used as i64).max(0);
    i64::from(score) - gift - MULTICARD_WORTH * multis - 3 * imbalance
}
