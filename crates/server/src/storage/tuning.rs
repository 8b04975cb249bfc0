//! What makes the SQLite writer cheaper than plain SQLite: [`log_writes`],
//! a VFS that writes a commit's log frames in one call, undone by
//! `sqlite://FILE?tuning=off` ([`super::DbUrl::SqlitePlain`]) so that what
//! it buys is measured beside plain SQLite in one run
//! (`scripts/bench-sqlite-tuning`; `docs/performance.md`, "The SQLite
//! tuning").
//!
//! | part | what it saves | what keeps it safe |
//! | --- | --- | --- |
//! | [`log_writes`]: a VFS that writes a commit's log frames in one call | about 40 `pwrite`s per group commit: without it the writer takes 15% more CPU per group commit of 32 actions | it only delays writes to a log until the commit frame, and any other call on the file (read, sync, size, lock, close) writes what it gathered first: SQLite sees the file as if every write had been made at once, and nothing is acknowledged before `COMMIT`'s sync, which comes after the gathered write |
//!
//! Two other parts were measured the same way and taken out, as they did
//! not earn their code: a wrapper of SQLite's page cache that skipped its
//! walk of the whole table at some truncates (3.5% of the writer's CPU,
//! within the spread of the runs; 338 lines, most of them `unsafe`), and
//! the writer's memory of live games' rows, so that an action need not
//! read its game's row (2.6% of the writer's CPU, half a percent of the
//! server's per action; 301 lines and a coherence rule with other
//! connections). The read is of a page the writer's 8 MiB cache holds.
//!
//! [`log_writes`] holds `unsafe` code (SQLite's C interfaces), each block
//! with the invariant it relies on. Its safety against a crash at any
//! moment is tested from outside: `tests/crash_storage.rs` kills the
//! store with `kill -9` two hundred times during group commits, passive
//! checkpoints and log restarts, then checks `PRAGMA integrity_check` and
//! that every acknowledged action is stored, in order; `tests/storage.rs`
//! runs the same storage suite on the tuned and the plain file.

pub(crate) mod log_writes;
