//! The server's settings, by subsystem. Each group's defaults are written
//! once, in its `Default`; `parlor serve` takes its flags' defaults from
//! them.

use crate::limits::Rate;
use crate::time::TimeSource;
use ipnet::IpNet;
use std::time::Duration;

/// Limits and pacing, by subsystem. The defaults suit people playing; the
/// load benchmark turns the bot delays off.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// What a connection may send and how long it may take: queues, sizes, timeouts, caps, and the proxies trusted to name clients.
    pub connections: Connections,
    /// Live games: their queues, when they leave memory or expire, creation's pace, and the clocks' time source.
    pub games: Games,
    /// Computer players: their pace, threads and thinking time.
    pub bots: Bots,
    /// The games' helpers and solvers answering players.
    pub helper: Helper,
    /// Uploaded word lists and the data games derive from lists, in the database and in memory.
    pub word_lists: WordLists,
    /// How much each client may ask for (see [`Rate`]).
    pub rates: Rates,
    /// Several processes on one database: presence rows and game leases.
    pub cluster: Cluster,
    /// The database writer.
    pub database: Database,
    /// The puzzles offered and the daily challenges among them.
    pub puzzles: crate::puzzles::Puzzles,
}

/// The default of [`Bots::quick_bot`]: 20 µs. A decision this fast
/// costs no more than handing it to a blocking thread and taking its
/// answer back (two thread wake-ups and their context switches). Only
/// that fast: decisions on the async workers escape the `bot_threads`
/// limit, and with 200 µs (Word Sprout's easy bot then decided there too)
/// acknowledgements waited behind bots' decisions, median ack latency
/// 65 → 410 ms on a loaded two-core machine.
pub const QUICK_BOT: Duration = Duration::from_micros(20);

/// The default of [`WordLists::derived_cache_bytes`]: 256 MiB.
pub const DERIVED_CACHE_BYTES: usize = 256 * 1024 * 1024;

/// What a connection may send and how long it may take: queues, sizes, timeouts, caps, and the proxies trusted to name clients.
#[derive(Clone, Debug)]
pub struct Connections {
    /// Outgoing messages queued per connection before it is dropped as too slow.
    pub conn_queue: usize,
    /// A connection whose client has not taken a message for this long is
    /// closed (it reconnects and gets the whole state).
    pub write_timeout: Duration,
    /// Largest WebSocket message accepted (bytes).
    pub max_message: usize,
    /// Largest HTTP request body accepted (bytes).
    pub max_body: usize,
    /// Most connections open at once (HTTP and WebSocket alike); past it
    /// new connections are closed at once and a line is logged (at most
    /// one every ten seconds). At start the server raises its soft limit
    /// on open files to the hard one and lowers this cap to three quarters
    /// of that limit where it is smaller.
    pub max_connections: usize,
    /// Most connections one client address (IPv6: its /64) may hold open
    /// at once, HTTP and WebSocket alike; at most a quarter of
    /// `max_connections`, so the cap keeps room one address cannot take.
    /// Past it, new ones get `429 rate_limited` and are closed. Off with
    /// `rate_limits` (load tests from one address).
    pub max_connections_per_address: usize,
    /// A connection waiting for a request head (a new one, or a keep-alive
    /// one after a response) is closed if the whole head has not arrived
    /// within this long: the header timeout and the idle keep-alive
    /// timeout in one.
    pub header_timeout: Duration,
    /// A request body must have arrived whole this long after its head,
    /// or the request is refused (`too_slow`, 408) and the connection
    /// closed.
    pub body_timeout: Duration,
    /// TCP keepalive on accepted sockets: the first probe after this long
    /// without traffic, then every quarter of it.
    pub tcp_keepalive: Duration,
    /// The server pings a WebSocket after this long with nothing heard
    /// from its client (a client that talks is not pinged).
    pub ws_ping: Duration,
    /// A WebSocket from which nothing (no message, no pong) has come for
    /// this long is closed: its seat counts as absent.
    pub ws_idle_timeout: Duration,
    /// Behind a reverse proxy: the proxies' addresses (or networks).
    /// A request whose peer is one of them is metered by the client the
    /// proxy names (`X-Forwarded-For`'s right-most address that is not a
    /// trusted proxy, or `Forwarded`'s), its connections are not counted
    /// per address (each request and WebSocket is, for the client). Empty
    /// (the default), no header is read: clients are their peer address.
    pub trusted_proxies: Vec<IpNet>,
}

impl Default for Connections {
    fn default() -> Self {
        Connections {
            conn_queue: 64,
            write_timeout: Duration::from_secs(10),
            max_message: 16 * 1024,
            max_body: 64 * 1024,
            max_connections: 16_384,
            max_connections_per_address: 32,
            header_timeout: Duration::from_secs(15),
            body_timeout: Duration::from_secs(30),
            tcp_keepalive: Duration::from_secs(60),
            ws_ping: Duration::from_secs(15),
            ws_idle_timeout: Duration::from_secs(45),
            trusted_proxies: Vec::new(),
        }
    }
}

/// Live games: their queues, when they leave memory or expire, creation's pace, and the clocks' time source.
#[derive(Clone, Debug)]
pub struct Games {
    /// Incoming messages queued per game before senders get `busy`.
    pub game_queue: usize,
    /// A game with no connection, no clock and no bot at work leaves memory
    /// after this long.
    pub idle_unload: Duration,
    /// The same for a game that is over (or aborted): its players have
    /// moved on, and one who comes back reloads it from the database.
    pub idle_unload_over: Duration,
    /// At start-up, start the unfinished games whose clock runs or whose bot
    /// is to act, so they go on by themselves.
    pub resume: bool,
    /// Once an absent player's countdown has run out, how long the players
    /// who are there may claim the win (where the game offers a forfeit)
    /// before the game's bot moves for the absent seat.
    pub claim_window: Duration,
    /// A game not over in which nothing has happened for this long (no
    /// action, no start of its clocks, nobody holding a seat) expires: it
    /// is aborted like `POST .../abort`, moves or not. `None`: never.
    pub abandon_after: Option<Duration>,
    /// Games being created at once (building a game's word structures
    /// takes a core for a moment); more wait, and after
    /// `create_wait` get `busy`.
    pub creations_at_once: usize,
    /// How long a creation waits for its turn before `busy`.
    pub create_wait: Duration,
    /// Where the game clocks read the time: the system's clock, or a
    /// manual one that tests move by hand ([`TimeSource::manual`]), so
    /// that clocks run out in virtual time.
    pub time: TimeSource,
}

impl Default for Games {
    fn default() -> Self {
        Games {
            game_queue: 256,
            idle_unload: Duration::from_secs(600),
            // Long enough for a page reloaded at the end of a game; any
            // longer, finished games pile up in memory at a busy server's
            // rate of endings (a few hundred a second under load).
            idle_unload_over: Duration::from_secs(3),
            resume: true,
            claim_window: Duration::from_secs(30),
            abandon_after: Some(Duration::from_secs(7 * 24 * 3600)),
            creations_at_once: 2,
            create_wait: Duration::from_secs(5),
            time: TimeSource::system(),
        }
    }
}

/// Computer players: their pace, threads and thinking time.
#[derive(Clone, Debug)]
pub struct Bots {
    /// Pause before a bot moves in a turn-based game (so people see it).
    pub bot_delay: Duration,
    /// Pause between a bot's moves while a clock runs (Gobble's search).
    pub bot_delay_clocked: Duration,
    /// Bot decisions running at once (on blocking threads). The default,
    /// one less than the cores (at least one), keeps a core for people's
    /// actions however many bots are thinking.
    pub bot_threads: usize,
    /// Time budget of one bot decision.
    pub bot_think: Duration,
    /// A bot whose last decision took less than this makes its next one
    /// on an async worker, and may answer a person's action in the same
    /// commit (see [`QUICK_BOT`]). Tests set it (zero: never quick;
    /// `Duration::MAX`: always) so that what they check does not hang on
    /// how fast a busy machine ran the bot.
    pub quick_bot: Duration,
}

impl Default for Bots {
    fn default() -> Self {
        Bots {
            bot_delay: Duration::from_millis(400),
            bot_delay_clocked: Duration::from_secs(3),
            bot_threads: std::thread::available_parallelism()
                .map(|n| n.get().saturating_sub(1))
                .unwrap_or(1)
                .max(1),
            bot_think: Duration::from_secs(1),
            quick_bot: QUICK_BOT,
        }
    }
}

/// The games' helpers and solvers answering players.
#[derive(Clone, Debug)]
pub struct Helper {
    /// Time budget of one answer of a game's helper; a helper that runs
    /// out says so. A request whose client goes away is cancelled.
    pub assist_think: Duration,
    /// Bytes of helper answers kept for games that are over (their answer
    /// cannot change), least recently used out: asked again, they cost no
    /// helper run.
    pub helper_cache_bytes: usize,
}

impl Default for Helper {
    fn default() -> Self {
        Helper {
            assist_think: Duration::from_secs(10),
            helper_cache_bytes: 32 * 1024 * 1024,
        }
    }
}

/// Uploaded word lists and the data games derive from lists, in the database and in memory.
#[derive(Clone, Debug)]
pub struct WordLists {
    /// Largest uploaded word list (`POST /api/word-lists`), in bytes.
    pub word_list_max_bytes: usize,
    /// Most distinct words in an uploaded word list.
    pub word_list_max_words: usize,
    /// Most bytes all uploaded word lists may hold together in the
    /// database (their words, one per line); past it uploads of new lists
    /// are refused (`word_lists_full`).
    pub word_lists_max_total_bytes: u64,
    /// Uploaded lists kept built in memory (least recently used out; a
    /// live game keeps its own list meanwhile).
    pub word_list_cache: usize,
    /// Bytes of words of the uploaded lists kept built in memory.
    pub word_list_cache_bytes: usize,
    /// Most bytes of data the games derive from word lists and settings
    /// and share (Word Sprout's valid strings and solutions, Gobble's
    /// tries), kept in memory for every list together; least recently used
    /// out (a live game keeps what it uses). Settings whose data alone
    /// would take more are refused (`bad_setting`).
    pub derived_cache_bytes: usize,
    /// Most bytes of that cache that the values built for the games of
    /// one client address may take while live games hold them; past it,
    /// that client's games whose data is not there yet get `busy` and the
    /// rest of the bound stays for the others. `None`: a quarter of
    /// `derived_cache_bytes`.
    pub derived_cache_per_client: Option<usize>,
    /// Most uploaded lists built in memory at once (cached or held by live
    /// games); past it, games on another uploaded list get `busy`.
    pub word_lists_in_memory: usize,
}

impl Default for WordLists {
    fn default() -> Self {
        WordLists {
            word_list_max_bytes: 8 * 1024 * 1024,
            word_list_max_words: 500_000,
            word_lists_max_total_bytes: 512 * 1024 * 1024,
            word_list_cache: 8,
            word_list_cache_bytes: 32 * 1024 * 1024,
            derived_cache_bytes: DERIVED_CACHE_BYTES,
            derived_cache_per_client: None,
            word_lists_in_memory: 16,
        }
    }
}

/// How much each client may ask for (see [`Rate`]).
#[derive(Clone, Debug)]
pub struct Rates {
    /// Meter clients (see [`Rate`]): off only for load tests run from one
    /// address (`parlor serve --no-rate-limits`).
    pub rate_limits: bool,
    /// Games one client address may create (rematches included).
    pub rate_create: Rate,
    /// Actions, joins, claims and new WebSockets of one client address.
    pub rate_play: Rate,
    /// Word lists one client address may upload.
    pub rate_upload: Rate,
    /// Other requests (state, lists, records, pages) of one client address.
    pub rate_read: Rate,
    /// Requests of one client address that may run a game's helper or
    /// solver (`assist` over HTTP and WebSocket, a replay with
    /// `helper=true`), each within `assist_think`.
    pub rate_helper: Rate,
    /// Messages one WebSocket may send.
    pub rate_conn: Rate,
    /// Chat lines and reactions one WebSocket may send (they also count
    /// in `rate_conn`).
    pub rate_chat: Rate,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            rate_limits: true,
            rate_create: Rate::per_minute(60, 60),
            rate_play: Rate::per_second(120, 30),
            rate_upload: Rate::per_minute(5, 1),
            rate_read: Rate::per_second(600, 100),
            rate_helper: Rate::per_minute(20, 30),
            rate_conn: Rate::per_second(60, 20),
            rate_chat: Rate::per_minute(8, 30),
        }
    }
}

/// Several processes on one database: presence rows and game leases.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// On a database shared by several processes (PostgreSQL): how often
    /// a process refreshes its presence rows (the seats its connections
    /// hold), in one statement.
    pub presence_refresh: Duration,
    /// How long a presence row counts without a refresh: a process that
    /// dies without cleaning up stops holding its seats this long after
    /// its last refresh. A few times `presence_refresh`.
    pub presence_ttl: Duration,
    /// On a database shared by several processes: how often a process
    /// renews the leases of the games whose clocks and bots it runs, and
    /// looks for lapsed ones to take over (see `lease.rs`).
    pub lease_refresh: Duration,
    /// How long a lease lasts without renewal: the games of a process
    /// that dies go on in another within about `lease_ttl +
    /// lease_refresh`. A few times `lease_refresh`.
    pub lease_ttl: Duration,
    /// How often live games compare their record with the database's,
    /// when other processes share it: the safety net under a lost notice.
    pub live_poll: Duration,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster {
            presence_refresh: Duration::from_secs(5),
            presence_ttl: Duration::from_secs(20),
            lease_refresh: Duration::from_secs(1),
            lease_ttl: Duration::from_secs(4),
            live_poll: Duration::from_secs(3),
        }
    }
}

/// The database writer.
#[derive(Clone, Debug)]
pub struct Database {
    /// The least time from one group commit's start to the next's: a busy
    /// database writer gathers more writes into each commit (one sync for
    /// all), a write that finds it idle is committed at once. Zero: back
    /// to back. See [`crate::storage::DEFAULT_COMMIT_PACE`].
    pub commit_pace: Duration,
}

impl Default for Database {
    fn default() -> Self {
        Database {
            commit_pace: crate::storage::DEFAULT_COMMIT_PACE,
        }
    }
}
