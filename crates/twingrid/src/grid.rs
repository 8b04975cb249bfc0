//! A player's grid and the score of writing a word into it.
//!
//! - **Shared letters**: the size of the multiset intersection of the two
//!   words' letters (`cat` and `tact` share 3: c, a, t; `tact` and `that`
//!   share 3: t, t, a).
//! - **Vertical words**: in each column the new word covers, every run of
//!   letters that ends at the new row, goes up without a gap, is at least
//!   two letters long and is a word of the dictionary (so `x a t` upward
//!   forms `at`, and `xat` only if it is a word). The multiplier is the
//!   longest such word's length; with none, 0. That is the reading
//!   [`Vertical::EveryRun`]; [`Vertical::WholeColumn`] (the crossword
//!   reading) counts only the whole run of letters in the column, from the
//!   top of the run down to the new row.

use parlor_lexicon::Lexicon;
use serde::Serialize;

/// The widest grid.
pub const MAX_WIDTH: usize = 20;

/// Which runs of a column count as the vertical words a new word forms
/// (the posting's "the longest word that you formed vertically" allows
/// both; `docs/rules/twingrid.md` says why the first is the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vertical {
    /// Every run of letters that ends at the new row and goes up without a
    /// gap: `dam` counts inside the column `f c d a m`.
    #[default]
    EveryRun,
    /// Only the whole run in the column, from its top letter down to the
    /// new row (as a crossword reads it): `fcdam` or nothing.
    WholeColumn,
}

/// A grid: rows of cells, top first; `None` is an empty cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    rows: Vec<Vec<Option<u8>>>,
}

/// A grid text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}; a grid is rows top to bottom separated by /, each a letter a-z or . per cell (tan....../........)")]
pub struct GridError(pub String);

/// One vertical word formed by a new word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerticalWord {
    /// The column, from 0.
    pub column: usize,
    /// The word, top to bottom.
    pub word: String,
}

/// The score of writing a word, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnScore {
    /// The letters the word shares with the opponent's last word.
    pub shared: usize,
    /// Those letters, in the word's order.
    pub shared_letters: String,
    /// Every vertical word formed.
    pub vertical_words: Vec<VerticalWord>,
    /// The longest one's length (0: none).
    pub longest_vertical: usize,
    /// The anagram bonus earned (0: none).
    pub anagram_bonus: u32,
    /// The turn's score.
    pub score: u32,
}

impl Grid {
    /// An empty grid `width` cells wide.
    pub fn new(width: usize) -> Grid {
        Grid {
            width,
            rows: Vec::new(),
        }
    }

    /// Reads `tan....../........`.
    pub fn parse(text: &str, width: Option<usize>) -> Result<Grid, GridError> {
        if text.len() > 4000 {
            return Err(GridError("the grid is longer than 4,000 characters".into()));
        }
        let mut rows = Vec::new();
        let mut w = width;
        let text = text.trim().trim_end_matches('/');
        for (i, r) in text.split('/').enumerate() {
            let row: Vec<Option<u8>> = r
                .chars()
                .map(|c| match c {
                    '.' => Ok(None),
                    c if c.is_ascii_alphabetic() => Ok(Some(c.to_ascii_lowercase() as u8)),
                    c => Err(GridError(format!(
                        "row {}: {c:?} is not a letter or .",
                        i + 1
                    ))),
                })
                .collect::<Result<_, _>>()?;
            match w {
                None => w = Some(row.len()),
                Some(w) if w != row.len() => {
                    return Err(GridError(format!(
                        "row {} has {} cells, the grid is {w} wide",
                        i + 1,
                        row.len()
                    )))
                }
                _ => {}
            }
            rows.push(row);
        }
        let width = w.unwrap_or(0);
        if !(2..=MAX_WIDTH).contains(&width) {
            return Err(GridError(format!(
                "the grid is {width} wide: 2 to {MAX_WIDTH}"
            )));
        }
        // Empty rows at the bottom are the rows still free.
        while rows.last().is_some_and(|r| r.iter().all(Option::is_none)) {
            rows.pop();
        }
        if rows.len() > 50 {
            return Err(GridError("more than 50 rows".into()));
        }
        Ok(Grid { width, rows })
    }

    /// The grid's width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows written (the next word goes in row `rows()`).
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// The cells, top row first.
    pub fn cells(&self) -> &[Vec<Option<u8>>] {
        &self.rows
    }

    /// The grid as text, rows separated by `/`.
    pub fn text(&self) -> String {
        self.rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| c.map_or('.', char::from))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Whether `word` fits with its first letter in `column`.
    pub fn fits(&self, word: &str, column: usize) -> bool {
        !word.is_empty() && column + word.len() <= self.width
    }

    /// Writes `word` into the next row at `column` (checked with [`Grid::fits`]).
    pub fn write(&mut self, word: &str, column: usize) {
        let mut row = vec![None; self.width];
        for (i, b) in word.bytes().enumerate() {
            row[column + i] = Some(b);
        }
        self.rows.push(row);
    }

    /// The column above the next row, bottom up, as far as it has letters.
    fn above(&self, column: usize) -> impl Iterator<Item = u8> + '_ {
        self.rows.iter().rev().map_while(move |r| r[column])
    }

    /// The vertical words a letter `b` in the next row at `column` forms,
    /// read as `vertical` says.
    pub fn vertical_words_at(
        &self,
        column: usize,
        b: u8,
        lexicon: &Lexicon,
        vertical: Vertical,
    ) -> Vec<String> {
        let mut run: Vec<u8> = vec![b];
        run.extend(self.above(column));
        let word = |n: usize| -> String { run[..n].iter().rev().map(|&c| char::from(c)).collect() };
        let lengths = match vertical {
            Vertical::EveryRun => 2..=run.len(),
            Vertical::WholeColumn => run.len().max(2)..=run.len(),
        };
        lengths.map(word).filter(|w| lexicon.contains(w)).collect()
    }

    /// The longest vertical word each letter would form in each column of
    /// the next row: `table[column][letter]` (0: none), for the bot.
    pub fn vertical_table(&self, lexicon: &Lexicon, vertical: Vertical) -> Vec<[u8; 26]> {
        (0..self.width)
            .map(|c| {
                let mut t = [0u8; 26];
                if self.above(c).next().is_some() {
                    for (l, slot) in t.iter_mut().enumerate() {
                        *slot = self
                            .vertical_words_at(c, b'a' + l as u8, lexicon, vertical)
                            .iter()
                            .map(|w| w.len() as u8)
                            .max()
                            .unwrap_or(0);
                    }
                }
                t
            })
            .collect()
    }

    /// The score of writing `word` at `column` against the opponent's last
    /// word `theirs`: shared letters times the longest vertical word, plus
    /// `anagram_bonus` for an anagram of theirs; vertical words read as
    /// `vertical` says.
    pub fn score(
        &self,
        word: &str,
        column: usize,
        theirs: &str,
        anagram_bonus: u32,
        lexicon: &Lexicon,
        vertical: Vertical,
    ) -> TurnScore {
        let (shared, shared_letters) = shared(word, theirs);
        let mut vertical_words = Vec::new();
        for (i, b) in word.bytes().enumerate() {
            for w in self.vertical_words_at(column + i, b, lexicon, vertical) {
                vertical_words.push(VerticalWord {
                    column: column + i,
                    word: w,
                });
            }
        }
        let longest_vertical = vertical_words
            .iter()
            .map(|v| v.word.len())
            .max()
            .unwrap_or(0);
        let bonus = if is_anagram(word, theirs) {
            anagram_bonus
        } else {
            0
        };
        TurnScore {
            shared,
            shared_letters,
            vertical_words,
            longest_vertical,
            anagram_bonus: bonus,
            score: (shared * longest_vertical) as u32 + bonus,
        }
    }
}

/// The letters two words share, counted with multiplicity (the multiset
/// intersection), and those letters in the first word's order.
pub fn shared(word: &str, theirs: &str) -> (usize, String) {
    let mut left = [0u8; 26];
    for b in theirs.bytes().filter(u8::is_ascii_lowercase) {
        left[usize::from(b - b'a')] += 1;
    }
    let mut letters = String::new();
    for b in word.bytes().filter(u8::is_ascii_lowercase) {
        let k = usize::from(b - b'a');
        if left[k] > 0 {
            left[k] -= 1;
            letters.push(char::from(b));
        }
    }
    (letters.len(), letters)
}

/// Whether `word` is an anagram of `theirs`: the same letters, rearranged
/// (not the same word).
pub fn is_anagram(word: &str, theirs: &str) -> bool {
    if word == theirs || word.len() != theirs.len() {
        return false;
    }
    let mut a: Vec<u8> = word.bytes().collect();
    let mut b: Vec<u8> = theirs.bytes().collect();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex() -> Lexicon {
        Lexicon::from_words("t", ["at", "tan", "cat", "an", "ta", "act", "tact", "ant"])
            .unwrap()
            .0
    }

    #[test]
    fn the_postings_example() {
        // "tan" first, then "cat" with its t directly below the a of tan:
        // "at" down that column (and here "ta" down the one before).
        let mut g = Grid::new(9);
        g.write("tan", 1);
        let s = g.score("cat", 0, "tact", 10, &lex(), Vertical::EveryRun);
        assert_eq!(s.longest_vertical, 2);
        assert_eq!(s.shared, 3, "cat and tact share c, a, t");
        assert_eq!(s.score, 6);
        let words: Vec<&str> = s.vertical_words.iter().map(|v| v.word.as_str()).collect();
        assert_eq!(words, ["ta", "at"]);
        // Far from tan nothing is formed: no vertical word, no score.
        let s = g.score("cat", 6, "tact", 10, &lex(), Vertical::EveryRun);
        assert_eq!((s.longest_vertical, s.score), (0, 0));
        // An anagram of the opponent's word earns the bonus on top.
        let s = g.score("act", 0, "cat", 10, &lex(), Vertical::EveryRun);
        assert_eq!(s.anagram_bonus, 10);
    }

    #[test]
    fn runs_go_up_without_a_gap_and_every_suffix_counts() {
        let mut g = Grid::new(4);
        g.write("t", 0);
        g.write("a", 0);
        // t a n down column 0: "tan" (3) and "an" (2).
        let s = g.score("n", 0, "n", 0, &lex(), Vertical::EveryRun);
        assert_eq!(s.longest_vertical, 3);
        let mut g = Grid::new(4);
        g.write("t", 0);
        g.write("x", 1);
        // A gap under t: column 0 holds nothing directly above the new row.
        assert!(g
            .vertical_words_at(0, b'a', &lex(), Vertical::EveryRun)
            .is_empty());
    }

    #[test]
    fn the_crossword_reading_counts_only_the_whole_column() {
        // The column f c d a, then m: every run ending at m counts
        // `dam` (and `am`); the crossword reading only `fcdam`, not a word.
        let lexicon = Lexicon::from_words("t", ["dam", "am", "ham", "cham", "ma"])
            .unwrap()
            .0;
        let mut g = Grid::new(3);
        for l in ["f", "c", "d", "a"] {
            g.write(l, 0);
        }
        let every = g.score("m", 0, "m", 0, &lexicon, Vertical::EveryRun);
        let words: Vec<&str> = every
            .vertical_words
            .iter()
            .map(|v| v.word.as_str())
            .collect();
        assert_eq!((words, every.longest_vertical), (vec!["am", "dam"], 3));
        let whole = g.score("m", 0, "m", 0, &lexicon, Vertical::WholeColumn);
        assert_eq!((whole.vertical_words.len(), whole.score), (0, 0));
        assert_eq!(g.vertical_table(&lexicon, Vertical::WholeColumn)[0][12], 0);
        assert_eq!(g.vertical_table(&lexicon, Vertical::EveryRun)[0][12], 3);
        // Where the whole run is a word, both readings count it.
        let mut g = Grid::new(3);
        for l in ["c", "h", "a"] {
            g.write(l, 0);
        }
        let whole = g.score("m", 0, "m", 0, &lexicon, Vertical::WholeColumn);
        let words: Vec<&str> = whole
            .vertical_words
            .iter()
            .map(|v| v.word.as_str())
            .collect();
        assert_eq!((words, whole.longest_vertical), (vec!["cham"], 4));
        // A letter with nothing above forms nothing in either reading.
        assert!(Grid::new(3)
            .vertical_words_at(0, b'a', &lexicon, Vertical::WholeColumn)
            .is_empty());
    }

    #[test]
    fn shares_are_multisets() {
        assert_eq!(shared("tact", "that"), (3, "tat".into()));
        assert_eq!(shared("cat", "dog").0, 0);
        assert!(
            is_anagram("act", "cat") && !is_anagram("cat", "cat") && !is_anagram("cat", "cats")
        );
    }

    #[test]
    fn grids_read_and_print() {
        let g = Grid::parse("tan....../........./", None).unwrap();
        assert_eq!((g.width(), g.rows()), (9, 1));
        assert_eq!(g.text(), "tan......");
        for bad in ["tan/ab", "t1n", "", "a"] {
            assert!(
                Grid::parse(bad, None)
                    .unwrap_err()
                    .to_string()
                    .contains("rows top to bottom"),
                "{bad}"
            );
        }
    }
}
