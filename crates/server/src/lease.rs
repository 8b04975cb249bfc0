//! Who runs a game's clocks and bots when several processes share it.
//!
//! Every process serves every game (actions from any process are stored
//! with optimistic concurrency, see `actor/play.rs`), but what happens *by
//! itself* — a bot's move, a clock running out, an absent player's
//! countdown — is done by one process at a time: the holder of the game's
//! lease, a row `(game_id, owner, expires_at)` in the `leases` table.
//!
//! - A game's actor takes the lease when its game has something to do by
//!   itself (a bot to move, a clock running) and lets go of it when the
//!   game is over or leaves memory.
//! - This process renews all its leases in one statement every
//!   [`crate::Cluster::lease_refresh`]; a lease not renewed for
//!   [`crate::Cluster::lease_ttl`] (by the database's clock) has lapsed.
//! - The same task takes lapsed leases — a process that died holding
//!   them — and loads their games, which go on within
//!   `lease_ttl + lease_refresh` of the death, with no client needed.
//! - A process whose renewal does not return a game (it stalled past the
//!   expiry and another took over) stops hosting it at once.
//!
//! On a database only one process uses (SQLite) there are no rows: every
//! game is hosted by the one process.

use crate::storage::{LeaseOp, Store};
use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

/// Lapsed leases taken in one round of the task.
const TAKE_AT_ONCE: i64 = 200;

/// This process's leases.
pub(crate) struct Leases {
    /// None on a database no other process shares: everything is ours.
    shared: Option<Shared>,
}

struct Shared {
    process: String,
    ttl_ms: i64,
    held: Mutex<HashSet<String>>,
}

impl Leases {
    pub(crate) fn new(store: &Store, process: &str, ttl: Duration) -> Leases {
        Leases {
            shared: store.shared().then(|| Shared {
                process: process.to_string(),
                ttl_ms: ttl.as_millis().max(1) as i64,
                held: Mutex::new(HashSet::new()),
            }),
        }
    }

    fn held(s: &Shared) -> std::sync::MutexGuard<'_, HashSet<String>> {
        s.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether this process runs game `id`'s clocks and bots now.
    pub(crate) fn holds(&self, id: &str) -> bool {
        match &self.shared {
            None => true,
            Some(s) => Self::held(s).contains(id),
        }
    }

    /// Takes game `id`'s lease if it is free, lapsed or ours: whether this
    /// process holds it now.
    pub(crate) async fn take(&self, store: &Store, id: &str) -> bool {
        let Some(s) = &self.shared else { return true };
        let (owner, ttl_ms, ids) = (s.process.clone(), s.ttl_ms, vec![id.to_string()]);
        let taken = store
            .read(move |st| {
                st.lease(LeaseOp::Take {
                    owner: &owner,
                    ids: &ids,
                    ttl_ms,
                })
            })
            .await;
        match taken {
            Ok(got) if !got.is_empty() => {
                Self::held(s).insert(id.to_string());
                true
            }
            Ok(_) => false,
            Err(e) => {
                tracing::warn!("game {id}: cannot take its lease: {e}");
                false
            }
        }
    }

    /// Lets go of game `id` (it is over, or leaves memory).
    pub(crate) async fn release(&self, store: &Store, id: &str) {
        let Some(s) = &self.shared else { return };
        if !Self::held(s).remove(id) {
            return;
        }
        let (owner, ids) = (s.process.clone(), vec![id.to_string()]);
        if let Err(e) = store
            .read(move |st| {
                st.lease(LeaseOp::Release {
                    owner: &owner,
                    ids: &ids,
                })
            })
            .await
        {
            // It lapses by itself.
            tracing::warn!("game {id}: cannot release its lease: {e}");
        }
    }

    /// Lets go of everything (a normal stop): the other processes take
    /// over at once instead of after the expiry.
    pub(crate) async fn clear(&self, store: &Store) {
        let Some(s) = &self.shared else { return };
        let ids: Vec<String> = Self::held(s).drain().collect();
        if ids.is_empty() {
            return;
        }
        let owner = s.process.clone();
        let _ = store
            .read(move |st| {
                st.lease(LeaseOp::Release {
                    owner: &owner,
                    ids: &ids,
                })
            })
            .await;
    }

    /// One round of the task: renew, then take what lapsed. Returns the
    /// games taken over (to be loaded) and those lost (to stop hosting).
    pub(crate) async fn round(&self, store: &Store) -> Result<(Vec<String>, Vec<String>), String> {
        let Some(s) = &self.shared else {
            return Ok((Vec::new(), Vec::new()));
        };
        let before: HashSet<String> = Self::held(s).clone();
        let (owner, ttl_ms) = (s.process.clone(), s.ttl_ms);
        let renewed: HashSet<String> = store
            .read(move |st| {
                st.lease(LeaseOp::Renew {
                    owner: &owner,
                    ttl_ms,
                })
            })
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .collect();
        // Only what was held before the renewal and not renewed is lost: a
        // game taken meanwhile was not yet in the database's answer.
        let lost: Vec<String> = before.difference(&renewed).cloned().collect();
        {
            let mut held = Self::held(s);
            for id in &lost {
                held.remove(id);
            }
        }
        let owner = s.process.clone();
        let taken = store
            .read(move |st| {
                st.lease(LeaseOp::TakeLapsed {
                    owner: &owner,
                    ttl_ms,
                    limit: TAKE_AT_ONCE,
                })
            })
            .await
            .map_err(|e| e.to_string())?;
        Self::held(s).extend(taken.iter().cloned());
        Ok((taken, lost))
    }
}
