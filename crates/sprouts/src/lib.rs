//! Sprouts (Conway and Paterson) in the card formulation.
#![deny(missing_docs)]

pub mod canon;
pub mod moves;
pub mod position;
pub mod wgosa;

pub use canon::{canonical, labelled_key, Canonical};
pub use moves::{apply, legal_moves, successors, Move, MoveError};
pub use position::{ParseError, Position, PositionError, PositionTextError, Setup, Spot};
pub use wgosa::{describe, resolve, Record, RecordError, Replay, RuleError, WgosaMove, Winner};
