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

struct Tree {
    rows: Vec<Vec<Vec<Spot>>>,
    /// For each drawing, its boundaries as (row, stack).
    comp_stacks: Vec<Vec<(usize, usize)>>,
    /// For each row, the drawings with a boundary in it.
    row_comps: Vec<Vec<usize>>,
    /// Keep spot numbers (no renumbering): [`labelled_key`].
    labelled: bool,
}

impl Tree {
    fn new(rows: Vec<Vec<Vec<Spot>>>) -> Tree {
        let (comp, n) = components(&rows);
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

/// The canonical form of `position`, every card counted.
pub fn canonical(position: &Position) -> Canonical {
    Canonical(root_key(&Tree::new(position.rows().to_vec())))
}

/// The rows without the stacks whose spots are all dead (and without rows
/// left empty): no move can ever touch such a stack, so where it lies does
/// not change the game.
fn live_rows(position: &Position) -> Vec<Vec<Vec<Spot>>> {
    let lives = position.lives_map();
    let live = |c: Spot| lives.get(&c).is_some_and(|&l| l > 0);
    position
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .filter(|st| st.iter().any(|&c| live(c)))
                .cloned()
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect()
}

/// The canonical form of `position` with its dead boundaries left out (see
/// [`live_rows`]): equal for positions that are the same game up to the
/// symmetries of [`canonical`] and the place of boundaries whose spots are
/// all dead. The move generator identifies moves by it.
pub fn canonical_reduced(position: &Position) -> Canonical {
    Canonical(root_key(&Tree::new(live_rows(position))))
}

/// The key of a forest of region/drawing trees (a position is one tree;
/// leaving dead boundaries out can split it): each tree from its centre,
/// the trees sorted.
fn root_key(tree: &Tree) -> String {
    let rows = tree.rows.len();
    let ncomp = tree.comp_stacks.len();
    // Rows are nodes 0..rows, drawings rows..rows+ncomp.
    let nodes = rows + ncomp;
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); nodes];
    let mut dsu = crate::position::Dsu::new(nodes);
    for (r, cs) in tree.row_comps.iter().enumerate() {
        for &c in cs {
            adj[r].push(rows + c);
            adj[rows + c].push(r);
            dsu.union(r, rows + c);
        }
    }
    let mut pieces: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for n in 0..nodes {
        pieces.entry(dsu.find(n)).or_default().push(n);
    }
    let mut keys: Vec<String> = Vec::new();
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut removed = vec![false; nodes];
    for piece in pieces.values() {
        // The centre: peel leaves, a layer at a time.
        let mut left = piece.len();
        let mut layer: Vec<usize> = piece.iter().copied().filter(|&n| degree[n] <= 1).collect();
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
        let centres: Vec<usize> = piece.iter().copied().filter(|&n| !removed[n]).collect();
        // Two centres are a row and a drawing: root at the drawing.
        keys.push(match centres.iter().find(|&&n| n >= rows) {
            Some(&c) => format!("C{}", tree.drawing(c - rows, None)),
            None => format!("R{}", tree.region(centres[0], None)),
        });
    }
    keys.sort();
    keys.concat()
}

/// For each stack of row `row`, the canonical key of its drawing and of
/// everything hanging off it away from the row: stacks with equal keys are
/// interchangeable in moves made in that row.
pub(crate) fn branch_keys(position: &Position, row: usize) -> Vec<String> {
    let tree = Tree::new(position.rows().to_vec());
    let (comp, _) = components(position.rows());
    comp[row]
        .iter()
        .map(|&c| tree.drawing(c, Some(row)))
        .collect()
}

/// A key equal for positions that differ only by cuts, the order of rows
/// and stacks, mirroring, and dead spots, spot numbers kept: the identity
/// of a drawing in a game record, where numbers matter and, as the
/// notation says, dead spots do not change which drawing is meant.
///
/// Every dead card is taken out (then empty stacks and rows); what is left
/// is, for each region, the cyclic order of the live corners round each
/// boundary, which is all a move can use. Pieces linked by shared live
/// spots are mirrored as one; pieces whose mirror image is themselves are
/// tried both ways (up to ten of them; beyond, they keep their written
/// orientation, which can only make two equal drawings look different).
pub fn labelled_key(position: &Position) -> String {
    let lives = position.lives_map();
    let live = |c: Spot| lives.get(&c).is_some_and(|&l| l > 0);
    let rows: Vec<Vec<Vec<Spot>>> = position
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .map(|st| st.iter().copied().filter(|&c| live(c)).collect::<Vec<_>>())
                .filter(|st| !st.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect();
    let least = |v: &[Spot], mirror: bool| -> Vec<Spot> {
        let mut v = v.to_vec();
        if mirror {
            v.reverse();
        }
        (0..v.len())
            .map(|i| {
                let mut w = v.clone();
                w.rotate_left(i);
                w
            })
            .min()
            .unwrap_or_default()
    };
    if rows.is_empty() {
        return "[]".into();
    }
    let (comp, n) = components(&rows);
    // Each piece's orientation where its two images differ; the rest tied.
    let mut fixed: Vec<Option<bool>> = vec![Some(false); n];
    for (c, slot) in fixed.iter_mut().enumerate() {
        let mut fwd = Vec::new();
        let mut rev = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (s, st) in row.iter().enumerate() {
                if comp[r][s] == c {
                    fwd.push(least(st, false));
                    rev.push(least(st, true));
                }
            }
        }
        // A piece whose every boundary reads the same both ways round is
        // its own mirror image, boundary by boundary: nothing to choose.
        if fwd == rev {
            continue;
        }
        fwd.sort();
        rev.sort();
        *slot = match fwd.cmp(&rev) {
            std::cmp::Ordering::Less => Some(false),
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Equal => None,
        };
    }
    let tied: Vec<usize> = (0..n).filter(|&c| fixed[c].is_none()).take(10).collect();
    let mut best: Option<String> = None;
    for mask in 0..(1u32 << tied.len()) {
        let mut mirror: Vec<bool> = fixed.iter().map(|f| f.unwrap_or(false)).collect();
        for (bit, &c) in tied.iter().enumerate() {
            mirror[c] = mask & (1 << bit) != 0;
        }
        let mut out: Vec<Vec<Vec<Spot>>> = rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                let mut stacks: Vec<Vec<Spot>> = row
                    .iter()
                    .enumerate()
                    .map(|(s, st)| least(st, mirror[comp[r][s]]))
                    .collect();
                stacks.sort();
                stacks
            })
            .collect();
        out.sort();
        let key = format!("{out:?}");
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    best.unwrap_or_default()
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
        // The place of a boundary of dead spots only counts in the full form.
        let a = Position::parse("4,1;2;3/5,4,1/5,1,4").unwrap();
        let b = Position::parse("4,1;2/5,4,1/5,1,4;3").unwrap();
        assert_ne!(canonical(&a), canonical(&b));
        let a = Position::parse("6,2;4,1;3/5,4,1/5,1,4/6,2").unwrap();
        let b = Position::parse("6,2;3/5,4,1/5,1,4/6,2;4,1").unwrap();
        assert_ne!(canonical(&a), canonical(&b));
        assert_eq!(canonical_reduced(&a), canonical_reduced(&b));
        assert_eq!(labelled_key(&a), labelled_key(&b));
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
