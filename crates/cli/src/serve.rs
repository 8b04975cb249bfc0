//! `parlor serve`: the play server (HTTP + WebSocket, lobby in the browser).

use anyhow::{Context, Result};
use parlor_server::storage::DbUrl;
use parlor_server::{Server, Settings};
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The server's defaults, made once: clap builds every command's flags on
/// each run of `parlor`, whatever the command, and making them for each
/// flag asked the operating system for the core count ten times.
static DEFAULTS: std::sync::LazyLock<Settings> = std::sync::LazyLock::new(Settings::default);

/// Options of `parlor serve`. Each group of flags sets one group of the
/// server's [`Settings`], and takes its defaults from
/// `Settings::default()`: a default is written once, in the server.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on. The default serves this machine only; give
    /// 0.0.0.0:8080 to let others on your network in.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Where games are stored: sqlite://FILE, or postgres://USER@HOST:PORT/DB.
    /// Default: parlor.db in your data folder ($XDG_DATA_HOME/parlor or
    /// ~/.local/share/parlor).
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    #[command(flatten)]
    pub bots: BotArgs,
    #[command(flatten)]
    pub word_lists: WordListArgs,
    #[command(flatten)]
    pub connections: ConnectionArgs,
    #[command(flatten)]
    pub games: GameArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Computer players ([`parlor_server::Bots`]).
#[derive(clap::Args, Debug)]
pub struct BotArgs {
    /// Pause before a bot moves, in milliseconds (so people see the move).
    #[arg(long, default_value_t = DEFAULTS.bots.bot_delay.as_millis() as u64, value_name = "MS")]
    pub bot_delay_ms: u64,
    /// Pause between a bot's entries while a round clock runs (Gobble), in
    /// milliseconds.
    #[arg(long, default_value_t = DEFAULTS.bots.bot_delay_clocked.as_millis() as u64, value_name = "MS")]
    pub bot_clocked_delay_ms: u64,
}

/// Word lists: those the server offers, and players' uploads
/// ([`parlor_server::WordLists`]).
#[derive(clap::Args, Debug)]
pub struct WordListArgs {
    /// A word list games on this server may use (repeatable): one word per
    /// line, words with a capital letter (proper nouns) skipped unless
    /// --fold-case; its name is the file name without extension
    /// (`--word-list ~/lists/scrabble.txt` offers `scrabble`). Start the
    /// server with the same lists (and --fold-case) later, or games played
    /// with them cannot be replayed.
    #[arg(long = "word-list", value_name = "PATH")]
    pub word_lists: Vec<PathBuf>,
    /// Read the --word-list files' capitalised words as lower case (for
    /// lists written in capitals).
    #[arg(long, requires = "word_lists")]
    pub fold_case: bool,
    /// Largest word list a player may upload (POST /api/word-lists), in
    /// bytes.
    #[arg(long, default_value_t = DEFAULTS.word_lists.word_list_max_bytes, value_name = "BYTES")]
    pub word_list_max_bytes: usize,
    /// Most bytes all uploaded word lists may take in the database
    /// together; past it, uploads of new lists are refused.
    #[arg(long, default_value_t = DEFAULTS.word_lists.word_lists_max_total_bytes, value_name = "BYTES")]
    pub word_lists_max_total_bytes: u64,
    /// Most bytes of data the games derive from word lists and settings
    /// and share (Word Sprout's valid strings, about 20 MiB for `en` under
    /// the core rules; Gobble's tries), kept in memory together; settings
    /// whose data alone would take more are refused.
    #[arg(long, default_value_t = DEFAULTS.word_lists.derived_cache_bytes, value_name = "BYTES")]
    pub derived_cache_bytes: usize,
    /// Most bytes of that data the games of one client address may hold;
    /// past it that client's new settings wait (`busy`), and the rest
    /// stays for the others. Default: a quarter of --derived-cache-bytes.
    #[arg(long, value_name = "BYTES")]
    pub derived_cache_per_client: Option<usize>,
}

/// Connections and what clients may ask for ([`parlor_server::Connections`],
/// [`parlor_server::Rates`]).
#[derive(clap::Args, Debug)]
pub struct ConnectionArgs {
    /// Do not meter clients (every address may create, play and upload
    /// without limit). For load tests run from one machine only: on a
    /// server others can reach, the limits are what keep one client from
    /// taking it over.
    #[arg(long)]
    pub no_rate_limits: bool,
    /// Behind a reverse proxy: the proxy's address or network (repeatable:
    /// 127.0.0.1, 10.0.0.0/8, ::1). Requests from it are metered by the
    /// client it names in X-Forwarded-For (the right-most address that is
    /// not a trusted proxy) or Forwarded, and its connections are not
    /// capped per address (each request and WebSocket counts for its
    /// client instead). Without it those headers are never read: clients
    /// are metered by the address they connect from.
    #[arg(long = "trusted-proxy", value_name = "ADDR[/BITS]", value_parser = parse_net)]
    pub trusted_proxies: Vec<parlor_server::IpNet>,
    /// Most connections open at once (HTTP and WebSocket); past it new
    /// ones are answered 503 and closed at once. Lowered to three quarters
    /// of the open-file limit where that is smaller.
    #[arg(long, default_value_t = DEFAULTS.connections.max_connections, value_name = "N")]
    pub max_connections: usize,
    /// Most connections one client address (IPv6: its /64) may hold open
    /// at once, HTTP and WebSocket alike; past it new ones are answered 429
    /// and closed. At most a quarter of --max-connections. Off with
    /// --no-rate-limits.
    #[arg(long, default_value_t = DEFAULTS.connections.max_connections_per_address, value_name = "N")]
    pub max_connections_per_address: usize,
}

/// Games and their storage ([`parlor_server::Games`],
/// [`parlor_server::Database`]).
#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// A game that is not over and in which nothing has happened for this
    /// many seconds (no move, nobody at the table) expires: it is aborted,
    /// over without a winner, and leaves the lists of running games (an
    /// unstarted rematch, a game its player left). 0: never.
    #[arg(long, default_value_t = DEFAULTS.games.abandon_after.map_or(0, |d| d.as_secs()), value_name = "SECONDS")]
    pub abandon_after: u64,
    /// The database writer's least time from one commit's start to the
    /// next's, in microseconds, 0 to 100000 (0: back to back): a busy
    /// writer gathers more moves into each commit and its one sync.
    #[arg(long, default_value_t = DEFAULTS.database.commit_pace.as_micros() as u64,
          value_name = "MICROSECONDS",
          value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub commit_pace_us: u64,
    /// Also host the tiny test game `nim` (for `parlor serve-bench --game
    /// nim`, which measures the server rather than a game's rules and bots).
    #[arg(long, hide = true)]
    pub with_nim: bool,
    /// Replace a day's challenge of a puzzle set: DATE:SET:ID, as
    /// 2026-12-01:sprouts/normal-5:1a2b3c4d5e6f7a8b (the date in UTC, the set
    /// and the puzzle's id as GET /api/puzzles and /api/puzzles/next name
    /// them). Give every process of one database the same choices.
    #[arg(long = "daily-choice", value_name = "DATE:SET:ID")]
    pub daily_choices: Vec<String>,
}

/// The async runtime.
#[derive(clap::Args, Debug)]
pub struct RuntimeArgs {
    /// Async worker threads, 0 to 256 (0: half the cores, at least one: the
    /// database writer and the bots' threads take the others).
    #[arg(long, default_value_t = 0, value_name = "N",
          value_parser = clap::value_parser!(u16).range(0..=256))]
    pub workers: u16,
    /// Tasks an async worker runs between looks at its sockets (0: tokio's
    /// default). For measurements.
    #[arg(long, default_value_t = 0, value_name = "N", hide = true)]
    pub event_interval: u32,
    /// Tasks an async worker runs between looks at the shared queue (0:
    /// tokio's default). For measurements.
    #[arg(long, default_value_t = 0, value_name = "N", hide = true)]
    pub global_queue_interval: u32,
}

impl Args {
    /// The server's settings these flags give: every setting without a
    /// flag, and every flag not given, at its default.
    pub fn settings(&self) -> Settings {
        let mut settings = Settings::default();
        let bots = &mut settings.bots;
        bots.bot_delay = Duration::from_millis(self.bots.bot_delay_ms);
        bots.bot_delay_clocked = Duration::from_millis(self.bots.bot_clocked_delay_ms);
        let lists = &mut settings.word_lists;
        lists.word_list_max_bytes = self.word_lists.word_list_max_bytes;
        lists.word_lists_max_total_bytes = self.word_lists.word_lists_max_total_bytes;
        lists.derived_cache_bytes = self.word_lists.derived_cache_bytes;
        lists.derived_cache_per_client = self.word_lists.derived_cache_per_client;
        settings.rates.rate_limits = !self.connections.no_rate_limits;
        let conns = &mut settings.connections;
        conns.trusted_proxies = self.connections.trusted_proxies.clone();
        conns.max_connections = self.connections.max_connections;
        conns.max_connections_per_address = self.connections.max_connections_per_address;
        settings.games.abandon_after =
            (self.games.abandon_after > 0).then(|| Duration::from_secs(self.games.abandon_after));
        settings.database.commit_pace = Duration::from_micros(self.games.commit_pace_us);
        settings
    }
}

/// A `--trusted-proxy`: an address (a network of one) or a network.
fn parse_net(s: &str) -> Result<parlor_server::IpNet, String> {
    s.parse::<parlor_server::IpNet>()
        .or_else(|_| {
            s.parse::<std::net::IpAddr>()
                .map(parlor_server::IpNet::from)
        })
        .map_err(|_| format!("{s:?} is not an address (127.0.0.1, ::1) nor a network (10.0.0.0/8)"))
}

/// The default database file.
pub fn default_db() -> Result<PathBuf> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => {
            let home = std::env::var_os("HOME")
                .or_else(|| std::env::var_os("USERPROFILE"))
                .context("no HOME folder: pass --db sqlite://FILE")?;
            if cfg!(target_os = "macos") {
                PathBuf::from(home).join("Library/Application Support")
            } else {
                PathBuf::from(home).join(".local/share")
            }
        }
    };
    Ok(base.join("parlor").join("parlor.db"))
}

pub fn run(args: Args) -> Result<ExitCode> {
    // The server's log: one line per event on standard error.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
    let db = match &args.db {
        Some(url) => DbUrl::parse(url)?,
        None => DbUrl::Sqlite(default_db()?),
    };
    let settings = args.settings();
    let mut resources = parlor_core::Resources::embedded();
    for path in &args.word_lists.word_lists {
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot read word list {}", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .filter(|s| !s.is_empty())
            .with_context(|| format!("{} has no file name to name the list by", path.display()))?;
        let case = if args.word_lists.fold_case {
            parlor_lexicon::Case::Fold
        } else {
            parlor_lexicon::Case::SkipCapitalised
        };
        let (lexicon, report) =
            parlor_lexicon::Lexicon::from_bytes_with_case(name.clone(), &bytes, case)
                .with_context(|| format!("cannot use word list {}", path.display()))?;
        let mut skipped = Vec::new();
        if report.skipped > 0 {
            skipped.push(format!(
                "{} lines skipped: characters outside a-z",
                report.skipped
            ));
        }
        if report.capitalised > 0 {
            skipped.push(format!(
                "{} capitalised lines skipped as proper nouns; --fold-case reads them",
                report.capitalised
            ));
        }
        eprintln!(
            "parlor serve: word list {name:?}: {} words from {}{}",
            lexicon.len(),
            path.display(),
            if skipped.is_empty() {
                String::new()
            } else {
                format!(" ({})", skipped.join("; "))
            }
        );
        resources = resources.with_lexicon(std::sync::Arc::new(lexicon));
    }
    let shown = db.to_string();
    let mut registry = crate::games::registry();
    if args.games.with_nim {
        registry.register::<parlor_core::doc_nim::Nim>();
    }
    let mut puzzles = parlor_server::puzzles::Puzzles::new(&registry, crate::puzzles::shipped()?)
        .map_err(anyhow::Error::msg)
        .context("the shipped puzzles")?;
    for choice in &args.games.daily_choices {
        let mut parts = choice.splitn(3, ':');
        let (Some(date), Some(set), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
            anyhow::bail!("--daily-choice {choice:?}: write DATE:SET:ID, as 2026-12-01:sprouts/normal-5:1a2b3c4d5e6f7a8b");
        };
        puzzles
            .replace_day(date, set, id)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("--daily-choice {choice:?}"))?;
    }
    let mut settings = settings;
    settings.puzzles = puzzles;
    parlor_server::serve_blocking(
        registry,
        resources,
        &db,
        args.addr,
        settings,
        parlor_server::RuntimeOptions {
            workers: (args.runtime.workers > 0).then_some(usize::from(args.runtime.workers)),
            event_interval: (args.runtime.event_interval > 0)
                .then_some(args.runtime.event_interval),
            global_queue_interval: (args.runtime.global_queue_interval > 0)
                .then_some(args.runtime.global_queue_interval),
        },
        |server: &Server| {
            // The first line is read by `parlor serve-bench`: keep its shape.
            println!("parlor serve: lobby at http://{}/", server.addr());
            println!(
                "parlor serve: games stored in {shown} ({}); Ctrl-C stops",
                server.storage_kind()
            );
            let _ = std::io::stdout().flush();
        },
    )
    .with_context(|| format!("cannot serve on {}", args.addr))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: Args,
    }

    /// `parlor serve` without flags runs on exactly the server's defaults:
    /// the two cannot drift apart.
    #[test]
    fn no_flags_give_the_server_s_defaults() {
        let cli = Cli::try_parse_from(["serve"]).unwrap();
        assert_eq!(
            format!("{:?}", cli.serve.settings()),
            format!("{:?}", Settings::default())
        );
        let cli = Cli::try_parse_from([
            "serve",
            "--bot-delay-ms",
            "0",
            "--no-rate-limits",
            "--abandon-after",
            "0",
        ])
        .unwrap();
        let s = cli.serve.settings();
        assert_eq!(s.bots.bot_delay, Duration::ZERO);
        assert!(!s.rates.rate_limits);
        assert_eq!(s.games.abandon_after, None);
    }
}
