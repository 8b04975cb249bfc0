//! The 2-D variant's geometry: strings on a square grid, crossings, holes.
//!
//! Strings lie on a grid of cells, horizontal (read left to right) or
//! vertical (read top to bottom). The first string is horizontal, its first
//! letter at row 0, column 0. Plays go to the newest string (the *active*
//! one); the others are finished words and never change.
//!
//! * A cell of the active string shared with another string is a
//!   *crossing*: it never moves. A letter inserted before the first
//!   crossing pushes the letters before it one cell back; after the last
//!   crossing, pushes the letters after it one cell on; no letter can be
//!   inserted between two crossings. With no crossing (the first string),
//!   the letters before the insertion point stay in place.
//! * Every cell of the active string must be empty of other strings or
//!   hold the same letter in a perpendicular string (a new crossing: this
//!   is how a shape closes).
//! * A new string starts across a letter of any string: that letter plus
//!   one letter just before or after it, in the other direction.
//! * A *hole* is a set of empty cells, connected by their sides, that cannot
//!   reach the outside of the bounding box of the occupied cells.
//!
//! ```
//! use parlor_wordsprout::board::Board;
//! let b = Board::new("oat");
//! let b = b.play("omat").unwrap();
//! assert_eq!(b.active().letters, "omat");
//! let b = b.cross(0, 1, 'a', true).unwrap(); // "am" down through the m
//! assert_eq!(b.active().letters, "am");
//! assert!(!b.has_hole());
//! ```

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet, VecDeque};

/// One string on the grid.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Line {
    /// Row of the first letter (rows grow downwards).
    pub row: i32,
    /// Column of the first letter.
    pub col: i32,
    /// Read top to bottom (else left to right).
    pub vertical: bool,
    /// The letters.
    pub letters: String,
}

impl Line {
    /// The cell of letter `i`.
    pub fn cell(&self, i: usize) -> (i32, i32) {
        if self.vertical {
            (self.row + i as i32, self.col)
        } else {
            (self.row, self.col + i as i32)
        }
    }
}

/// Why a 2-D play cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The new string is not the active one with letters inserted.
    #[error("{to:?} is not {from:?} with letters inserted")]
    NotAnInsertion {
        /// The active string.
        from: String,
        /// The string asked for.
        to: String,
    },
    /// Every placement collides with another string or moves a crossing.
    #[error("{to:?} does not fit on the grid: letters cannot go between two crossings or onto a different letter of another string")]
    Blocked {
        /// The string asked for.
        to: String,
    },
    /// No such string or letter.
    #[error("there is no letter {index} in string {line} (strings and letters number from 1)", line = .line.saturating_add(1), index = .index.saturating_add(1))]
    NoSuchLetter {
        /// The string, from 0.
        line: usize,
        /// The letter, from 0.
        index: usize,
    },
}

/// The grid: every string, the active (newest) one last.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// The strings in the order they were started.
    pub lines: Vec<Line>,
}

impl Board {
    /// A board with one horizontal string at row 0, column 0.
    pub fn new(letters: &str) -> Board {
        Board {
            lines: vec![Line {
                row: 0,
                col: 0,
                vertical: false,
                letters: letters.to_string(),
            }],
        }
    }

    /// The string plays go to.
    pub fn active(&self) -> &Line {
        self.lines.last().expect("a board has a string")
    }

    /// Letters of every string but the active one, by cell, with the
    /// direction of their string.
    fn others(&self) -> HashMap<(i32, i32), (u8, bool)> {
        let mut m = HashMap::new();
        for l in &self.lines[..self.lines.len() - 1] {
            for (i, c) in l.letters.bytes().enumerate() {
                m.insert(l.cell(i), (c, l.vertical));
            }
        }
        m
    }

    /// The board with the active string changed to `to` (letters inserted).
    pub fn play(&self, to: &str) -> Result<Board, BoardError> {
        let line = self.active();
        let from = line.letters.as_bytes();
        let t = to.as_bytes();
        if t.len() <= from.len() {
            return Err(BoardError::NotAnInsertion {
                from: line.letters.clone(),
                to: to.to_string(),
            });
        }
        let others = self.others();
        let anchors: Vec<usize> = (0..from.len())
            .filter(|&i| others.contains_key(&line.cell(i)))
            .collect();
        let mut found_embedding = false;
        // Every way of reading `from` inside `to`, leftmost first.
        let mut embeddings = Vec::new();
        embed(from, t, 0, 0, &mut Vec::new(), &mut embeddings);
        for map in embeddings {
            found_embedding = true;
            let shift = match anchors.first() {
                Some(&a) => map[a] as i32 - a as i32,
                None => 0,
            };
            if anchors.iter().any(|&a| map[a] as i32 - a as i32 != shift) {
                continue;
            }
            let mut next = line.clone();
            next.letters = to.to_string();
            if next.vertical {
                next.row -= shift;
            } else {
                next.col -= shift;
            }
            let fits = (0..t.len()).all(|j| match others.get(&next.cell(j)) {
                None => true,
                Some(&(c, vertical)) => c == t[j] && vertical != next.vertical,
            });
            if fits {
                let mut b = self.clone();
                *b.lines.last_mut().expect("a line") = next;
                return Ok(b);
            }
        }
        if !found_embedding {
            return Err(BoardError::NotAnInsertion {
                from: line.letters.clone(),
                to: to.to_string(),
            });
        }
        Err(BoardError::Blocked { to: to.to_string() })
    }

    /// The board with a new string across letter `index` of string `line`:
    /// that letter and `letter` just before it (`before`) or after it.
    pub fn cross(
        &self,
        line: usize,
        index: usize,
        letter: char,
        before: bool,
    ) -> Result<Board, BoardError> {
        let l = self
            .lines
            .get(line)
            .filter(|l| index < l.letters.len())
            .ok_or(BoardError::NoSuchLetter { line, index })?;
        let (r, c) = l.cell(index);
        let crossing = l.letters.as_bytes()[index] as char;
        let vertical = !l.vertical;
        let (row, col, letters) = match (vertical, before) {
            (true, true) => (r - 1, c, format!("{letter}{crossing}")),
            (true, false) => (r, c, format!("{crossing}{letter}")),
            (false, true) => (r, c - 1, format!("{letter}{crossing}")),
            (false, false) => (r, c, format!("{crossing}{letter}")),
        };
        let next = Line {
            row,
            col,
            vertical,
            letters,
        };
        let mut all: HashMap<(i32, i32), (u8, bool)> = HashMap::new();
        for l in &self.lines {
            for (i, ch) in l.letters.bytes().enumerate() {
                all.insert(l.cell(i), (ch, l.vertical));
            }
        }
        let t = next.letters.as_bytes();
        let fits = (0..2).all(|j| match all.get(&next.cell(j)) {
            None => true,
            Some(&(ch, v)) => ch == t[j] && v != vertical,
        });
        if !fits {
            return Err(BoardError::Blocked { to: next.letters });
        }
        let mut b = self.clone();
        b.lines.push(next);
        Ok(b)
    }

    /// Every occupied cell with its letter.
    pub fn cells(&self) -> HashMap<(i32, i32), u8> {
        let mut m = HashMap::new();
        for l in &self.lines {
            for (i, c) in l.letters.bytes().enumerate() {
                m.insert(l.cell(i), c);
            }
        }
        m
    }

    /// Whether some empty cells are enclosed (4-connectivity).
    pub fn has_hole(&self) -> bool {
        let cells = self.cells();
        if cells.len() < 4 {
            return false;
        }
        let (mut r0, mut c0, mut r1, mut c1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for &(r, c) in cells.keys() {
            r0 = r0.min(r);
            c0 = c0.min(c);
            r1 = r1.max(r);
            c1 = c1.max(c);
        }
        let (r0, c0, r1, c1) = (r0 - 1, c0 - 1, r1 + 1, c1 + 1);
        let mut seen: HashSet<(i32, i32)> = HashSet::new();
        let mut queue = VecDeque::from([(r0, c0)]);
        seen.insert((r0, c0));
        while let Some((r, c)) = queue.pop_front() {
            for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                let n = (r + dr, c + dc);
                if n.0 < r0
                    || n.0 > r1
                    || n.1 < c0
                    || n.1 > c1
                    || cells.contains_key(&n)
                    || !seen.insert(n)
                {
                    continue;
                }
                queue.push_back(n);
            }
        }
        let area = ((r1 - r0 + 1) as usize) * ((c1 - c0 + 1) as usize);
        seen.len() + cells.len() < area
    }

    /// The grid as text, one row a line, `.` for an empty cell.
    pub fn render(&self) -> String {
        let cells = self.cells();
        if cells.is_empty() {
            return String::new();
        }
        let r0 = cells.keys().map(|k| k.0).min().unwrap_or(0);
        let r1 = cells.keys().map(|k| k.0).max().unwrap_or(0);
        let c0 = cells.keys().map(|k| k.1).min().unwrap_or(0);
        let c1 = cells.keys().map(|k| k.1).max().unwrap_or(0);
        let mut out = String::new();
        for r in r0..=r1 {
            let row: Vec<String> = (c0..=c1)
                .map(|c| {
                    cells.get(&(r, c)).map_or(".".to_string(), |&ch| {
                        (ch as char).to_ascii_uppercase().to_string()
                    })
                })
                .collect();
            out.push_str(&row.join(" "));
            out.push('\n');
        }
        out
    }
}

/// Every increasing map of `from`'s letters into `to` (subsequence embeddings).
fn embed(
    from: &[u8],
    to: &[u8],
    i: usize,
    j: usize,
    cur: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if i == from.len() {
        out.push(cur.clone());
        return;
    }
    if out.len() > 64 {
        return;
    }
    let slack = to.len() - from.len();
    for k in j..=(i + slack).min(to.len() - 1) {
        if to[k] == from[i] {
            cur.push(k);
            embed(from, to, i + 1, k + 1, cur, out);
            cur.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insertions_keep_crossings_fixed() {
        let b = Board::new("abcde").cross(0, 2, 'x', false).unwrap(); // "cx" down from the c
        assert_eq!(b.active().letters, "cx");
        let b2 = b.play("ycx").unwrap(); // before the crossing: y goes up
        assert_eq!((b2.active().row, b2.active().col), (-1, 2));
        let b3 = b.play("cxz").unwrap();
        assert_eq!((b3.active().row, b3.active().col), (0, 2));
        // Onto a different letter of another string: blocked.
        let b4 = Board::new("abcde").cross(0, 0, 'q', false).unwrap();
        assert!(b4.play("aqz").is_ok());
        assert_eq!(b4.play("paq").unwrap().active().row, -1);
    }

    #[test]
    fn a_closed_ring_has_a_hole() {
        // abcde on row 0; "afg" down from a and "ehi" down from e; then a
        // row from the g towards the i.
        let mut b = Board::new("abcde");
        b = b.cross(0, 0, 'f', false).unwrap(); // a f (col 0, rows 0-1)
        b = b.play("afg").unwrap(); // rows 0-2
        b = b.cross(0, 4, 'h', false).unwrap(); // e h (col 4)
        b = b.play("ehi").unwrap();
        b = b.cross(1, 2, 'j', false).unwrap(); // g j on row 2
        assert!(!b.has_hole());
        b = b.play("gjk").unwrap();
        assert!(!b.has_hole());
        // Onto a different letter of another string: blocked.
        assert!(matches!(
            b.play("gjkm").and_then(|b| b.play("gjkmz")),
            Err(BoardError::Blocked { .. })
        ));
        // Touching the i of "ehi" side by side closes the ring.
        b = b.play("gjkl").unwrap();
        assert!(b.has_hole());
        assert!(b.render().contains("A B C D E"));
    }
}
