//! Scoring a word (rules A–N of the original rules), step by step.
//!
//! Standard scoring, in the rules' order, rounding up to a whole number
//! after each step: the card values (the link card's included, Multicards
//! nothing); one pattern bonus, the best that applies (D coloured +5%,
//! E suited +10%, F sequenced +15%, G coloured and sequenced +20%, H suited
//! and sequenced +25%); I all cards held used +50%; J a word on the link
//! card, twice its last card's value; L the link card not first, −33.3%;
//! M all remaining cards in a word of at least 8 cards (agreed), +50%.
//! Simple scoring (A): a point a card, nothing else.

use crate::card::{Letter, Played};
use serde::{Deserialize, Serialize};

/// Simple or standard scoring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Card values, bonuses and penalties (rules B–N).
    #[default]
    Standard,
    /// One point a card, the link card included; no bonuses, no penalties
    /// (rule A, for juniors).
    Simple,
}

/// What rule J's "a word that is on the link card" means at this table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkBonus {
    /// parlor's reading: a word that begins on the link card and ends on
    /// its letter again (the chain comes back to the letter it was given:
    /// link T, TREAT) earns twice its last card's value.
    #[default]
    SameLetter,
    /// The other reading: every word that begins on the link card earns
    /// twice its last card's value.
    LinkFirst,
    /// No link bonus.
    Off,
}

impl LinkBonus {
    /// Every reading, by its name in a config (`same_letter`, `link_first`,
    /// `off`).
    pub const ALL: [(LinkBonus, &'static str); 3] = [
        (LinkBonus::SameLetter, "same_letter"),
        (LinkBonus::LinkFirst, "link_first"),
        (LinkBonus::Off, "off"),
    ];

    /// The reading named `name`.
    pub fn from_name(name: &str) -> Option<LinkBonus> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(b, _)| *b)
    }

    /// Whether a word with the link card at `link`, of first letter
    /// `first` and last letter `last`, earns the bonus.
    pub fn earned(self, link: usize, first: Letter, last: Letter) -> bool {
        link == 0
            && match self {
                LinkBonus::SameLetter => first == last,
                LinkBonus::LinkFirst => true,
                LinkBonus::Off => false,
            }
    }
}

/// The scoring rules of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScoreRules {
    /// Simple or standard.
    pub scoring: Scoring,
    /// Rule J.
    pub link_bonus: LinkBonus,
    /// Rule M's agreed number of cards (8 by default).
    pub long_word: usize,
}

impl Default for ScoreRules {
    fn default() -> Self {
        ScoreRules {
            scoring: Scoring::Standard,
            link_bonus: LinkBonus::SameLetter,
            long_word: 8,
        }
    }
}

/// One step of a score's calculation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The rule's letter in the original rules (`B`, `D` ... `M`; `A` for
    /// simple scoring).
    pub rule: char,
    /// What it was for, in words (`suited (all hearts) +10%`).
    pub what: String,
    /// The score after this step.
    pub total: u32,
}

/// A word's score and how it was reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breakdown {
    /// The calculation, step by step.
    pub steps: Vec<Step>,
    /// The word's score.
    pub score: u32,
}

/// The pattern bonus a word's cards earn (rules D–H), the best that
/// applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// None.
    Plain,
    /// D: all one colour, +5%.
    Coloured,
    /// E: all one suit, +10%.
    Suited,
    /// F: letters strictly rising or falling, mixed colours, +15%.
    Sequenced,
    /// G: coloured and sequenced, +20%.
    ColouredSequenced,
    /// H: suited and sequenced, +25%.
    SuitedSequenced,
}

impl Pattern {
    /// The bonus in percent.
    pub fn percent(self) -> u32 {
        match self {
            Pattern::Plain => 0,
            Pattern::Coloured => 5,
            Pattern::Suited => 10,
            Pattern::Sequenced => 15,
            Pattern::ColouredSequenced => 20,
            Pattern::SuitedSequenced => 25,
        }
    }

    /// The rule's letter.
    pub fn rule(self) -> char {
        match self {
            Pattern::Plain => ' ',
            Pattern::Coloured => 'D',
            Pattern::Suited => 'E',
            Pattern::Sequenced => 'F',
            Pattern::ColouredSequenced => 'G',
            Pattern::SuitedSequenced => 'H',
        }
    }

    /// From what the cards are.
    pub fn of(coloured: bool, suited: bool, sequenced: bool) -> Pattern {
        match (suited, coloured, sequenced) {
            (true, _, true) => Pattern::SuitedSequenced,
            (false, true, true) => Pattern::ColouredSequenced,
            (false, false, true) => Pattern::Sequenced,
            (true, _, false) => Pattern::Suited,
            (false, true, false) => Pattern::Coloured,
            (false, false, false) => Pattern::Plain,
        }
    }
}

/// Whether letters are strictly rising or strictly falling (rule F: "does
/// not have to be consecutive"); a word of one letter is not sequenced.
pub fn sequenced(letters: impl Iterator<Item = usize> + Clone) -> bool {
    let rising = letters
        .clone()
        .zip(letters.clone().skip(1))
        .all(|(a, b)| a < b);
    let falling = letters
        .clone()
        .zip(letters.clone().skip(1))
        .all(|(a, b)| a > b);
    letters.count() >= 2 && (rising || falling)
}

/// `v` increased by `percent`, rounded up.
pub fn plus_percent(v: u32, percent: u32) -> u32 {
    (v * (100 + percent)).div_ceil(100)
}

/// `v` less 33.3% (rule L), rounded up.
pub fn less_third(v: u32) -> u32 {
    (v * 667).div_ceil(1000)
}

/// Scores a word: `cards` in order (Multicards named), the link card at
/// `link`, `hand_left` cards left in the player's hand after the play.
pub fn score(cards: &[Played], link: usize, hand_left: usize, rules: &ScoreRules) -> Breakdown {
    let mut steps = Vec::new();
    if rules.scoring == Scoring::Simple {
        let n = cards.len() as u32;
        steps.push(Step {
            rule: 'A',
            what: format!("simple scoring: a point for each of the {n} cards"),
            total: n,
        });
        return Breakdown { steps, score: n };
    }
    let mut total: u32 = cards.iter().map(|c| c.value()).sum();
    let values: Vec<String> = cards
        .iter()
        .map(|c| match c.is_multi() {
            true => format!("{c} 0"),
            false => format!("{} {}", c, c.value()),
        })
        .collect();
    steps.push(Step {
        rule: 'B',
        what: format!("card values: {}", values.join(" + ")),
        total,
    });
    let first = cards.first().map(|c| c.suit);
    let suited = first.is_some_and(|s| cards.iter().all(|c| c.suit == s));
    let coloured = first.is_some_and(|s| cards.iter().all(|c| c.suit.colour() == s.colour()));
    let pattern = Pattern::of(
        coloured,
        suited,
        sequenced(cards.iter().map(|c| c.letter.index())),
    );
    if pattern != Pattern::Plain {
        total = plus_percent(total, pattern.percent());
        let what = match pattern {
            Pattern::Coloured => "coloured (all one colour)",
            Pattern::Suited => "suited (all one suit)",
            Pattern::Sequenced => "sequenced (letters in order), mixed suits",
            Pattern::ColouredSequenced => "coloured and sequenced",
            _ => "suited and sequenced",
        };
        steps.push(Step {
            rule: pattern.rule(),
            what: format!("{what} +{}%", pattern.percent()),
            total,
        });
    }
    if hand_left == 0 {
        total = plus_percent(total, 50);
        steps.push(Step {
            rule: 'I',
            what: "all cards held used in one word +50%".into(),
            total,
        });
    }
    if cards.len() >= 2 {
        let last = cards[cards.len() - 1];
        // A Multicard last earns nothing ("no numerical value"): no step.
        if rules.link_bonus.earned(link, cards[0].letter, last.letter) && last.value() > 0 {
            total += 2 * last.value();
            let why = match rules.link_bonus {
                LinkBonus::SameLetter => format!("ends on its letter {}", last.letter),
                _ => "begins on it".to_string(),
            };
            steps.push(Step {
                rule: 'J',
                what: format!(
                    "on the link card ({why}): twice the last card's value {}",
                    last.value()
                ),
                total,
            });
        }
    }
    if link != 0 {
        total = less_third(total);
        steps.push(Step {
            rule: 'L',
            what: format!("link card not first (card {}) −33.3%", link + 1),
            total,
        });
    }
    if hand_left == 0 && cards.len() >= rules.long_word {
        total = plus_percent(total, 50);
        steps.push(Step {
            rule: 'M',
            what: format!(
                "all remaining cards in a word of at least {} cards +50%",
                rules.long_word
            ),
            total,
        });
    }
    Breakdown {
        steps,
        score: total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardText;

    fn cards(text: &str) -> Vec<Played> {
        crate::card::parse_cards(text)
            .unwrap()
            .into_iter()
            .map(|c: CardText| c.played().unwrap())
            .collect()
    }

    #[test]
    fn plain_and_sequenced_words() {
        // KNOP: K 11 + N 14 + O 15 + P 16 = 56, rising, mixed colours: +15% = 64.4 -> 65.
        let b = score(&cards("Kh Nc Od Ps"), 0, 5, &ScoreRules::default());
        assert_eq!(b.score, 65);
        assert_eq!(b.steps[0].total, 56);
        assert_eq!(b.steps[1].rule, 'F');
        // PYREXIA: not in order, mixed: 16+25+18+5+24+9+1 = 98.
        let b = score(&cards("Ph Yc Rd Es Xh Ic Ad"), 0, 5, &ScoreRules::default());
        assert_eq!(b.score, 98);
        assert_eq!(b.steps.len(), 1);
    }

    #[test]
    fn patterns_round_up() {
        // A 1 + C 3 + T 20 = 24, rising, all hearts: +25% = 30.
        assert_eq!(
            score(&cards("Ah Ch Th"), 0, 3, &ScoreRules::default()).score,
            30
        );
        // Coloured and sequenced: 24 * 1.2 = 28.8 -> 29.
        assert_eq!(
            score(&cards("Ah Cd Th"), 0, 3, &ScoreRules::default()).score,
            29
        );
        // Sequenced, mixed colours: 24 * 1.15 = 27.6 -> 28.
        assert_eq!(
            score(&cards("Ah Cs Th"), 0, 3, &ScoreRules::default()).score,
            28
        );
        // Suited, not sequenced: C 3 + A 1 + T 20 = 24 * 1.1 = 26.4 -> 27.
        assert_eq!(
            score(&cards("Ch Ah Th"), 0, 3, &ScoreRules::default()).score,
            27
        );
        // Coloured only: 24 * 1.05 = 25.2 -> 26.
        assert_eq!(
            score(&cards("Ch Ad Th"), 0, 3, &ScoreRules::default()).score,
            26
        );
    }

    #[test]
    fn link_penalty_hand_and_link_bonus() {
        // Link (T) third: C 3 + A 1 + T 20 = 24, mixed, x 0.667 = 16.008 -> 17.
        let b = score(&cards("Cc Ah Td"), 2, 3, &ScoreRules::default());
        assert_eq!(b.score, 17);
        assert_eq!(b.steps.last().unwrap().rule, 'L');
        // TREAT on link T: 20+18+5+1+20 = 64, plain; + 2 x 20 = 104.
        let b = score(&cards("Th Rc Ed As Td"), 0, 2, &ScoreRules::default());
        assert_eq!(b.score, 104);
        // All cards used, 8 cards: plus 50% then (after the rest) plus 50% again.
        let w = cards("Sh Tc Rd Es Nh Gc Td Hs");
        let base: u32 = w.iter().map(|c| c.value()).sum();
        let b = score(&w, 0, 0, &ScoreRules::default());
        assert_eq!(b.score, plus_percent(plus_percent(base, 50), 50));
        // A Multicard adds nothing but counts for the suit: 23 suited = 25.3 -> 26.
        let b = score(&cards("Ch *Ah Th"), 0, 1, &ScoreRules::default());
        assert_eq!(b.score, 26);
        // Simple scoring.
        let simple = ScoreRules {
            scoring: Scoring::Simple,
            ..ScoreRules::default()
        };
        assert_eq!(score(&w, 3, 0, &simple).score, 8);
    }

    #[test]
    fn rule_j_read_either_way() {
        let rules = |link_bonus| ScoreRules {
            link_bonus,
            ..ScoreRules::default()
        };
        // KNOP on K: 65 with no bonus; every word on the link: + 2 x P 16 = 97.
        let knop = cards("Kh Nc Od Ps");
        assert_eq!(score(&knop, 0, 5, &rules(LinkBonus::SameLetter)).score, 65);
        let b = score(&knop, 0, 5, &rules(LinkBonus::LinkFirst));
        assert_eq!(b.score, 97);
        let j = b.steps.iter().find(|s| s.rule == 'J').unwrap();
        assert_eq!(
            j.what,
            "on the link card (begins on it): twice the last card's value 16"
        );
        // TREAT: the bonus either way; none when it is off.
        let treat = cards("Th Rc Ed As Td");
        assert_eq!(score(&treat, 0, 2, &rules(LinkBonus::LinkFirst)).score, 104);
        assert_eq!(score(&treat, 0, 2, &rules(LinkBonus::Off)).score, 64);
        // Neither reading gives it to a word whose link card is not first.
        let cat = cards("Cc Ah Td");
        assert_eq!(score(&cat, 2, 3, &rules(LinkBonus::LinkFirst)).score, 17);
        assert_eq!(
            LinkBonus::from_name("link_first"),
            Some(LinkBonus::LinkFirst)
        );
        assert_eq!(LinkBonus::from_name("on"), None);
    }
}
