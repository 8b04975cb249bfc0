//! A curve found for a move given without one.
//!
//! The picture is drawn again from the position after the move when it
//! lays out exactly ([`super::structure::layout_position`]); otherwise the
//! move's line is drawn apart from the picture, straight, and flagged
//! approximate, until a later move makes the picture exact again.

use std::collections::BTreeMap;

use super::geometry::crossings;
use super::structure::{layout_position, oriented_key, read_back, LayoutOptions};
use super::{Line, Picture, Pt, H, W};
use crate::position::{Position, Spot};

/// The game's picture, move by move.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// Starting spots.
    pub n: u32,
    /// Where each spot is.
    pub spots: BTreeMap<Spot, Pt>,
    /// Every line of the picture, two per move.
    pub lines: Vec<Line>,
    /// The moves drawn so far, as written.
    pub moves: Vec<String>,
    /// Moves (from 0) drawn only approximately.
    pub approximate: Vec<usize>,
    /// Lines drawn apart from the picture (they would cross it).
    pub unplaced: Vec<Line>,
    /// Moves after which the whole picture was drawn again.
    pub redrawn: Vec<usize>,
}

impl Drawing {
    /// `n` starting spots on a loose grid (a circle leaves the middle empty
    /// and crowds the edges as lines go round it).
    pub fn new(n: u32, _variant: u32) -> Drawing {
        let cols = ((f64::from(n) * 1.5).sqrt()).ceil().max(1.0) as u32;
        let rows = n.div_ceil(cols);
        let mut spots = BTreeMap::new();
        for k in 0..n {
            let (r, c) = (k / cols, k % cols);
            let in_row = if r == rows - 1 { n - r * cols } else { cols };
            let x = W * f64::from(c + 1) / f64::from(in_row + 1);
            let y = H * f64::from(r + 1) / f64::from(rows + 1);
            spots.insert(k + 1, [x.round(), y.round()]);
        }
        Drawing {
            n,
            spots,
            lines: Vec::new(),
            moves: Vec::new(),
            approximate: Vec::new(),
            unplaced: Vec::new(),
            redrawn: Vec::new(),
        }
    }

    /// A position laid out from its structure alone, if it can be.
    pub fn from_position(position: &Position) -> Option<Drawing> {
        let (spots, mut lines) = layout_position(position.rows(), W, H, &LayoutOptions::default())?;
        if !crossings(&spots, &lines).is_empty()
            || oriented_key(&read_back(&spots, &lines)) != oriented_key(position.rows())
        {
            return None;
        }
        let n = spots.len() as u32;
        for l in &mut lines {
            l.by_move = 0;
        }
        let mut d = Drawing::new(0, 0);
        d.n = n;
        d.spots = spots;
        d.lines = lines;
        Some(d)
    }

    /// Draws the move written `text`, after which the position is
    /// `expected`. False if it could be drawn only approximately.
    pub fn apply(&mut self, text: &str, expected: Option<&Position>) -> bool {
        let index = self.moves.len();
        self.moves.push(text.to_string());
        if let Some(after) = expected {
            if self.redraw(after) {
                self.redrawn.push(index);
                self.approximate.clear();
                self.unplaced.clear();
                return true;
            }
        }
        self.approximate.push(index);
        // Apart from the picture: the new spot beside the first end.
        let g = self.n + index as u32 + 1;
        let ends = expected
            .and_then(|after| {
                after
                    .rows()
                    .iter()
                    .flatten()
                    .find_map(|st| neighbours(st, g))
            })
            .unwrap_or((1, 1));
        let (pa, pb) = (
            self.spots
                .get(&ends.0)
                .copied()
                .unwrap_or([W / 2.0, H / 2.0]),
            self.spots
                .get(&ends.1)
                .copied()
                .unwrap_or([W / 2.0, H / 2.0]),
        );
        let mid = [
            ((pa[0] + pb[0]) / 2.0).round(),
            ((pa[1] + pb[1]) / 2.0 + 24.0).round().min(H),
        ];
        self.spots.insert(g, mid);
        for (a, b, pts) in [(ends.0, g, vec![pa, mid]), (g, ends.1, vec![mid, pb])] {
            self.unplaced.push(Line {
                a,
                b,
                pts,
                by_move: index,
            });
        }
        false
    }

    /// The whole picture drawn again from `position`, if it lays out
    /// exactly.
    fn redraw(&mut self, position: &Position) -> bool {
        let Some(d) = Drawing::from_position(position) else {
            return false;
        };
        let n = self.n;
        self.spots = d.spots;
        self.lines = d.lines;
        for l in &mut self.lines {
            // Every line touches the spot its move made, the newer end.
            l.by_move = (l.a.max(l.b).saturating_sub(n + 1)) as usize;
        }
        true
    }

    /// Adds a move whose line a player drew: `lines` from its first end to
    /// the new spot `g` at `spot`, and on to its other end.
    pub fn add_drawn(&mut self, text: &str, g: Spot, spot: Pt, lines: [Line; 2]) {
        self.moves.push(text.to_string());
        self.spots.insert(g, spot);
        self.lines.extend(lines);
    }

    /// The picture as a viewer is sent it.
    pub fn picture(&self) -> Picture {
        Picture {
            spots: self.spots.clone(),
            lines: self.lines.clone(),
            unplaced: self.unplaced.clone(),
            approximate: self.approximate.clone(),
        }
    }
}

/// The two spots beside `g` on a boundary, if `g` is on it.
fn neighbours(stack: &[Spot], g: Spot) -> Option<(Spot, Spot)> {
    let i = stack.iter().position(|&c| c == g)?;
    let n = stack.len();
    Some((stack[(i + n - 1) % n], stack[(i + 1) % n]))
}
