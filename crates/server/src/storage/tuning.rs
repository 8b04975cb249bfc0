//! What makes the SQLite writer cheaper than plain SQLite, in three parts,
//! each chosen on its own by `sqlite://FILE?tuning=...` ([`Tuning`],
//! [`super::DbUrl::SqliteTuning`]; `tuning=off` is plain SQLite) so that
//! what each buys can be measured beside plain SQLite in one run
//! (`docs/performance.md`, "The SQLite tuning").
//!
//! | part | what it saves (nim's load, measured when it was added) | what keeps it safe |
//! | --- | --- | --- |
//! | [`log_writes`]: a VFS that writes a commit's log frames in one call | about 40 `pwrite`s per group commit, a quarter of the writer's time | it only delays writes to a log until the commit frame, and any other call on the file (read, sync, size, lock, close) writes what it gathered first: SQLite sees the file as if every write had been made at once, and nothing is acknowledged before `COMMIT`'s sync, which comes after the gathered write |
//! | [`known_rows`]: what the writer knows of live games' rows | reading the game's row for every action, about 5% of the server's CPU | only what the file holds is remembered: learned in a transaction, kept once it commits, dropped when it rolls back, everything forgotten when another connection commits (`data_version`) |
//!
//! Together they take a sixth off the writer's CPU and a tenth off its
//! wall time per group commit, measured beside plain SQLite in one run
//! (`benches/sqlite_writer.rs`: 32 actions, 530 against 634 µs of CPU,
//! 933 against 1,027 µs of wall time with `synchronous = FULL`).
//!
//! Only [`log_writes`] holds `unsafe` code (SQLite's C
//! interfaces), each block with the invariant it relies on. Their safety
//! against a crash at any moment is tested from outside:
//! `tests/crash_storage.rs` kills the store with `kill -9` two hundred
//! times during group commits, passive checkpoints and log restarts, then
//! checks `PRAGMA integrity_check` and that every acknowledged action is
//! stored, in order; `tests/storage.rs` runs the same storage suite on the
//! tuned and the plain file.

pub(crate) mod known_rows;
pub(crate) mod log_writes;

/// Which parts of the tuning an SQLite connection uses: all of them to
/// serve, fewer to measure what each buys (`sqlite://FILE?tuning=...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Writes a commit's log frames in one call ([`log_writes`]).
    pub log_writes: bool,
    /// Remembers live games' rows ([`known_rows`]).
    pub known_rows: bool,
}

impl Tuning {
    /// Every part: how the server runs.
    pub const ALL: Tuning = Tuning {
        log_writes: true,
        known_rows: true,
    };
    /// None: plain SQLite.
    pub const NONE: Tuning = Tuning {
        log_writes: false,
        known_rows: false,
    };
    const NAMES: [&'static str; 2] = ["log-writes", "known-rows"];

    fn parts(self) -> [bool; 2] {
        [self.log_writes, self.known_rows]
    }

    /// Reads `off`, `on`, or the parts' names joined by commas
    /// (`log-writes,known-rows`).
    pub fn parse(text: &str) -> Result<Tuning, String> {
        match text {
            "off" => return Ok(Tuning::NONE),
            "on" => return Ok(Tuning::ALL),
            _ => {}
        }
        let mut t = Tuning::NONE;
        for name in text.split(',') {
            match name {
                "log-writes" => t.log_writes = true,
                "known-rows" => t.known_rows = true,
                other => {
                    return Err(format!(
                        "unknown tuning {other:?}: tuning is off, on, or parts joined by commas among {}",
                        Tuning::NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(t)
    }
}

impl std::fmt::Display for Tuning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let on: Vec<&str> = Tuning::NAMES
            .iter()
            .zip(self.parts())
            .filter_map(|(n, on)| on.then_some(*n))
            .collect();
        match on.len() {
            0 => f.write_str("off"),
            2 => f.write_str("on"),
            _ => f.write_str(&on.join(",")),
        }
    }
}
