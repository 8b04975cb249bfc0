//! Segments, distances and crossings on the paper.
