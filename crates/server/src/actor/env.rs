//! What a game's actor needs from its process, and nothing more: the
//! store, the settings, the time, this process's leases and presence, the
//! pool of heavy work, the shutdown signal, and the few calls back into
//! the set of live games ([`Games`]). The hub makes one for
//! each actor it starts.

use super::GameStub;
use crate::error::ApiError;
use crate::lease::Leases;
use crate::newgame::{Created, NewGameSpec};
use crate::presence::Presence;
use crate::storage::Store;
use crate::time::TimeSource;
use crate::Settings;
use futures_util::future::BoxFuture;
use std::sync::Arc;
use tokio::sync::{watch, Semaphore};

/// The calls a game's actor makes back into its process's live games.
pub(crate) trait Games: Rooms {
    /// An idle actor asks to leave memory: forgotten if nothing waits in
    /// its queue. Returns whether it was.
    fn unload(&self, id: &str, idle: &dyn Fn() -> bool) -> bool;
    /// The actor stops because its memory may not match the database.
    fn forget(&self, id: &str);
    /// The seats of game `id` that other processes hold now (from the
    /// database, shared databases only).
    fn remote_seats<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<usize>, ApiError>>;
    /// Creates, stores and starts a game (a rematch).
    fn create(&self, spec: NewGameSpec) -> BoxFuture<'_, Result<Created, ApiError>>;
}

/// The live games as a connection reaches them: only a game's door, by id
/// (its own at the upgrade, a rematch's later). A connection neither
/// creates nor forgets games.
pub(crate) trait Rooms: Send + Sync {
    /// The live game `id`, loaded if needed.
    fn stub<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<GameStub, ApiError>>;
}

/// A game actor's environment (instead of the whole hub).
#[derive(Clone)]
pub(crate) struct Env {
    pub store: Store,
    pub settings: Arc<Settings>,
    /// Where the clocks read the time (`Games::time`).
    pub time: TimeSource,
    /// Which games' clocks and bots this process runs (see `crate::lease`).
    pub leases: Arc<Leases>,
    /// This process's presence (see `crate::presence`).
    pub presence: Arc<Presence>,
    /// Permits for heavy work at once (bot decisions, the helper).
    pub think_slots: Arc<Semaphore>,
    /// The rules and bot levels whose last decision, in any game of this
    /// process, was quick (`Bots::quick_bot`). A new game (a rematch) starts
    /// with its bots quick when the last game with the same rules and
    /// level ended so: its first decision is then made at once, and after
    /// a person's action in the same commit and burst
    /// (`GameActor::quick_bot_move`). Each game learning it afresh cost
    /// every nim game a decision on a blocking thread (two thread
    /// wake-ups), a commit request and a send of its own.
    pub quick_bots: Arc<crate::quick::QuickKinds>,
    pub shutdown: watch::Receiver<bool>,
    pub games: Arc<dyn Games>,
}
