//! Positions in the card (boundary-list) notation: [`Setup`] is what was
//! written, [`Position`] is a setup whose every card was checked.
//!
//! A position is a list of **rows** (regions), a row a list of **stacks**
//! (boundaries), a stack a cyclic list of **cards** (spot occurrences),
//! written top card first: `,` between cards, `;` between stacks, `/`
//! between rows. `5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2` has four rows.
//!
//! Orientation: walking a stack from top to bottom keeps its row (region)
//! on the left. The card moves keep that convention, so every line of the
//! drawing is walked once in each direction (see [`PositionError::Unbalanced`]).

use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// A spot's number (a card's value). Positive.
pub type Spot = u32;

/// The longest position text accepted, in bytes, checked before any parsing.
pub const MAX_POSITION_LEN: usize = 8192;

/// The largest spot number accepted in a position.
pub const MAX_SPOT: Spot = 1_000_000;

/// A position as written, not yet checked against the rules (the parse of
/// the notation, and nothing more).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Rows, each a list of stacks, each a list of cards top first.
    pub rows: Vec<Vec<Vec<Spot>>>,
}

/// Malformed position text: the part that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read position: {reason} (at {part:?}); write cards as numbers, `,` between cards, `;` between stacks, `/` between rows, e.g. 1,3,2,3")]
pub struct ParseError {
    /// The offending part of the text (shortened when long).
    pub part: String,
    /// What was wrong with it.
    pub reason: String,
}

/// Well-formed text that no Sprouts drawing has: why the cards cannot stand
/// where they stand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A card with more than three copies on the table (a spot has three lives).
    #[error("spot {spot} has {copies} cards on the table; a spot has only three")]
    TooManyCopies {
        /// The spot.
        spot: Spot,
        /// How many cards of it were written.
        copies: usize,
    },
    /// A stack of one card is an isolated spot, which has no other occurrence.
    #[error("spot {spot} stands alone in a stack (an isolated spot) but also elsewhere")]
    LoneCardElsewhere {
        /// The spot.
        spot: Spot,
    },
    /// Two neighbouring cards of a stack are the same spot: a line never
    /// joins a spot to itself without a new spot in between.
    #[error("spot {spot} follows itself in stack {stack} of row {row}")]
    RepeatedNeighbour {
        /// The spot.
        spot: Spot,
        /// Row number from 1.
        row: usize,
        /// Stack number from 1 within the row.
        stack: usize,
    },
    /// One spot in two stacks of one row: a spot lies on one boundary of a region.
    #[error("spot {spot} is in two stacks of row {row}; a spot lies on one boundary of a region")]
    TwoStacksInRow {
        /// The spot.
        spot: Spot,
        /// Row number from 1.
        row: usize,
    },
    /// A line walked twice in one direction: every line is walked once each way.
    #[error("the line from {from} to {to} is walked {forward} times that way and {backward} times back; every line is walked once each way")]
    Unbalanced {
        /// One end.
        from: Spot,
        /// The other end.
        to: Spot,
        /// Walks from `from` to `to`.
        forward: usize,
        /// Walks from `to` to `from`.
        backward: usize,
    },
    /// The corners at a spot do not go once round it: its cards' neighbours
    /// in the stacks cannot be the order of its lines around it.
    #[error("the corners of spot {spot} do not go once round it")]
    Corners {
        /// The spot.
        spot: Spot,
    },
    /// A connected drawing with the wrong number of boundaries for its
    /// lines and spots (Euler's formula: boundaries = lines - spots + 2).
    #[error("the drawing through spot {spot} has {boundaries} boundaries, but its {lines} lines and {spots} spots make {expected}")]
    Euler {
        /// A spot of the drawing.
        spot: Spot,
        /// Boundaries written.
        boundaries: usize,
        /// Lines (edges) of the drawing.
        lines: usize,
        /// Spots of the drawing.
        spots: usize,
        /// Boundaries Euler's formula requires.
        expected: usize,
    },
    /// Rows and drawings that do not nest in the plane: one drawing with
    /// two boundaries in one region, or regions that do not hang together.
    #[error("the rows do not nest as regions of one plane drawing ({reason})")]
    NotPlanar {
        /// What is wrong.
        reason: String,
    },
    /// A row with no stack.
    #[error("row {row} is empty")]
    EmptyRow {
        /// Row number from 1.
        row: usize,
    },
    /// No spot at all.
    #[error("a position needs at least one spot")]
    Empty,
}

/// Either kind of refusal of a position text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// The text is not in the notation.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The text is in the notation but no drawing has these cards.
    #[error("impossible position: {0}")]
    Impossible(#[from] PositionError),
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        let head: String = s.chars().take(37).collect();
        format!("{head}...")
    } else {
        s.to_string()
    }
}

impl Setup {
    /// Parses the notation (no rule checks). Whitespace around cards is
    /// ignored.
    pub fn parse(text: &str) -> Result<Setup, ParseError> {
        if text.len() > MAX_POSITION_LEN {
            return Err(ParseError {
                part: shorten(text),
                reason: format!(
                    "the text is {} bytes long; at most {MAX_POSITION_LEN} are read",
                    text.len()
                ),
            });
        }
        let mut rows = Vec::new();
        for row_text in text.split('/') {
            let mut row = Vec::new();
            for stack_text in row_text.split(';') {
                let mut stack = Vec::new();
                for card_text in stack_text.split(',') {
                    let card = card_text.trim();
                    if card.is_empty() {
                        return Err(ParseError {
                            part: shorten(stack_text.trim()),
                            reason: "a card is missing (empty stack, row or text, or a doubled separator)".into(),
                        });
                    }
                    if !card.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(ParseError {
                            part: shorten(card),
                            reason: "a card is a spot number (digits only)".into(),
                        });
                    }
                    let value: Spot = match card.parse() {
                        Ok(v) if (1..=MAX_SPOT).contains(&v) => v,
                        _ => {
                            return Err(ParseError {
                                part: shorten(card),
                                reason: format!("spot numbers run from 1 to {MAX_SPOT}"),
                            })
                        }
                    };
                    stack.push(value);
                }
                row.push(stack);
            }
            rows.push(row);
        }
        Ok(Setup { rows })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rows(f, &self.rows)
    }
}

fn write_rows(f: &mut fmt::Formatter<'_>, rows: &[Vec<Vec<Spot>>]) -> fmt::Result {
    for (r, row) in rows.iter().enumerate() {
        if r > 0 {
            f.write_str("/")?;
        }
        for (s, stack) in row.iter().enumerate() {
            if s > 0 {
                f.write_str(";")?;
            }
            for (c, card) in stack.iter().enumerate() {
                if c > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{card}")?;
            }
        }
    }
    Ok(())
}

/// A checked position: every card stands where a Sprouts drawing can put it.
///
/// Invariants (checked by [`Position::from_setup`], kept by every move):
/// at most three cards per spot; a one-card stack is an isolated spot found
/// nowhere else; neighbouring cards differ; a spot lies in at most one stack
/// of a row; every line is walked once each way; each connected drawing
/// has the boundaries Euler's formula gives it, at most one per row; rows
/// and drawings nest as a tree, as regions of the plane do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rows: Vec<Vec<Vec<Spot>>>,
}

impl Position {
    /// The starting position with `n` isolated spots numbered `1..=n`, each
    /// its own stack, all in one row (`1;2;3` for three). With `n = 0`, the
    /// empty table: no row at all (and no move).
    pub fn start(n: u32) -> Position {
        if n == 0 {
            return Position { rows: Vec::new() };
        }
        Position {
            rows: vec![(1..=n).map(|s| vec![s]).collect()],
        }
    }

    /// How many cards are on the table (the size that move generation's
    /// work grows with).
    pub fn cards(&self) -> usize {
        self.rows.iter().flatten().map(Vec::len).sum()
    }

    /// Checks a setup against the rules.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        validate(&setup.rows)?;
        Ok(Position { rows: setup.rows })
    }

    /// Parses and checks position text.
    pub fn parse(text: &str) -> Result<Position, PositionTextError> {
        Ok(Position::from_setup(Setup::parse(text)?)?)
    }

    /// Builds a position from rows the caller knows to be valid (the moves).
    pub(crate) fn from_rows_unchecked(rows: Vec<Vec<Vec<Spot>>>) -> Position {
        debug_assert!(validate(&rows).is_ok(), "{rows:?}: {:?}", validate(&rows));
        Position { rows }
    }

    /// The rows: stacks of cards, top card first.
    pub fn rows(&self) -> &[Vec<Vec<Spot>>] {
        &self.rows
    }

    /// Every spot on the table, ascending.
    pub fn spots(&self) -> Vec<Spot> {
        let mut v: Vec<Spot> = self.rows.iter().flatten().flatten().copied().collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// How many cards of `spot` are on the table (0 if it is not there).
    pub fn copies(&self, spot: Spot) -> usize {
        self.rows
            .iter()
            .flatten()
            .flatten()
            .filter(|&&c| c == spot)
            .count()
    }

    /// How many lines end at `spot`: 0 for an isolated spot (a stack of
    /// one card), otherwise its number of cards.
    pub fn degree(&self, spot: Spot) -> usize {
        let mut n = 0;
        for stack in self.rows.iter().flatten() {
            if stack.len() == 1 && stack[0] == spot {
                return 0;
            }
            n += stack.iter().filter(|&&c| c == spot).count();
        }
        n
    }

    /// Lines `spot` may still take: 3 minus its degree (0 for a spot not
    /// on the table).
    pub fn lives(&self, spot: Spot) -> usize {
        if self.copies(spot) == 0 {
            0
        } else {
            3 - self.degree(spot).min(3)
        }
    }

    /// Every spot's lives at once (cheaper than [`Position::lives`] spot by
    /// spot): spots not on the table are absent.
    pub fn lives_map(&self) -> HashMap<Spot, usize> {
        let mut map: HashMap<Spot, usize> = HashMap::new();
        for stack in self.rows.iter().flatten() {
            if stack.len() == 1 {
                map.insert(stack[0], 3);
                continue;
            }
            for &c in stack {
                // Each card of a spot with lines is one line used.
                let e = map.entry(c).or_insert(3);
                *e = e.saturating_sub(1);
            }
        }
        map
    }

    /// Whether `spot` is on the table and may take another line.
    pub fn is_live(&self, spot: Spot) -> bool {
        self.lives(spot) > 0
    }

    /// Lives of all spots together: each move takes exactly one away
    /// (two from its ends, and the new spot brings one).
    pub fn total_lives(&self) -> usize {
        self.spots().into_iter().map(|s| self.lives(s)).sum()
    }

    /// The number the next new spot gets: one more than the largest on the
    /// table (in a game from `1..=n`, the WGOSA numbering `n+1, n+2, ...`).
    pub fn next_spot(&self) -> Spot {
        self.rows
            .iter()
            .flatten()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0)
            + 1
    }

    /// Live spots of row `row` (each once), ascending.
    pub fn live_in_row(&self, row: usize) -> Vec<Spot> {
        let mut v: Vec<Spot> = self.rows[row]
            .iter()
            .flatten()
            .copied()
            .filter(|&s| self.is_live(s))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Whether any move is left, without listing them: a row with two
    /// different live spots (they can be joined or a curve drawn between
    /// them), or one spot with two lives (a loop).
    pub fn has_move(&self) -> bool {
        (0..self.rows.len()).any(|r| {
            let live = self.live_in_row(r);
            live.len() >= 2 || live.iter().any(|&s| self.lives(s) >= 2)
        })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rows(f, &self.rows)
    }
}

impl std::str::FromStr for Position {
    type Err = PositionTextError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::parse(s)
    }
}

/// Union-find over dense indices.
pub(crate) struct Dsu(Vec<usize>);

impl Dsu {
    pub(crate) fn new(n: usize) -> Dsu {
        Dsu((0..n).collect())
    }
    pub(crate) fn find(&mut self, x: usize) -> usize {
        let mut r = x;
        while self.0[r] != r {
            r = self.0[r];
        }
        let mut y = x;
        while self.0[y] != r {
            let next = self.0[y];
            self.0[y] = r;
            y = next;
        }
        r
    }
    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a] = b;
        }
    }
}

/// The connected drawings of a position: for every stack `(row, index)`,
/// the number of its drawing (component), numbered densely from 0.
pub(crate) fn components(rows: &[Vec<Vec<Spot>>]) -> (Vec<Vec<usize>>, usize) {
    let mut index: HashMap<Spot, usize> = HashMap::new();
    for &c in rows.iter().flatten().flatten() {
        let n = index.len();
        index.entry(c).or_insert(n);
    }
    let mut dsu = Dsu::new(index.len());
    for stack in rows.iter().flatten() {
        for w in stack.windows(2) {
            dsu.union(index[&w[0]], index[&w[1]]);
        }
    }
    let mut dense: HashMap<usize, usize> = HashMap::new();
    let comp = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|stack| {
                    let root = dsu.find(index[&stack[0]]);
                    let n = dense.len();
                    *dense.entry(root).or_insert(n)
                })
                .collect()
        })
        .collect();
    (comp, dense.len())
}

fn validate(rows: &[Vec<Vec<Spot>>]) -> Result<(), PositionError> {
    if rows.is_empty() {
        return Err(PositionError::Empty);
    }
    for (r, row) in rows.iter().enumerate() {
        if row.is_empty() {
            return Err(PositionError::EmptyRow { row: r + 1 });
        }
    }
    let mut copies: BTreeMap<Spot, usize> = BTreeMap::new();
    for &c in rows.iter().flatten().flatten() {
        *copies.entry(c).or_default() += 1;
    }
    if let Some((&spot, &n)) = copies.iter().find(|(_, &n)| n > 3) {
        return Err(PositionError::TooManyCopies { spot, copies: n });
    }
    let mut directed: HashMap<(Spot, Spot), usize> = HashMap::new();
    for (r, row) in rows.iter().enumerate() {
        let mut seen: HashMap<Spot, usize> = HashMap::new();
        for (s, stack) in row.iter().enumerate() {
            if stack.len() == 1 && copies[&stack[0]] > 1 {
                return Err(PositionError::LoneCardElsewhere { spot: stack[0] });
            }
            for &c in stack {
                if let Some(&other) = seen.get(&c) {
                    if other != s {
                        return Err(PositionError::TwoStacksInRow {
                            spot: c,
                            row: r + 1,
                        });
                    }
                }
                seen.insert(c, s);
            }
            if stack.len() >= 2 {
                for i in 0..stack.len() {
                    let (a, b) = (stack[i], stack[(i + 1) % stack.len()]);
                    if a == b {
                        return Err(PositionError::RepeatedNeighbour {
                            spot: a,
                            row: r + 1,
                            stack: s + 1,
                        });
                    }
                    *directed.entry((a, b)).or_default() += 1;
                }
            }
        }
    }
    let mut pairs: Vec<_> = directed.iter().collect();
    pairs.sort();
    for (&(a, b), &n) in pairs {
        let back = directed.get(&(b, a)).copied().unwrap_or(0);
        if n != back {
            return Err(PositionError::Unbalanced {
                from: a,
                to: b,
                forward: n,
                backward: back,
            });
        }
    }
    // Around each spot, its corners (previous card -> next card at each of
    // its cards) must chain its neighbours into one round.
    let mut corners: HashMap<Spot, Vec<(Spot, Spot)>> = HashMap::new();
    for stack in rows.iter().flatten().filter(|s| s.len() >= 2) {
        let n = stack.len();
        for i in 0..n {
            corners
                .entry(stack[i])
                .or_default()
                .push((stack[(i + n - 1) % n], stack[(i + 1) % n]));
        }
    }
    let mut around: Vec<_> = corners.into_iter().collect();
    around.sort();
    for (spot, arcs) in around {
        let mut labels: Vec<Spot> = arcs.iter().flat_map(|&(a, b)| [a, b]).collect();
        labels.sort_unstable();
        labels.dedup();
        let mut dsu = Dsu::new(labels.len());
        let at = |x: Spot| labels.binary_search(&x).unwrap_or(0);
        for &(a, b) in &arcs {
            dsu.union(at(a), at(b));
        }
        let root = dsu.find(0);
        if (0..labels.len()).any(|i| dsu.find(i) != root) {
            return Err(PositionError::Corners { spot });
        }
    }
    // Euler per drawing, and the region/drawing tree.
    let (comp, ncomp) = components(rows);
    let mut walk = vec![0usize; ncomp];
    let mut boundaries = vec![0usize; ncomp];
    let mut spots: Vec<Vec<Spot>> = vec![Vec::new(); ncomp];
    let mut edges = std::collections::HashSet::new();
    for (r, row) in rows.iter().enumerate() {
        for (s, stack) in row.iter().enumerate() {
            let c = comp[r][s];
            boundaries[c] += 1;
            if stack.len() >= 2 {
                walk[c] += stack.len();
            }
            spots[c].extend(stack.iter().copied());
            if !edges.insert((r, c)) {
                return Err(PositionError::NotPlanar {
                    reason: format!(
                        "row {} holds two boundaries of the drawing through spot {}",
                        r + 1,
                        stack[0]
                    ),
                });
            }
        }
    }
    for c in 0..ncomp {
        spots[c].sort_unstable();
        spots[c].dedup();
        let lines = walk[c] / 2;
        let expected = (lines + 2).checked_sub(spots[c].len());
        if expected != Some(boundaries[c]) {
            return Err(PositionError::Euler {
                spot: spots[c][0],
                boundaries: boundaries[c],
                lines,
                spots: spots[c].len(),
                expected: expected.unwrap_or(0),
            });
        }
    }
    // Rows (0..R) and drawings (R..R+C) as a graph: a tree, as the regions
    // of a plane drawing and its connected pieces always are.
    let nodes = rows.len() + ncomp;
    if edges.len() + 1 != nodes {
        return Err(PositionError::NotPlanar {
            reason: format!(
                "{} rows and {} drawings need {} region-boundary links, not {}",
                rows.len(),
                ncomp,
                nodes - 1,
                edges.len()
            ),
        });
    }
    let mut dsu = Dsu::new(nodes);
    for &(r, c) in &edges {
        dsu.union(r, rows.len() + c);
    }
    let root = dsu.find(0);
    if (0..nodes).any(|n| dsu.find(n) != root) {
        return Err(PositionError::NotPlanar {
            reason: "some rows share no drawing with the others".into(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_documents_positions() {
        for text in [
            "1;2",
            "1,3,2,3",
            "4,1,3,2/4,2,3,1",
            "5,1,3,2,4/5,4,1/4,2,3,1",
            "5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2",
            "2,1/2,1",
        ] {
            let p = Position::parse(text).unwrap();
            assert_eq!(p.to_string(), text);
        }
    }

    #[test]
    fn lives_follow_the_cards() {
        let p = Position::parse("4,1,3,2/4,2,3,1").unwrap();
        assert_eq!(p.lives(1), 1);
        assert_eq!(p.lives(3), 1);
        assert_eq!(p.lives(4), 1);
        assert_eq!(p.lives(9), 0);
        assert_eq!(p.total_lives(), 4);
        let s = Position::start(3);
        assert_eq!(s.to_string(), "1;2;3");
        assert_eq!(s.total_lives(), 9);
        assert_eq!(s.next_spot(), 4);
    }

    #[test]
    fn malformed_text_names_the_part() {
        let e = Setup::parse("1,x;2").unwrap_err();
        assert_eq!(e.part, "x");
        let e = Setup::parse("1;;2").unwrap_err();
        assert!(e.reason.contains("missing"), "{e}");
        assert!(Setup::parse("0").is_err());
        assert!(Setup::parse(&"1,".repeat(5000))
            .unwrap_err()
            .reason
            .contains("bytes"));
    }

    #[test]
    fn impossible_positions_say_why() {
        let err = |t: &str| match Position::parse(t) {
            Err(PositionTextError::Impossible(e)) => e,
            other => panic!("{t}: {other:?}"),
        };
        assert!(matches!(
            err("1,2,1,2,1,2,1,2"),
            PositionError::TooManyCopies { spot: 1, copies: 4 }
        ));
        assert!(matches!(
            err("1;1,2"),
            PositionError::LoneCardElsewhere { spot: 1 }
        ));
        assert!(matches!(
            err("1,1"),
            PositionError::RepeatedNeighbour { .. }
        ));
        assert!(matches!(
            err("1,2;2,1"),
            PositionError::TwoStacksInRow { .. }
        ));
        assert!(matches!(err("1,2,3"), PositionError::Unbalanced { .. }));
        assert!(matches!(
            err("1,3,2,3/1,2"),
            PositionError::Corners { spot: 1 }
        ));
        assert!(matches!(err("1,2,1,2"), PositionError::Euler { .. }));
        assert!(matches!(err("1/2"), PositionError::NotPlanar { .. }));
    }
}
