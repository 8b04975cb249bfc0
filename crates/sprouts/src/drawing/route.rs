//! A curve found for a move given without one.
