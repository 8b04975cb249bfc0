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
//! - a change made in a transaction is remembered once the transaction
//!   commits (a rolled-back one leaves nothing behind), and a game whose
//!   row a transaction writes in a way not followed here (a status, an
//!   abort) is forgotten at once, so it is read again, even in that
//!   transaction;
//! - another connection's commit to the file (SQLite's `data_version`
//!   moves; one process should write a file, but an operator's tool might)
//!   forgets everything;
//! - games that are over or aborted are not kept, so the memory holds the
//!   live games only, and it is bounded: past [`MAX_KNOWN`] it starts
//!   again from nothing (each game is then read once more).

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
}

impl KnownRows {
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

    /// What the file holds for `game_id`, if known (and not changed in
    /// the open transaction in a way not followed).
    pub fn get(&self, game_id: &str) -> Option<&RowFlags> {
        self.known.get(game_id)
    }

    /// The open transaction read or wrote `flags` for `game_id`.
    pub fn learn(&mut self, game_id: &str, flags: RowFlags) {
        self.known.remove(game_id);
        self.pending.insert(game_id.to_string(), Some(flags));
    }

    /// The open transaction may have changed `game_id`'s row: read it
    /// again from now on.
    pub fn forget(&mut self, game_id: &str) {
        self.known.remove(game_id);
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

    /// The open transaction rolled back: what it learned is void (what it
    /// forgot stays forgotten: harmless, read again).
    pub fn rolled_back(&mut self) {
        self.pending.clear();
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
    fn a_transaction_counts_only_once_committed() {
        let mut k = KnownRows::default();
        k.begin(1);
        k.learn("g", live(None));
        assert_eq!(k.get("g"), None);
        k.rolled_back();
        k.committed();
        assert_eq!(k.get("g"), None);
        k.begin(1);
        k.learn("g", live(Some("c")));
        k.committed();
        assert_eq!(k.get("g"), Some(&live(Some("c"))));
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
