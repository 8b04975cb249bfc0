//! The parlor play server: any registered game, over HTTP and WebSocket,
//! stored in SQLite or PostgreSQL.
//!
//! The server knows games only through [`parlor_core::Registry`]: it creates
//! matches from JSON rules, passes JSON actions to them, and sends each
//! connection the game's own view for that connection's seat. It never looks
//! inside a game, so hidden information (another player's words, a bluffed
//! goal word) leaves the server only through the view the game built for the
//! seat entitled to it.
//!
//! # Shape
//!
//! - [`storage`]: one [`storage::Storage`] trait, an SQLite and a PostgreSQL
//!   implementation, and [`storage::Store`], the async handle that commits
//!   writes in groups on a writer thread.
//! - one actor task per live game (`actor/`): it owns the game's state,
//!   takes messages from a bounded queue, stores every accepted action before
//!   acknowledging it, keeps the game's clock, and asks bots for their moves
//!   on blocking threads so that a thinking bot never holds up the game.
//! - the hub (`hub.rs`): live games by id, loaded from the database on
//!   first use, forgotten when idle. On PostgreSQL, several processes
//!   share the database and its games: the hub forwards the database's
//!   change notices (`LISTEN`/`NOTIFY`) to its live games, which catch up
//!   with what other processes stored (the action index is the lock).
//! - `http.rs` and `ws/`: the routes of `docs/api.md`, one error type
//!   ([`ApiError`]) mapped to statuses in one place.
//!
//! # Example
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use parlor_server::{Server, Settings, storage::DbUrl};
//! let mut registry = parlor_core::Registry::new();
//! registry.register::<parlor_core::doc_nim::Nim>();
//! let server = Server::start(
//!     registry,
//!     parlor_core::Resources::embedded(),
//!     &DbUrl::parse("sqlite://parlor.db")?,
//!     "127.0.0.1:8080".parse()?,
//!     Settings::default(),
//! )
//! .await?;
//! println!("lobby at http://{}/", server.addr());
//! server.wait().await;
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

mod accounts;
mod actor;
mod answers;
mod assist;
pub mod bench;
mod chat;
pub mod client;
pub(crate) mod clocks;
mod conn;
mod error;
mod extract;
mod http;
mod http_accounts;
mod http_puzzles;
mod hub;
mod lease;
mod limits;
mod newgame;
mod presence;
pub mod puzzles;
mod quick;
pub mod ratings;
mod settings;
mod shown;
pub mod storage;
mod summary;
mod time;
mod web;
mod wordlists;
mod ws;

pub use conn::raise_fd_limit;
pub use error::{ApiError, Code};
pub use ipnet::IpNet;
pub use limits::Rate;
pub use settings::{
    Bots, Cluster, Connections, Database, Games, Helper, Rates, Settings, WordLists,
    DERIVED_CACHE_BYTES, QUICK_BOT,
};
pub use time::TimeSource;

use hub::Hub;
use serde_json::{json, Value};
use std::net::SocketAddr;
use storage::{ActionRow, DbUrl, GameRow, Store};
use tokio::sync::watch;

/// A running server.
pub struct Server {
    addr: SocketAddr,
    hub: Hub,
    open: std::sync::Arc<conn::Open>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened.
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The reason.
        source: std::io::Error,
    },
}

impl Server {
    /// Opens the database, resumes unfinished games, and serves on `addr`
    /// (port 0 picks a free port; see [`Server::addr`]).
    pub async fn start(
        registry: parlor_core::Registry,
        resources: parlor_core::Resources,
        db: &DbUrl,
        addr: SocketAddr,
        settings: Settings,
    ) -> Result<Server, StartError> {
        let db = db.clone();
        let store = tokio::task::spawn_blocking(move || Store::open(&db))
            .await
            .map_err(|e| storage::StorageError::unavailable(e.to_string()))??;
        Self::start_with_store(registry, resources, store, addr, settings).await
    }

    /// As [`Server::start`], over an opened [`Store`].
    pub async fn start_with_store(
        registry: parlor_core::Registry,
        resources: parlor_core::Resources,
        store: Store,
        addr: SocketAddr,
        settings: Settings,
    ) -> Result<Server, StartError> {
        let (stop, stop_rx) = watch::channel(false);
        let resume = settings.games.resume;
        store.set_commit_pace(settings.database.commit_pace);
        let notices = store.notices();
        let hub = Hub::new(registry, resources, store, settings, stop_rx.clone());
        hub.keep_server_lists().await;
        hub.follow_leases();
        if let Some(notices) = notices {
            // Several processes on one PostgreSQL share live games.
            hub.follow(notices);
        }
        if hub.settings().games.abandon_after.is_some() {
            hub.expire_abandoned();
        }
        if resume {
            // In the background: the server answers at once, and a game
            // asked for meanwhile is loaded on demand anyway.
            let hub = hub.clone();
            tokio::spawn(async move {
                if let Err(e) = hub.resume_all().await {
                    tracing::warn!("cannot resume games: {e}");
                }
            });
        }
        let listener = listen(addr).map_err(|source| StartError::Bind { addr, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| StartError::Bind { addr, source })?;
        let app = http::router(hub.clone());
        let settings = hub.settings().clone();
        let cap = conn::effective_cap(settings.connections.max_connections, conn::raise_fd_limit());
        if cap < settings.connections.max_connections {
            tracing::info!(
                "at most {cap} connections at once (max_connections {} is over \
                 three quarters of the open-file limit)",
                settings.connections.max_connections
            );
        }
        let per_address =
            conn::per_address_cap(settings.connections.max_connections_per_address, cap);
        if settings.rates.rate_limits
            && per_address < settings.connections.max_connections_per_address
        {
            tracing::info!(
                "at most {per_address} connections from one address \
                 (max_connections_per_address {} is over a quarter of the {cap} allowed)",
                settings.connections.max_connections_per_address
            );
        }
        let open = conn::Open::new(cap, per_address);
        let task = tokio::spawn(conn::serve(listener, app, settings, open.clone(), stop_rx));
        Ok(Server {
            addr,
            hub,
            open,
            stop,
            task,
        })
    }

    /// Bytes the shared derived-data cache holds now (by its own
    /// accounting), and its bound ([`WordLists::derived_cache_bytes`]).
    pub fn derived_cache(&self) -> (usize, usize) {
        let r = self.hub.resources();
        (r.derived_bytes(), r.derived_limit())
    }

    /// The part of [`derived_cache`](Server::derived_cache)'s bytes that
    /// games in memory hold (it cannot be let go until they leave).
    pub fn derived_held(&self) -> usize {
        self.hub.resources().derived_held_bytes()
    }

    /// Connections open now (HTTP and WebSocket alike).
    pub fn open_connections(&self) -> usize {
        self.open.count()
    }

    /// The part of [`derived_held`](Server::derived_held) charged to the
    /// games of one client address (see
    /// [`WordLists::derived_cache_per_client`]).
    pub fn derived_held_by(&self, client: std::net::IpAddr) -> usize {
        self.hub
            .resources()
            .derived_held_bytes_of(hub::client_owner(client))
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The storage kind (`sqlite`, `postgres`).
    pub fn storage_kind(&self) -> &'static str {
        self.hub.store().kind()
    }

    /// The server's database handle.
    pub fn store(&self) -> &Store {
        self.hub.store()
    }

    /// How many times a game's helper has run (answers served from the
    /// cache of finished games' answers are not counted).
    pub fn helper_runs(&self) -> u64 {
        self.hub.helpers().answers().runs()
    }

    /// How many helper answers were served from the cache of finished
    /// games' answers.
    pub fn helper_hits(&self) -> u64 {
        self.hub.helpers().answers().hits()
    }

    /// How many games are in memory.
    pub fn live_games(&self) -> usize {
        self.hub.live_count()
    }

    /// Runs until the server stops.
    pub async fn wait(self) {
        let _ = self.task.await;
    }

    /// Stops at once: open connections are dropped and every game actor
    /// ends; this process's presence rows (shared PostgreSQL) are deleted
    /// first. (Dropping a `Server` without `stop` ends it too, but leaves
    /// its presence to expire, as a crash does.) Acknowledged actions are already stored; nothing else is kept
    /// in memory only, so this is as good a test of restarting as a crash.
    pub async fn stop(self) {
        // Let go of this process's presence at once (the other processes'
        // absent countdowns start now, not when the rows expire).
        self.hub.presence().clear().await;
        self.hub.leases().clear(self.hub.store()).await;
        let _ = self.stop.send(true);
        self.task.abort();
        let _ = self.task.await;
    }
}

/// A listening socket with a long accept queue: thousands of clients
/// connecting at once (a lobby after a restart, the load benchmark) should
/// wait, not be refused.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(4096)
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The core crate's record JSON of a stored game.
pub(crate) fn record_json(row: &GameRow, actions: &[ActionRow]) -> Value {
    json!({
        "format": parlor_core::RECORD_VERSION,
        "game": row.game,
        "config": row.config.value(),
        "seed": row.seed,
        "lexicons": row.lexicons.value(),
        "actions": actions.iter().map(|a| json!({"actor": a.actor, "action": a.action, "at_ms": a.at_ms})).collect::<Vec<_>>(),
    })
}

/// The published hash of a game's seed: the SHA-256 of its decimal
/// digits (`"42"`), in lower-case hex. Every summary shows it from the
/// start; the record reveals the seed once the game is over, so anyone
/// can check that the deal was drawn before play and not changed.
pub fn seed_sha256(seed: u64) -> String {
    use sha2::Digest;
    hex(&sha2::Sha256::digest(seed.to_string().as_bytes()))
}

/// Bytes as lower-case hex (a `format!` per byte was a fifth of a game
/// summary's cost).
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// `t` as JSON text (`null` if it has none: never for the types written
/// so, whose keys are all strings).
pub(crate) fn raw_json<T: serde::Serialize + ?Sized>(t: &T) -> Box<serde_json::value::RawValue> {
    use serde_json::value::RawValue;
    serde_json::value::to_raw_value(t)
        .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
}

/// The async runtime a [`serve_blocking`] server runs on.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuntimeOptions {
    /// Async worker threads; None: [`default_workers`].
    pub workers: Option<usize>,
    /// Tasks a worker runs between looks at its sockets (tokio's
    /// `event_interval`); None: tokio's default (61).
    pub event_interval: Option<u32>,
    /// Tasks a worker runs between looks at the shared queue (tokio's
    /// `global_queue_interval`); None: tokio's default.
    pub global_queue_interval: Option<u32>,
}

/// The async workers a server runs by default: half the cores, at least
/// one. The database writer, the bots' threads (and, on a small machine,
/// the clients) need cores too: on 2 cores shared with the load generator,
/// one worker instead of tokio's two cut nim's server CPU per action by
/// about a sixth (fewer wake-ups and hand-offs between workers;
/// `parlor serve-bench --game nim`).
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

/// Runs a server on a new multi-threaded runtime until Ctrl-C, for callers
/// that have no runtime of their own (the `parlor` binary). `on_ready` is
/// called once the server listens.
pub fn serve_blocking(
    registry: parlor_core::Registry,
    resources: parlor_core::Resources,
    db: &DbUrl,
    addr: SocketAddr,
    settings: Settings,
    runtime: RuntimeOptions,
    on_ready: impl FnOnce(&Server),
) -> Result<(), StartError> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder
        .enable_all()
        .worker_threads(runtime.workers.unwrap_or_else(default_workers).max(1));
    if let Some(n) = runtime.event_interval {
        builder.event_interval(n.max(1));
    }
    if let Some(n) = runtime.global_queue_interval {
        builder.global_queue_interval(n.max(1));
    }
    let rt = builder
        .build()
        .map_err(|source| StartError::Bind { addr, source })?;
    rt.block_on(async {
        let server = Server::start(registry, resources, db, addr, settings).await?;
        // Ends with the runtime.
        tokio::spawn(watch_the_workers());
        on_ready(&server);
        // Every acknowledged action is already stored: stopping at the first
        // Ctrl-C (or SIGTERM, from a service manager) loses nothing.
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate() => {}
        }
        server.stop().await;
        Ok(())
    })
}

/// How often [`watch_the_workers`] looks, and how late its look may come
/// before it says so.
const WORKERS_TICK: std::time::Duration = std::time::Duration::from_millis(100);

/// Logs a warning when the async workers fall behind: a look due every
/// 100 ms that comes 100 ms or more late means every connection's task
/// waited that long too (a worker held by something synchronous, or more
/// work than the workers can do). Ten wake-ups a second.
async fn watch_the_workers() {
    loop {
        let due = tokio::time::Instant::now() + WORKERS_TICK;
        tokio::time::sleep_until(due).await;
        let late = due.elapsed();
        if late >= WORKERS_TICK {
            tracing::warn!(
                "async workers: a timer due every {} ms ran {} ms late",
                WORKERS_TICK.as_millis(),
                late.as_millis()
            );
        }
    }
}

/// Resolves on SIGTERM (never elsewhere).
async fn terminate() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut s) = signal(SignalKind::terminate()) {
            s.recv().await;
            return;
        }
    }
    std::future::pending::<()>().await
}

/// Runs [`bench::run`] on a new runtime.
pub fn load_blocking(opts: bench::LoadOptions) -> std::io::Result<bench::LoadReport> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    Ok(rt.block_on(bench::run(opts)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_is_two_lower_case_digits_a_byte() {
        let bytes: Vec<u8> = (0..=255).collect();
        let formatted: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(super::hex(&bytes), formatted);
        assert_eq!(super::hex(&[]), "");
    }
}
