//! What makes the SQLite writer cheaper than plain SQLite, in three parts,
//! each undone by `sqlite://FILE?tuning=off` ([`super::DbUrl::SqlitePlain`])
//! so that what it buys can be measured beside plain SQLite in one run
//! (`docs/performance.md`, "The SQLite tuning").
//!
//! | part | what it saves (nim's load, measured when it was added) | what keeps it safe |
//! | --- | --- | --- |
//! | [`log_writes`]: a VFS that writes a commit's log frames in one call | about 40 `pwrite`s per group commit, a quarter of the writer's time | it only delays writes to a log until the commit frame, and any other call on the file (read, sync, size, lock, close) writes what it gathered first: SQLite sees the file as if every write had been made at once, and nothing is acknowledged before `COMMIT`'s sync, which comes after the gathered write |
//! | [`page_cache`]: SQLite's page cache without its walk of the whole table at every truncate | a tenth of the writer's time | a truncate is skipped only past the highest page ever really cached, where SQLite's own cache has nothing to drop; every other call goes to SQLite's cache |
//! | [`known_rows`]: what the writer knows of live games' rows | reading the game's row for every action, about 5% of the server's CPU | only what the file holds is remembered: learned in a transaction, kept once it commits, dropped when it rolls back, everything forgotten when another connection commits (`data_version`) |
//!
//! Together they take a sixth off the writer's CPU and a tenth off its
//! wall time per group commit, measured beside plain SQLite in one run
//! (`benches/sqlite_writer.rs`: 32 actions, 530 against 634 µs of CPU,
//! 933 against 1,027 µs of wall time with `synchronous = FULL`).
//!
//! Only [`log_writes`] and [`page_cache`] hold `unsafe` code (SQLite's C
//! interfaces), each block with the invariant it relies on. Their safety
//! against a crash at any moment is tested from outside:
//! `tests/crash_storage.rs` kills the store with `kill -9` two hundred
//! times during group commits, passive checkpoints and log restarts, then
//! checks `PRAGMA integrity_check` and that every acknowledged action is
//! stored, in order; `tests/storage.rs` runs the same storage suite on the
//! tuned and the plain file.

pub(crate) mod known_rows;
pub(crate) mod log_writes;
pub(crate) mod page_cache;
