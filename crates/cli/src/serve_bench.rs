//! `parlor serve-bench`: load on a real `parlor serve` over loopback
//! WebSockets: many simultaneous games, one seat played by this process,
//! the others by the server's bots.
//!
//! The server runs as a child process (`parlor serve` on 127.0.0.1 and a
//! free port), so its CPU time is measured apart from the load generator's,
//! and each process stays within its own open-file limit.

use anyhow::{bail, Context, Result};
use parlor_server::bench::{Chooser, LoadOptions, LoadReport, RematchWay};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

/// Options of `parlor serve-bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games held at once.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Seconds measured once every game is connected (and the warm-up is
    /// over).
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Seconds played before the measurement starts. Every game starts at
    /// once, so none ends before about one game's life: a window that
    /// starts at once misses part of the cost of games ending and their
    /// rematches starting (nim, think 5 s: a game lives ~26 s; 30 s of
    /// warm-up measure a server whose games are of every age).
    #[arg(long, default_value_t = 0, value_name = "SECONDS")]
    pub warmup: u64,
    /// Mean pause before each client action, in milliseconds (uniform in
    /// 0..2x): sets the offered load, games / think.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub think_ms: u64,
    /// The game played: a registered game, or `nim` (a trivial game with a
    /// random bot, to measure the server itself rather than a game).
    #[arg(long, default_value = "wordsprout")]
    pub game: String,
    /// Its rules as JSON (fields left out take the defaults).
    #[arg(long, default_value = "{}")]
    pub config: String,
    /// Level of the bot at seat 1 (`none`: seat 1 is left empty and the
    /// game must be playable alone).
    #[arg(long, default_value = "easy")]
    pub bot: String,
    /// Database for the server: sqlite://FILE (default: a new file in a
    /// temporary folder) or postgres://USER@HOST:PORT/DB (for example the
    /// one `scripts/with-postgres` starts, as $PARLOR_PG_URL).
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    /// Games created at once during set-up.
    #[arg(long, default_value_t = 64)]
    pub setup_concurrency: usize,
    /// Ask for each rematch over HTTP (`POST .../rematch` on a new
    /// connection), as the load generator did before the WebSocket's
    /// `rematch` message: to compare with older servers, or to tell the
    /// server's gains from the protocol's.
    #[arg(long, conflicts_with = "rematch_new_socket")]
    pub rematch_over_http: bool,
    /// Ask for each rematch over the game's WebSocket but join it on a new
    /// one, as the load generator did before the connection could move to
    /// the rematch (`"move": true`): to compare with older servers, or to
    /// tell the server's gains from the protocol's.
    #[arg(long)]
    pub rematch_new_socket: bool,
    /// An option passed on to `parlor serve` (repeatable), e.g.
    /// `--server-arg=--workers=1`: to measure the server's settings.
    #[arg(long = "server-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub server_args: Vec<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// How the client plays a game whose actions are not listed: what the
/// game's registry entry offers a client that sees only its views
/// (Gobble's words found on the board, then `done`). A game that neither
/// lists its actions nor offers any is reported by the load generator as
/// an error, never measured as zero actions.
fn chooser(game: &str, config: &serde_json::Value) -> Result<Option<Chooser>> {
    let registry = crate::games::with_examples();
    let entry = registry.get(game)?;
    entry
        .view_actions(config, &parlor_core::Resources::embedded())
        .transpose()
        .map_err(|e| anyhow::anyhow!("serve-bench plays {game} with an embedded word list: {e}"))
}

/// CPU seconds (user + system) a process has used, from /proc.
fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // USER_HZ is 100 on every Linux we run on.
    Some((utime + stime) / 100.0)
}

fn rss_mib(pid: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The benchmark's server and its scratch database: the server is stopped
/// and the folder (about 100 MB of SQLite after a run) removed however the
/// run ends, an error included.
#[derive(Default)]
struct Scratch {
    server: Option<std::process::Child>,
    folder: Option<std::path::PathBuf>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(mut server) = self.server.take() {
            let _ = server.kill();
            let _ = server.wait();
        }
        if let Some(folder) = self.folder.take() {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.seconds == 0 || args.seconds > 3600 {
        bail!("--seconds must be 1 to 3600");
    }
    if args.warmup > 3600 {
        bail!("--warmup must be 0 to 3600");
    }
    let config: serde_json::Value =
        serde_json::from_str(&args.config).context("--config is not JSON")?;
    let mut scratch = Scratch::default();
    let db = match &args.db {
        Some(url) => url.clone(),
        None => {
            let temp =
                std::env::temp_dir().join(format!("parlor-serve-bench-{}", std::process::id()));
            std::fs::create_dir_all(&temp)?;
            scratch.folder = Some(temp.clone());
            format!("sqlite://{}", temp.join("bench.db").display())
        }
    };
    // This process holds one socket per game.
    parlor_server::raise_fd_limit();
    let exe = std::env::current_exe().context("cannot find the parlor binary")?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .args([
            "--bot-delay-ms",
            "0",
            "--bot-clocked-delay-ms",
            "0",
            "--with-nim",
            // One address plays every game: metering it would measure the
            // limits, not the server.
            "--no-rate-limits",
            // Each game's socket, and during a rematch its next one and
            // the request that makes it, while the old one closes.
            "--max-connections",
            &(2 * args.games + 1024).to_string(),
        ])
        .args(&args.server_args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot start parlor serve")?;
    let pid = child.id().to_string();
    let stdout = child.stdout.take().context("no stdout from parlor serve")?;
    scratch.server = Some(child);
    let mut lines = BufReader::new(stdout).lines();
    let first = lines.next().transpose()?.unwrap_or_default();
    let addr: SocketAddr = match first
        .split("http://")
        .nth(1)
        .and_then(|s| s.trim_end_matches('/').parse().ok())
    {
        Some(a) => a,
        None => bail!("parlor serve did not start: {first:?}"),
    };
    // Keep draining the server's output so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines.by_ref() {});
    eprintln!(
        "serve-bench: server pid {pid} on {addr} with {db}; {} {} games, think {} ms, {} s",
        args.games, args.game, args.think_ms, args.seconds
    );
    let bots = if args.bot == "none" {
        Vec::new()
    } else {
        vec![(1, args.bot.clone())]
    };
    let cpu0 = cpu_seconds(&pid);
    let choose = chooser(&args.game, &config)?;
    // The server's CPU time sampled through the run, so that the measured
    // window (after set-up) can be told apart from set-up.
    let samples = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(f64, f64)>::new()));
    let sampling = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let (samples, sampling, pid) = (samples.clone(), sampling.clone(), pid.clone());
        let t0 = std::time::Instant::now();
        std::thread::spawn(move || {
            while sampling.load(std::sync::atomic::Ordering::Relaxed) {
                if let Some(cpu) = cpu_seconds(&pid) {
                    let mut s = samples.lock().unwrap_or_else(|e| e.into_inner());
                    s.push((t0.elapsed().as_secs_f64(), cpu));
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let report: LoadReport = parlor_server::load_blocking(LoadOptions {
        addr,
        game: args.game.clone(),
        config,
        bots,
        games: args.games,
        duration: Duration::from_secs(args.seconds),
        warmup: Duration::from_secs(args.warmup),
        think: Duration::from_millis(args.think_ms),
        setup_concurrency: args.setup_concurrency,
        choose,
        rematch: if args.rematch_over_http {
            RematchWay::Http
        } else if args.rematch_new_socket {
            RematchWay::NewSocket
        } else {
            RematchWay::Move
        },
    })?;
    let cpu1 = cpu_seconds(&pid);
    let rss = rss_mib(&pid);
    sampling.store(false, std::sync::atomic::Ordering::Relaxed);
    let _ = sampler.join();
    // CPU in the measured window (after set-up and warm-up): the samples
    // nearest its start and end.
    let window_start = report.setup_seconds + report.warmup_seconds;
    let measured_cpu = {
        let s = samples.lock().unwrap_or_else(|e| e.into_inner());
        let at = |t: f64| {
            s.iter()
                .min_by(|a, b| (a.0 - t).abs().total_cmp(&(b.0 - t).abs()))
                .map(|x| x.1)
        };
        match (at(window_start), at(window_start + report.seconds)) {
            (Some(a), Some(b)) if b >= a => Some(b - a),
            _ => None,
        }
    };
    let cpu_per_action_us = measured_cpu
        .filter(|_| report.total_actions > 0)
        .map(|c| c * 1e6 / report.total_actions as f64);
    drop(scratch);
    let server_cpu = match (cpu0, cpu1) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    let storage = if db.starts_with("postgres") {
        "postgres"
    } else {
        "sqlite"
    };
    if args.json {
        let mut v = serde_json::to_value(&report)?;
        v["storage"] = serde_json::json!(storage);
        v["game"] = serde_json::json!(args.game);
        v["think_ms"] = serde_json::json!(args.think_ms);
        v["server_cpu_seconds"] = serde_json::json!(server_cpu);
        v["server_cpu_measured_seconds"] = serde_json::json!(measured_cpu);
        v["server_cpu_us_per_action"] = serde_json::json!(cpu_per_action_us);
        v["server_rss_mib"] = serde_json::json!(rss);
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("storage            {storage}");
        println!("game               {} (bot: {})", args.game, args.bot);
        println!(
            "games held         {} (set-up {:.1} s)",
            report.games_held, report.setup_seconds
        );
        println!(
            "measured           {:.1} s (after {:.1} s of warm-up)",
            report.seconds, report.warmup_seconds
        );
        println!(
            "actions            {} ({} by this client, {} games finished)",
            report.total_actions, report.client_actions, report.games_finished
        );
        println!("actions/s          {:.0}", report.actions_per_second);
        println!(
            "ack latency ms     p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
            report.p50_ms, report.p90_ms, report.p99_ms, report.p999_ms, report.max_ms
        );
        if report.max_sent_unix_ms > 0 {
            println!(
                "slowest ack        sent at {}.{:03} (Unix seconds; the server logs in UTC)",
                report.max_sent_unix_ms / 1000,
                report.max_sent_unix_ms % 1000
            );
        }
        if let Some(cpu) = server_cpu {
            println!(
                "server CPU         {:.1} s in {:.1} s (set-up, warm-up and measurement; {:.0}% of one core)",
                cpu,
                window_start + report.seconds,
                100.0 * cpu / (window_start + report.seconds).max(1e-9)
            );
        }
        if let (Some(cpu), Some(per)) = (measured_cpu, cpu_per_action_us) {
            println!(
                "server CPU measured {:.1} s in {:.1} s ({:.0}% of one core): {per:.0} µs per action",
                cpu,
                report.seconds,
                100.0 * cpu / report.seconds.max(1e-9)
            );
        }
        if let Some(rss) = rss {
            println!("server memory      {rss:.0} MiB resident");
        }
        if report.client_actions == 0 {
            println!("WARNING            this client made no action: nothing was measured");
        }
        println!("errors             {}", report.errors);
        for e in &report.error_samples {
            println!("  {e}");
        }
    }
    Ok(if report.errors == 0 && report.client_actions > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
