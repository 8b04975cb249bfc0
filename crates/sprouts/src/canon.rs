//! Canonical forms: one key per class of equivalent positions.
//!
//! Two positions are equivalent when one becomes the other by cutting
//! stacks (rotations), renumbering spots, reordering rows and the stacks of
//! a row, and mirroring. Mirroring is allowed per connected drawing, not
//! only for the whole table: a drawing lying in a region can be flipped
//! over on its own without changing any move, so this is still an
//! equivalence of games, and a coarser one.
//!
//! # How
//!
//! The regions (rows) and the connected drawings of a plane position form
//! a tree: a drawing is linked to each row holding one of its boundaries.
//! [`canonical`] roots that tree at its centre and writes it bottom up, as
//! for unlabelled trees: a region is the sorted list of the drawings
//! hanging in it; a drawing is the least of its serialisations over
//! mirroring, starting boundary and starting card, each boundary followed
//! by the key of what hangs off it. Inside a drawing, spots are numbered in
//! order of first appearance and the next boundary written is one holding
//! the lowest-numbered spot not yet exhausted, branching only where that
//! choice is open; so the work stays small except for very symmetric
//! drawings.

use crate::position::{components, Position, Spot};
use std::collections::HashMap;
use std::fmt;

/// The canonical form of a position: equal exactly for equivalent
/// positions (see the module documentation). Opaque, ordered, hashable, printable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Canonical(String);

impl Canonical {
    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Canonical {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

struct Tree<'a> {
    rows: &'a [Vec<Vec<Spot>>],
    /// For each drawing, its boundaries as (row, stack).
    comp_stacks: Vec<Vec<(usize, usize)>>,
    /// For each row, the drawings with a boundary in it.
    row_comps: Vec<Vec<usize>>,
    /// Keep spot numbers (no renumbering): [`labelled_key`].
    labelled: bool,
}

impl<'a> Tree<'a> {
    fn new(p: &'a Position) -> Tree<'a> {
        let rows = p.rows();
        let (comp, n) = components(rows);
        let mut comp_stacks = vec![Vec::new(); n];
        let mut row_comps = vec![Vec::new(); rows.len()];
        for (r, row) in comp.iter().enumerate() {
            for (s, &c) in row.iter().enumerate() {
                comp_stacks[c].push((r, s));
                row_comps[r].push(c);
            }
        }
        Tree {
            rows,
            comp_stacks,
            row_comps,
            labelled: false,
        }
    }

    fn region(&self, row: usize, parent: Option<usize>) -> String {
        let mut keys: Vec<String> = self.row_comps[row]
            .iter()
            .filter(|&&c| Some(c) != parent)
            .map(|&c| self.drawing(c, Some(row)))
            .collect();
        keys.sort();
        format!("({})", keys.concat())
    }

    fn drawing(&self, c: usize, entry: Option<usize>) -> String {
        let bounds = &self.comp_stacks[c];
        let notes: Vec<String> = bounds
            .iter()
            .map(|&(r, _)| {
                if Some(r) == entry {
                    "^".to_string()
                } else {
                    self.region(r, Some(c))
                }
            })
            .collect();
        let mut best: Option<String> = None;
        if self.labelled {
            // Numbers kept: each boundary from its least card sequence,
            // boundaries sorted, the lesser mirror image.
            for mirror in [false, true] {
                let mut items: Vec<String> = bounds
                    .iter()
                    .zip(&notes)
                    .map(|(&(r, s), note)| {
                        let mut v = self.rows[r][s].clone();
                        if mirror {
                            v.reverse();
                        }
                        let least = (0..v.len())
                            .map(|i| {
                                let mut w = v.clone();
                                w.rotate_left(i);
                                w
                            })
                            .min()
                            .unwrap_or_default();
                        format!("{least:?}{note}")
                    })
                    .collect();
                items.sort();
                let item = items.concat();
                if best.as_ref().is_none_or(|b| item < *b) {
                    best = Some(item);
                }
            }
            return format!("{{{}}}", best.unwrap_or_default());
        }
        for mirror in [false, true] {
            let seqs: Vec<Vec<Spot>> = bounds
                .iter()
                .map(|&(r, s)| {
                    let mut v = self.rows[r][s].clone();
                    if mirror {
                        v.reverse();
                    }
                    v
                })
                .collect();
            let mut search = Search {
                seqs: &seqs,
                notes: &notes,
                labels: HashMap::new(),
                order: Vec::new(),
                done: vec![false; seqs.len()],
                out: String::new(),
                best: &mut best,
            };
            for b in 0..seqs.len() {
                if entry.is_some() && Some(bounds[b].0) != entry {
                    continue;
                }
                for start in 0..seqs[b].len() {
                    search.write(b, start);
                }
            }
        }
        format!("{{{}}}", best.unwrap_or_default())
    }
}

struct Search<'s> {
    seqs: &'s [Vec<Spot>],
    notes: &'s [String],
    labels: HashMap<Spot, usize>,
    order: Vec<Spot>,
    done: Vec<bool>,
    out: String,
    best: &'s mut Option<String>,
}

impl Search<'_> {
    /// Writes boundary `b` from card `start`, then the rest, keeping the least.
    fn write(&mut self, b: usize, start: usize) {
        let (out_len, order_len) = (self.out.len(), self.order.len());
        let seq = &self.seqs[b];
        self.out.push('[');
        for i in 0..seq.len() {
            let spot = seq[(start + i) % seq.len()];
            let n = self.order.len();
            let label = *self.labels.entry(spot).or_insert(n);
            if label == n {
                self.order.push(spot);
            }
            if i > 0 {
                self.out.push(',');
            }
            self.out.push_str(&label.to_string());
        }
        self.out.push(']');
        self.out.push_str(&self.notes[b]);
        self.done[b] = true;
        let worse = match self.best.as_deref() {
            Some(best) => {
                let n = self.out.len().min(best.len());
                self.out.as_bytes()[..n] > best.as_bytes()[..n]
            }
            None => false,
        };
        if !worse {
            self.next();
        }
        self.done[b] = false;
        for spot in self.order.drain(order_len..) {
            self.labels.remove(&spot);
        }
        self.out.truncate(out_len);
    }

    /// Chooses the next boundary: those holding the lowest-numbered spot
    /// that still has an unwritten boundary, from each of its cards.
    fn next(&mut self) {
        for li in 0..self.order.len() {
            let spot = self.order[li];
            let mut choices = Vec::new();
            for (b, seq) in self.seqs.iter().enumerate() {
                if !self.done[b] {
                    for (i, &c) in seq.iter().enumerate() {
                        if c == spot {
                            choices.push((b, i));
                        }
                    }
                }
            }
            if !choices.is_empty() {
                for (b, i) in choices {
                    self.write(b, i);
                }
                return;
            }
        }
        // Everything written (a drawing is connected through its spots).
        if self.done.iter().all(|&d| d)
            && self
                .best
                .as_deref()
                .is_none_or(|best| self.out.as_str() < best)
        {
            *self.best = Some(self.out.clone());
        }
    }
}

/// The canonical form of `position`.
pub fn canonical(position: &Position) -> Canonical {
    Canonical(root_key(&Tree::new(position)))
}

fn root_key(tree: &Tree) -> String {
    let rows = tree.rows.len();
    let ncomp = tree.comp_stacks.len();
    // Centre of the tree (rows 0..rows, drawings rows..): peel leaves.
    let nodes = rows + ncomp;
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); nodes];
    for (r, cs) in tree.row_comps.iter().enumerate() {
        for &c in cs {
            adj[r].push(rows + c);
            adj[rows + c].push(r);
        }
    }
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut left = nodes;
    let mut layer: Vec<usize> = (0..nodes).filter(|&n| degree[n] <= 1).collect();
    let mut removed = vec![false; nodes];
    while left > 2 {
        let mut next = Vec::new();
        for &n in &layer {
            removed[n] = true;
            left -= 1;
            for &m in &adj[n] {
                if !removed[m] {
                    degree[m] -= 1;
                    if degree[m] == 1 {
                        next.push(m);
                    }
                }
            }
        }
        layer = next;
    }
    let centres: Vec<usize> = (0..nodes).filter(|&n| !removed[n]).collect();
    // Two centres are a row and a drawing: root at the drawing.
    match centres.iter().find(|&&n| n >= rows) {
        Some(&c) => format!("C{}", tree.drawing(c - rows, None)),
        None => format!("R{}", tree.region(centres[0], None)),
    }
}

/// For each stack of row `row`, the canonical key of its drawing and of
/// everything hanging off it away from the row: stacks with equal keys are
/// interchangeable in moves made in that row.
pub(crate) fn branch_keys(position: &Position, row: usize) -> Vec<String> {
    let tree = Tree::new(position);
    let (comp, _) = components(position.rows());
    comp[row]
        .iter()
        .map(|&c| tree.drawing(c, Some(row)))
        .collect()
}

/// A key equal for positions that differ only by cuts, the order of rows
/// and stacks, and mirroring of connected drawings, spot numbers kept: the
/// identity of a drawing in a game record, where numbers matter. Built
/// like [`canonical`], with the numbers as written instead of renumbering.
pub fn labelled_key(position: &Position) -> String {
    let mut tree = Tree::new(position);
    tree.labelled = true;
    root_key(&tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(t: &str) -> Canonical {
        canonical(&Position::parse(t).unwrap())
    }

    #[test]
    fn equal_up_to_cuts_order_numbers_and_mirror() {
        assert_eq!(c("1,3,2,3"), c("3,1,3,2"));
        assert_eq!(c("1;2"), c("2;1"));
        assert_eq!(c("4,1,3,2/4,2,3,1"), c("2,3,1,4/1,3,2,4"));
        // Renumbered 1<->5 and mirrored.
        assert_eq!(
            c("5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2"),
            c("4,2,3,5,1/5,4,1/3,2,6/2,4,5,3,6")
        );
    }

    #[test]
    fn different_positions_differ() {
        assert_ne!(c("1;2"), c("1;2;3"));
        // Inside and outside of a loop are alike: only the split counts.
        assert_eq!(c("3,1/3,1;2"), c("3,1;2/3,1"));
        assert_ne!(c("4,1/4,1;2;3"), c("4,1;2/4,1;3"));
        assert_ne!(c("1,3,2,3"), c("4,1,3,2/4,2,3,1"));
    }

    #[test]
    fn labelled_key_keeps_numbers() {
        let k = |t: &str| labelled_key(&Position::parse(t).unwrap());
        assert_eq!(k("1,3,2,3"), k("2,3,1,3"));
        assert_ne!(k("3,1/3,1;2"), k("3,2/3,2;1"));
        // The same drawing mirrored, numbers kept.
        assert_eq!(k("4,1,3,2/4,2,3,1"), k("2,3,1,4/1,3,2,4"));
        // Which of two mirror-image boundaries holds the other drawing.
        assert_eq!(k("16,6,14;2,5/16,14,6/14,6"), k("16,6,14/16,14,6;2,5/14,6"));
    }
}
