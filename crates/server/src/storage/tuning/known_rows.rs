//! What the SQLite writer knows of live games' rows, so that an action
//! need not read its game's row (issue 16).
//!
//! Every stored action must know whether its game is aborted (no action
//! goes into one) and whether it ends the game or moves its clock (then
//! the games row is written too). Reading the row for that was ~5% of the
//! server's CPU under the nim benchmark, for an answer the writer itself
//! wrote or read a moment before. So the writer remembers, per game, what
//! it last stored or read, and reads the row only for a game it does not
//! know.
//!
//! What is remembered is only ever what the file holds:
//! - a change made in a transaction is read back within that transaction
//!   (a second action of the same game in one group commit reads no row)
//!   and kept once the transaction commits; a rolled-back one leaves
//!   nothing behind, and the games it touched are read again (what the
//!   file holds after a failed commit is not worth guessing); a game whose
//!   row a transaction writes in a way not followed here (a status, an
//!   abort) is forgotten at once, so it is read again, even in that
//!   transaction;
//! - another connection's commit to the file (SQLite's `data_version`
//!   moves; one process should write a file, but an operator's tool might)
//!   forgets everything;
//! - games that are over or aborted are not kept, so the memory holds the
//!   live games only, and it is bounded: past [`MAX_KNOWN`] it starts
//!   again from nothing (each game is then read once more).

use crate::storage::StatusRow;
use std::collections::HashMap;

/// Games remembered at most (about 100 bytes each).
pub(crate) const MAX_KNOWN: usize = 50_000;

/// What a games row holds that an action may change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RowFlags {
    /// The game was aborted: no action goes into it.
    pub aborted: bool,
    /// The game is over.
    pub over: bool,
    /// The running clock's key, if one runs.
    pub deadline_key: Option<String>,
    /// When that clock started.
    pub deadline_started_ms: Option<i64>,
}

impl RowFlags {
    /// What a games row holds with `status` stored in it.
    pub fn of(aborted: bool, status: &StatusRow) -> RowFlags {
        RowFlags {
            aborted,
            over: status.over,
            deadline_key: status.deadline.as_ref().map(|d| d.key.clone()),
            deadline_started_ms: status.deadline.as_ref().map(|d| d.started_ms),
        }
    }

    /// Whether the clock of `after` is another than this one (started,
    /// stopped, or another clock or start): then the row is written.
    pub fn clock_moved(&self, after: &RowFlags) -> bool {
        self.deadline_key != after.deadline_key
            || self.deadline_started_ms != after.deadline_started_ms
    }
}

/// The writer's memory of live games' rows (see the module's comment).
#[derive(Default)]
pub(crate) struct KnownRows {
    /// As committed.
    known: HashMap<String, RowFlags>,
    /// Learned in the open transaction: kept if it commits. `None`:
    /// forgotten.
    pending: HashMap<String, Option<RowFlags>>,
    /// The file's `data_version` at this connection's last transaction.
    data_version: Option<i64>,
    /// Remembers nothing: every action reads its game's row (plain
    /// SQLite, for measuring what this memory buys).
    off: bool,
}

impl KnownRows {
    /// A memory that remembers nothing (see `off`).
    pub fn off() -> Self {
        KnownRows {
            off: true,
            ..KnownRows::default()
        }
    }

    /// A transaction starts (holding the write lock) on a file at
    /// `data_version`: if another connection committed since the last one,
    /// nothing remembered can be trusted.
    pub fn begin(&mut self, data_version: i64) {
        if self.data_version != Some(data_version) {
            self.known.clear();
            self.data_version = Some(data_version);
        }
        self.pending.clear();
    }

    /// What the file holds for `game_id` (as the open transaction sees
    /// it), if known: what the transaction itself read or wrote, else
    /// what was committed; nothing for a game the transaction forgot.
    pub fn get(&self, game_id: &str) -> Option<&RowFlags> {
        match self.pending.get(game_id) {
            Some(learned) => learned.as_ref(),
            None => self.known.get(game_id),
        }
    }

    /// The open transaction read or wrote `flags` for `game_id`. What was
    /// committed stays beside it until the transaction ends.
    pub fn learn(&mut self, game_id: &str, flags: RowFlags) {
        if self.off {
            return;
        }
        self.pending.insert(game_id.to_string(), Some(flags));
    }

    /// The open transaction may have changed `game_id`'s row: read it
    /// again from now on.
    pub fn forget(&mut self, game_id: &str) {
        self.pending.insert(game_id.to_string(), None);
    }

    /// The open transaction committed: what it learned holds.
    pub fn committed(&mut self) {
        for (game_id, flags) in self.pending.drain() {
            match flags {
                Some(f) if !f.over && !f.aborted => {
                    if self.known.len() >= MAX_KNOWN {
                        self.known.clear();
                    }
                    self.known.insert(game_id, f);
                }
                _ => {
                    self.known.remove(&game_id);
                }
            }
        }
    }

    /// The open transaction rolled back (or its commit failed): what it
    /// learned is void, and every game it touched is read again, its
    /// committed entry included: after a failed `COMMIT` the writer does
    /// not guess what the file holds.
    pub fn rolled_back(&mut self) {
        for (game_id, _) in self.pending.drain() {
            self.known.remove(&game_id);
        }
    }

    /// Games remembered.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.known.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(key: Option<&str>) -> RowFlags {
        RowFlags {
            aborted: false,
            over: false,
            deadline_key: key.map(str::to_string),
            deadline_started_ms: key.map(|_| 5),
        }
    }

    #[test]
    fn a_transaction_reads_back_what_it_learned_and_keeps_it_once_committed() {
        let mut k = KnownRows::default();
        k.begin(1);
        k.learn("g", live(None));
        // A second action of the game in the same group commit reads no row.
        assert_eq!(k.get("g"), Some(&live(None)));
        k.rolled_back();
        assert_eq!(k.get("g"), None);
        k.committed();
        assert_eq!(k.get("g"), None);
        k.begin(1);
        k.learn("g", live(Some("c")));
        k.committed();
        assert_eq!(k.get("g"), Some(&live(Some("c"))));
        // The next transaction sees the committed entry until it learns
        // another, and its own one after.
        k.begin(1);
        assert_eq!(k.get("g"), Some(&live(Some("c"))));
        k.learn("g", live(None));
        assert_eq!(k.get("g"), Some(&live(None)));
        k.committed();
        assert_eq!(k.get("g"), Some(&live(None)));
    }

    #[test]
    fn a_failed_commit_forgets_what_it_touched() {
        let mut k = KnownRows::default();
        k.begin(1);
        k.learn("g", live(Some("c")));
        k.learn("h", live(None));
        k.committed();
        k.begin(1);
        k.learn("g", live(None));
        k.rolled_back();
        // Neither the pending entry nor the committed one: read again.
        assert_eq!(k.get("g"), None);
        // An untouched game keeps its entry.
        assert_eq!(k.get("h"), Some(&live(None)));
    }

    #[test]
    fn row_flags_of_a_status_and_whether_its_clock_moved() {
        use crate::storage::DeadlineRow;
        let status = |deadline: Option<(&str, i64)>, over: bool| StatusRow {
            seq: 3,
            to_act: serde_json::json!({"one": 0}).into(),
            outcome: None,
            over,
            deadline: deadline.map(|(key, started_ms)| DeadlineRow {
                key: key.to_string(),
                started_ms,
            }),
            updated_ms: 9,
        };
        let f = RowFlags::of(false, &status(Some(("c", 5)), false));
        assert_eq!(f, live(Some("c")));
        assert!(RowFlags::of(true, &status(None, true)).aborted);
        assert!(RowFlags::of(true, &status(None, true)).over);
        let none = RowFlags::of(false, &status(None, false));
        assert!(!f.clock_moved(&RowFlags::of(false, &status(Some(("c", 5)), true))));
        assert!(f.clock_moved(&RowFlags::of(false, &status(Some(("c", 6)), false))));
        assert!(f.clock_moved(&RowFlags::of(false, &status(Some(("d", 5)), false))));
        assert!(f.clock_moved(&none));
        assert!(none.clock_moved(&f));
        assert!(!none.clock_moved(&none));
    }

    #[test]
    fn a_forgotten_game_is_read_again_at_once_and_after() {
        let mut k = KnownRows::default();
        k.begin(1);
        k.learn("g", live(None));
        k.committed();
        k.begin(1);
        k.forget("g");
        assert_eq!(k.get("g"), None);
        k.rolled_back();
        assert_eq!(k.get("g"), None);
        k.begin(1);
        k.learn("g", live(None));
        k.forget("g");
        k.committed();
        assert_eq!(k.get("g"), None);
    }

    #[test]
    fn another_connections_commit_forgets_everything() {
        let mut k = KnownRows::default();
        k.begin(1);
        k.learn("g", live(None));
        k.committed();
        k.begin(1);
        assert!(k.get("g").is_some());
        k.begin(2);
        assert_eq!(k.get("g"), None);
    }

    #[test]
    fn ended_games_are_not_kept_and_the_memory_is_bounded() {
        let mut k = KnownRows::default();
        k.begin(1);
        k.learn("g", live(None));
        k.committed();
        k.begin(1);
        k.learn(
            "g",
            RowFlags {
                over: true,
                ..live(None)
            },
        );
        k.learn(
            "h",
            RowFlags {
                aborted: true,
                ..live(None)
            },
        );
        k.committed();
        assert_eq!(k.len(), 0);
        for i in 0..MAX_KNOWN + 10 {
            k.begin(1);
            k.learn(&format!("g{i}"), live(None));
            k.committed();
            assert!(k.len() <= MAX_KNOWN);
        }
    }
}
