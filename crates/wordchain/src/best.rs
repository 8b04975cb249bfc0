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
use crate::scoring::{self, Pattern, ScoreRules, Scoring};
use parlor_lexicon::{shortfall, CountedWords, Lexicon};
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
    /// Letter cards by letter, any suit.
    total: [u8; 26],
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
            total: [0; 26],
            multis: 0,
            size: hand.len(),
            vowels: hand.iter().filter(|c| c.in_vowel_deck()).count(),
        };
        for c in hand {
            match *c {
                Card::Letter(l, s) => {
                    h.cards[l.index()][s.index()] += 1;
                    h.total[l.index()] += 1;
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

/// The words the search reads: the list's words of 2 to
/// [`crate::MAX_WORD_CARDS`] letters with their letters counted (shared
/// with other games through [`parlor_core::Resources::counted_words`]).
pub type WordIndex = CountedWords;

/// The index of the word list `name`, built once per list and kept with
/// the host's other shared data.
pub fn index_for(
    resources: &parlor_core::Resources,
    name: &str,
) -> Result<std::sync::Arc<WordIndex>, parlor_core::ConfigError> {
    resources.counted_words(name, crate::MAX_WORD_CARDS)
}

/// The index of `lexicon` (for a list outside a host's resources).
pub fn index(lexicon: &Lexicon) -> WordIndex {
    CountedWords::new(lexicon, crate::MAX_WORD_CARDS)
}

/// One playable word, scored without building its cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The word's number in the [`WordIndex`].
    pub word: u32,
    /// Its score.
    pub score: u32,
    /// Its tactical value.
    pub tactical: i64,
    /// The letter that ends it (0 for A), the next player's link.
    pub last: u8,
    /// Whether the card that ends it is a Multicard.
    pub last_multi: bool,
    link: u8,
    aim: u8,
}

/// Every word a hand can play on a link, scored.
pub struct Search<'a> {
    index: &'a WordIndex,
    counts: HandCounts,
    link: Card,
    rules: ScoreRules,
    /// The candidates, in the index's order.
    pub candidates: Vec<Candidate>,
}

/// What the hand and the link card hold for the search: each letter's
/// count (the link's letter included), the blanks (Multicards, the link
/// too when it is one), and the longest word they may form.
fn supply(counts: &HandCounts, link: Card, limits: Limits) -> ([u8; 32], u32, usize) {
    let mut have = [0u8; 32];
    for (l, c) in counts.cards.iter().enumerate() {
        have[l] = c.iter().sum();
    }
    let mut blanks = counts.multis as u32;
    match link {
        Card::Letter(l, _) => have[l.index()] += 1,
        Card::Multi => blanks += 1,
    }
    let max_len = counts.size.min(limits.max_from_hand).saturating_add(1);
    (have, blanks, max_len)
}

/// The words of the index the hand and the link can form, by number: a
/// word fits when its letters, less the link card's, are in the hand's
/// letters and Multicards ([`evaluate`] then always places it).
fn fitting<'i>(
    index: &'i WordIndex,
    counts: &HandCounts,
    link: Card,
    limits: Limits,
) -> impl Iterator<Item = usize> + 'i {
    let (have, blanks, max_len) = supply(counts, link, limits);
    index
        .all_counts()
        .iter()
        .enumerate()
        .filter(move |(i, need)| {
            index.word_len(*i) <= max_len
                && shortfall(need, &have) <= blanks
                && match link {
                    Card::Letter(l, _) => need[l.index()] > 0,
                    Card::Multi => true,
                }
        })
        .map(|(i, _)| i)
}

/// Finds every word the hand and the link card can form.
pub fn search<'a>(
    index: &'a WordIndex,
    hand: &[Card],
    link: Card,
    rules: &ScoreRules,
    limits: Limits,
) -> Search<'a> {
    let counts = HandCounts::new(hand);
    let candidates = fitting(index, &counts, link, limits)
        .filter_map(|i| evaluate(index.word(i).as_bytes(), i as u32, &counts, link, rules))
        .collect();
    Search {
        index,
        counts,
        link,
        rules: *rules,
        candidates,
    }
}

/// Whether the hand and the link card can form any word of the index
/// that `allowed` lets be played: the words [`search`] finds, stopping at
/// the first. Bounded by the index: one pass over it at most.
pub fn can_form(
    index: &WordIndex,
    hand: &[Card],
    link: Card,
    limits: Limits,
    allowed: impl Fn(&str) -> bool,
) -> bool {
    let counts = HandCounts::new(hand);
    fitting(index, &counts, link, limits).any(|i| allowed(index.word(i)))
}

impl Search<'_> {
    /// The play of a candidate, its cards chosen.
    pub fn play(&self, c: &Candidate) -> Play {
        let word = self.index.word(c.word as usize);
        build(word, c, &self.counts, self.link, &self.rules)
    }

    /// The `k` best by score (ties: tactical value, then the word).
    pub fn by_score(&self, k: usize) -> Vec<Play> {
        self.top(k, |c| (i64::from(c.score), c.tactical))
    }

    /// The `k` best by tactical value (ties: score, then the word).
    pub fn by_tactical(&self, k: usize) -> Vec<Play> {
        self.top(k, |c| (c.tactical, i64::from(c.score)))
    }

    /// The `k` best by `key`, highest first, ties by the word: the `k`
    /// are selected first and only they are sorted and spelt.
    fn top(&self, k: usize, key: impl Fn(&Candidate) -> (i64, i64)) -> Vec<Play> {
        // The index is in word order: the lower number is the lesser word.
        let order = |a: &Candidate, b: &Candidate| key(b).cmp(&key(a)).then(a.word.cmp(&b.word));
        let mut best: Vec<Candidate> = Vec::with_capacity(k.min(self.candidates.len()) + 1);
        if k >= self.candidates.len() {
            best.extend_from_slice(&self.candidates);
            best.sort_unstable_by(order);
        } else if k > 0 {
            // One pass, the best k kept in order (k is small: a screenful).
            for c in &self.candidates {
                if best.len() == k && order(c, &best[k - 1]).is_ge() {
                    continue;
                }
                let at = best.partition_point(|b| order(b, c).is_lt());
                best.insert(at, *c);
                best.truncate(k);
            }
        }
        best.iter().map(|c| self.play(c)).collect()
    }

    /// The word of a candidate.
    pub fn word(&self, c: &Candidate) -> &str {
        self.index.word(c.word as usize)
    }
}

/// The best way to play the word `word` (any letters, in the lexicon or
/// not: a bluff is spelt the same way) from `hand` on `link`; `None` when
/// the hand and the link cannot spell it.
pub fn for_word(word: &str, hand: &[Card], link: Card, rules: &ScoreRules) -> Option<Play> {
    let w = word.to_ascii_lowercase();
    if w.len() < 2 || w.len() > crate::MAX_WORD_CARDS || !w.bytes().all(|b| b.is_ascii_lowercase())
    {
        return None;
    }
    best_for_word(&w, &HandCounts::new(hand), link, rules)
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
        for (&n, &have) in need.iter().zip(&counts.total) {
            missing += usize::from(n.saturating_sub(have));
        }
        missing <= counts.multis
    };
    // A letter link: first where the word begins with it; otherwise any
    // place costs the same penalty, so the first. A Multicard: first
    // where the hand spells the rest, else where it must stand.
    let only = match link {
        Card::Letter(l, _) => Some(w.iter().position(|&c| usize::from(c - b'a') == l.index())?),
        Card::Multi => None,
    };
    for p in only.map_or(0..w.len(), |p| p..p + 1) {
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
    let c = evaluate(word.as_bytes(), 0, counts, link, rules)?;
    Some(build(word, &c, counts, link, rules))
}

/// The best aim for a word, scored by arithmetic alone (the same steps as
/// [`scoring::score`]; a test checks they agree).
fn evaluate(
    w: &[u8],
    index: u32,
    counts: &HandCounts,
    link: Card,
    rules: &ScoreRules,
) -> Option<Candidate> {
    let (p, need) = place_link(w, counts, link)?;
    let used = w.len() - 1;
    let hand_left = counts.size - used;
    let seq = scoring::sequenced(w.iter().map(|&c| usize::from(c - b'a')));
    let link_letter = Letter::from_index(usize::from(w[p] - b'a'))?;
    let last = usize::from(w[w.len() - 1] - b'a');
    let link_last = p == w.len() - 1;
    // The letters the hand gives, once.
    let mut letters = [0u8; 26];
    let mut distinct = 0;
    for (l, &n) in need.iter().enumerate() {
        if n > 0 {
            letters[distinct] = l as u8;
            distinct += 1;
        }
    }
    let letters = &letters[..distinct];
    // The best aim: (score, aim, multis, vowel-deck cards used).
    let mut best: Option<(u32, usize, usize, usize)> = None;
    for (a, &aim) in AIMS.iter().enumerate() {
        if link_played(link, link_letter, aim).is_none() {
            continue;
        }
        let mut multis = 0usize;
        let mut vowels = 0usize;
        let mut base = link.value();
        let mut fits = true;
        for &l in letters {
            let l = usize::from(l);
            let n = need[l];
            let real = n.min(counts.by_aim[a][l]);
            multis += usize::from(n - real);
            if multis > counts.multis {
                // Most words fit no single suit or colour: stop early.
                fits = false;
                break;
            }
            base += u32::from(real) * (l as u32 + 1);
            if VOWEL_DECK[l] {
                vowels += usize::from(real);
            }
        }
        if !fits {
            continue;
        }
        let score = if rules.scoring == Scoring::Simple {
            w.len() as u32
        } else {
            let last_value = if link_last {
                link.value()
            } else if counts.by_aim[a][last] == 0 {
                // The last card is spelt first (see `spell`): a letter
                // card whenever the hand has one of an allowed suit.
                0
            } else {
                last as u32 + 1
            };
            let first = Letter::from_index(usize::from(w[0] - b'a'))?;
            let last_letter = Letter::from_index(last)?;
            let bonus = if rules.link_bonus.earned(p, first, last_letter) {
                2 * last_value
            } else {
                0
            };
            standard_score(
                base,
                aim_pattern(a, seq),
                hand_left,
                bonus,
                p,
                w.len(),
                rules,
            )
        };
        if best.is_none_or(|(s, _, m, _)| score > s || (score == s && multis < m)) {
            best = Some((score, a, multis, vowels + multis));
        }
    }
    let (score, a, multis, vowels_used) = best?;
    let last_multi = if link_last {
        link == Card::Multi
    } else {
        counts.by_aim[a][last] == 0
    };
    let tactical = tactical_value(
        score,
        &Leaves {
            last_multi,
            last_value: last as u32 + 1,
            multis,
            vowels_used,
            used,
        },
        counts.size,
        counts.vowels,
    );
    Some(Candidate {
        word: index,
        score,
        tactical,
        last: last as u8,
        last_multi,
        link: p as u8,
        aim: a as u8,
    })
}

/// What a play takes from the hand and hands on, for its tactical value.
struct Leaves {
    /// Whether the card that ends the word (the next link) is a Multicard.
    last_multi: bool,
    /// The value of the letter that ends the word.
    last_value: u32,
    /// Multicards spent from the hand.
    multis: usize,
    /// Cards of the vowel deck spent from the hand (Multicards among them).
    vowels_used: usize,
    /// Cards spent from the hand.
    used: usize,
}

/// The tactical value (docs/rules/wordchain.md): the score less the link
/// handed on, the Multicards spent and the imbalance between vowels and
/// consonants left in a hand of `size` cards holding `vowels` of the vowel
/// deck that the redraw (one card per card spent) cannot mend.
fn tactical_value(score: u32, leaves: &Leaves, size: usize, vowels: usize) -> i64 {
    let gift = if leaves.last_multi {
        MULTICARD_LINK_GIFT
    } else {
        i64::from(leaves.last_value)
    };
    let v = vowels.saturating_sub(leaves.vowels_used) as i64;
    let c = size.saturating_sub(leaves.used) as i64 - v;
    let imbalance = ((v - c).abs() - leaves.used as i64).max(0);
    i64::from(score) - gift - MULTICARD_WORTH * leaves.multis as i64 - 3 * imbalance
}

/// The tactical value of a given play from `hand`: `cards` in order, the
/// link card at `link`, scoring `score` under the table's rules (the
/// same value [`Search::by_tactical`] ranks by, for any cards a player
/// chose).
pub fn tactical_of(hand: &[Card], cards: &[Played], link: usize, score: u32) -> i64 {
    let from_hand = || {
        cards
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != link)
            .map(|(_, c)| c.card)
    };
    let last = cards.last();
    tactical_value(
        score,
        &Leaves {
            last_multi: last.is_some_and(|c| c.card == Card::Multi),
            last_value: last.map_or(0, |c| c.letter.value()),
            multis: from_hand().filter(|c| *c == Card::Multi).count(),
            vowels_used: from_hand().filter(|c| c.in_vowel_deck()).count(),
            used: cards.len().saturating_sub(1),
        },
        hand.len(),
        hand.iter().filter(|c| c.in_vowel_deck()).count(),
    )
}

/// Which letters' cards belong to the vowel deck.
const VOWEL_DECK: [bool; 26] = {
    let mut v = [false; 26];
    let letters = *b"aeiouys";
    let mut i = 0;
    while i < letters.len() {
        v[(letters[i] - b'a') as usize] = true;
        i += 1;
    }
    v
};

/// The cards of a candidate, and its breakdown.
fn build(word: &str, c: &Candidate, counts: &HandCounts, link: Card, rules: &ScoreRules) -> Play {
    let w = word.as_bytes();
    let p = usize::from(c.link);
    let a = usize::from(c.aim);
    let cards = spell(w, p, counts, link, AIMS[a]).unwrap_or_default();
    let hand_left = counts.size - (w.len() - 1);
    let score = scoring::score(&cards, p, hand_left, rules).score;
    let seq = scoring::sequenced(w.iter().map(|&c| usize::from(c - b'a')));
    Play {
        word: word.to_string(),
        cards,
        link: p,
        score,
        tactical: c.tactical + i64::from(score) - i64::from(c.score),
        pattern: if rules.scoring == Scoring::Simple {
            Pattern::Plain
        } else {
            aim_pattern(a, seq)
        },
    }
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
