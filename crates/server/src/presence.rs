//! Presence across processes: which process holds which (game, seat).
//!
//! A seat is *held* by a process while at least one WebSocket with its
//! token is open to that process. Each live game's actor knows its own
//! connections; on a database shared by several processes (PostgreSQL) a
//! player connected only to process B must not look absent to process A
//! (A's absent countdown would let its bot move for them, or open a claim
//! window against them). So every process keeps a row per seat it holds
//! in the `presence` table — `(process, game_id, seat, expires_at)` — with
//! a random process id chosen at start:
//!
//! - written when a seat becomes held here (its first connection opens)
//!   or stops being held (its last one closes), announced to the other
//!   processes with `NOTIFY` (`ID:p:PROCESS`);
//! - refreshed every [`crate::Cluster::presence_refresh`] in *one*
//!   statement for all the process's seats (expiry
//!   [`crate::Cluster::presence_ttl`] from the database's clock), so a
//!   process that dies without cleaning up loses its presence by itself;
//! - deleted at a normal stop.
//!
//! No write per message: only a seat's first connection and its last
//! disconnection write, through the group commit like everything else.
//! How the other processes use the rows is in `hub.rs` (notices and the
//! safety-net poll keep each live game's "held elsewhere" seats in
//! memory) and `actor/presence.rs` (a fresh read before an absent
//! countdown acts).
//!
//! SQLite (one process) starts no tracker: presence is the actors' own.

use crate::storage::{Store, Write};
use crate::Settings;
use rand::Rng;
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};

enum Change {
    Hold(String, usize),
    Release(String, usize),
    /// Let go of everything (a normal stop); answered once stored.
    Clear(oneshot::Sender<()>),
}

/// This process's presence: its id, and the task that stores it.
pub(crate) struct Presence {
    process: String,
    /// None on a database no other process shares.
    tx: Option<mpsc::UnboundedSender<Change>>,
    shutdown: watch::Receiver<bool>,
}

impl Presence {
    /// A random process id; on a shared database, starts the task that
    /// stores this process's presence (it ends with `shutdown`, leaving
    /// its rows to expire, as a crash would).
    pub(crate) fn start(
        store: &Store,
        settings: &Settings,
        shutdown: watch::Receiver<bool>,
    ) -> Self {
        let bits: u64 = rand::thread_rng().gen();
        let process = format!("{bits:016x}");
        let stop = shutdown.clone();
        let tx = store.shared().then(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            let ttl_ms = settings.cluster.presence_ttl.as_millis().max(1) as i64;
            tokio::spawn(run(
                store.clone(),
                process.clone(),
                settings
                    .cluster
                    .presence_refresh
                    .max(Duration::from_millis(10)),
                ttl_ms,
                rx,
                shutdown,
            ));
            tx
        });
        Presence {
            process,
            tx,
            shutdown: stop,
        }
    }

    /// Whether the server is stopping (or dropped): connections closing
    /// then are not the players leaving; a stop without `clear` leaves the
    /// rows to expire, as a crash does.
    fn stopping(&self) -> bool {
        self.shutdown.has_changed().unwrap_or(true) || *self.shutdown.borrow()
    }

    /// This process's random id.
    pub(crate) fn process(&self) -> &str {
        &self.process
    }

    /// A seat of `game` became held here (its first connection opened).
    pub(crate) fn hold(&self, game: &str, seat: usize) {
        if let Some(tx) = self.tx.as_ref().filter(|_| !self.stopping()) {
            let _ = tx.send(Change::Hold(game.to_string(), seat));
        }
    }

    /// A seat of `game` is no longer held here (its last connection closed).
    pub(crate) fn release(&self, game: &str, seat: usize) {
        if let Some(tx) = self.tx.as_ref().filter(|_| !self.stopping()) {
            let _ = tx.send(Change::Release(game.to_string(), seat));
        }
    }

    /// Lets go of every seat (deleting the rows, announced): a normal stop.
    pub(crate) async fn clear(&self) {
        if let Some(tx) = &self.tx {
            let (ack, done) = oneshot::channel();
            if tx.send(Change::Clear(ack)).is_ok() {
                let _ = tokio::time::timeout(Duration::from_secs(5), done).await;
            }
        }
    }
}

async fn run(
    store: Store,
    process: String,
    refresh: Duration,
    ttl_ms: i64,
    mut rx: mpsc::UnboundedReceiver<Change>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut held: HashSet<(String, usize)> = HashSet::new();
    let mut tick = tokio::time::interval(refresh);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    let mut failing = false;
    let mut report = |r: Result<Vec<bool>, crate::storage::StorageError>| match r {
        Ok(_) => {
            if failing {
                tracing::info!("presence stored again");
            }
            failing = false;
        }
        Err(e) => {
            if !failing {
                tracing::warn!("cannot store presence ({e}); the refresh retries");
            }
            failing = true;
        }
    };
    loop {
        tokio::select! {
            biased;
            // No cleanup here: a process that stops without `clear` (a
            // crash) leaves rows that expire by themselves.
            _ = shutdown.changed() => break,
            Some(first) = rx.recv() => {
                // Everything queued meanwhile goes in one commit; for each
                // seat only where it ends up counts.
                let mut changes = vec![first];
                while let Ok(c) = rx.try_recv() {
                    changes.push(c);
                }
                let mut want: HashMap<(String, usize), bool> = HashMap::new();
                let mut acks = Vec::new();
                for c in changes {
                    match c {
                        Change::Hold(g, s) => {
                            want.insert((g, s), true);
                        }
                        Change::Release(g, s) => {
                            want.insert((g, s), false);
                        }
                        Change::Clear(ack) => {
                            for k in held.iter().cloned().chain(want.keys().cloned().collect::<Vec<_>>()) {
                                want.insert(k, false);
                            }
                            acks.push(ack);
                        }
                    }
                }
                let mut writes = Vec::new();
                for ((game_id, seat), h) in want {
                    let key = (game_id, seat);
                    if h == held.contains(&key) {
                        continue;
                    }
                    if h {
                        held.insert(key.clone());
                    } else {
                        held.remove(&key);
                    }
                    writes.push(Write::Presence {
                        process: process.clone(),
                        game_id: key.0,
                        seat: key.1,
                        held: h,
                        ttl_ms,
                    });
                }
                if !writes.is_empty() {
                    report(store.commit(writes).await);
                }
                for ack in acks {
                    let _ = ack.send(());
                }
            }
            _ = tick.tick() => {
                let write = Write::PresenceRefresh {
                    process: process.clone(),
                    held: held.iter().cloned().collect(),
                    ttl_ms,
                };
                report(store.commit(vec![write]).await);
            }
        }
    }
}
