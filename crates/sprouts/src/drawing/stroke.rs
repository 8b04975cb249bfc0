//! A player's stroke read as a move.
