//! The game's drawing: where every spot is on the paper and the curve of
//! every line, so that players, spectators and replays all see one picture.
//!
//! The paper is [`W`] by [`H`] units, y growing downwards (as a screen
//! shows it); a boundary of the card notation is walked with its region on
//! the viewer's left. A move comes either with the curve a player drew
//! ([`stroke`]: the curve decides the move) or without one (a bot, the API,
//! a WGOSA record), and then [`route`] finds a curve for it. Either way
//! [`structure::read_back`] reads the drawing back as the card notation,
//! and a drawing is kept only if it reads back as the game's position.
//!
//! | module | what |
//! | --- | --- |
//! | [`geometry`] | segments, distances, crossings |
//! | [`structure`] | [`structure::read_back`], a whole position laid out from its structure |
//! | [`route`] | a curve found for a move given without one |
//! | [`stroke`] | a player's stroke read as a move |

pub mod geometry;
pub mod route;
pub mod stroke;
pub mod structure;

use crate::position::Spot;

/// Width of the paper, in drawing units.
pub const W: f64 = 960.0;
/// Height of the paper, in drawing units.
pub const H: f64 = 640.0;

/// A point on the paper.
pub type Pt = [f64; 2];

/// Regions of stacks of cards: a position's rows as plain numbers.
pub type Rows = Vec<Vec<Vec<Spot>>>;

/// One line of the drawing: a polyline from spot `a` to spot `b`, its first
/// point at `a` and its last at `b`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Line {
    /// The spot it starts at.
    pub a: Spot,
    /// The spot it ends at.
    pub b: Spot,
    /// Its points, from `a` to `b`.
    pub pts: Vec<Pt>,
    /// The move (from 0) that drew it.
    #[serde(rename = "move")]
    pub by_move: usize,
}

/// The drawing as a viewer is sent it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Picture {
    /// Where each spot is.
    pub spots: std::collections::BTreeMap<Spot, Pt>,
    /// Every line, two per move.
    pub lines: Vec<Line>,
    /// Lines no planar way of drawing was found for, shown apart from the
    /// picture (a page draws them dashed); none in a picture that reads
    /// back as its position.
    pub unplaced: Vec<Line>,
    /// The moves (from 0) whose lines are drawn only approximately.
    pub approximate: Vec<usize>,
}
