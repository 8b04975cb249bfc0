//! `parlor sprouts solve`: who wins Sprouts from the start with N spots (or
//! from a given position), under normal or misère play, with nimbers.

use anyhow::{bail, Context, Result};
use parlor_sprouts::solve::{Query, Solver, MAX_SPOTS, MAX_THREADS};
use parlor_sprouts::Position;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The largest table file read (`--db`), checked before reading it.
const MAX_DB_BYTES: u64 = 4 << 30;

/// Options of `parlor sprouts solve`.
#[derive(clap::Args)]
pub struct Args {
    /// Start positions to solve: N or A..B (inclusive), e.g. 1..11.
    #[arg(long, conflicts_with = "position")]
    spots: Option<String>,
    /// A position in the card notation instead, e.g. "4,1,3,2/4,2,3,1".
    #[arg(long)]
    position: Option<String>,
    /// Misère play: the last player to move loses.
    #[arg(long)]
    misere: bool,
    /// Also compute the nimber (normal play only).
    #[arg(long)]
    nimber: bool,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Forget everything learned before each N (to time each N from a
    /// fresh start); by default later N reuse what earlier ones found.
    #[arg(long)]
    fresh: bool,
    /// A table file of solved parts: read before solving if it exists,
    /// written back after (off by default).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Print JSON: an array with one item per position.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Item {
    #[serde(skip_serializing_if = "Option::is_none")]
    spots: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    misere: bool,
    first_player_wins: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    nimber: Option<u32>,
    seconds: f64,
    positions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    peak_memory_mib: Option<f64>,
}

/// Reads `N` or `A..B` (also `A..=B`), both within 1..=MAX_SPOTS.
fn spot_range(text: &str) -> Result<(u32, u32)> {
    let bad =
        || anyhow::anyhow!("--spots takes N or A..B with 1 <= A <= B <= {MAX_SPOTS}, not {text:?}");
    let text = text.trim();
    if text.len() > 16 {
        return Err(bad());
    }
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (
                a.trim().parse().map_err(|_| bad())?,
                b.trim().parse().map_err(|_| bad())?,
            )
        }
        None => {
            let n: u32 = text.parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a == 0 || a > b || b > MAX_SPOTS {
        return Err(bad());
    }
    Ok((a, b))
}

/// The process's peak resident memory, where the system says (Linux).
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Runs `parlor sprouts solve`.
pub fn run(args: Args) -> Result<ExitCode> {
    if args.threads == 0 || args.threads > MAX_THREADS {
        bail!(
            "--threads runs from 1 to {MAX_THREADS}, not {}",
            args.threads
        );
    }
    if args.misere && args.nimber {
        bail!("nimbers are for normal play; drop --nimber or --misere");
    }
    let targets: Vec<(Option<u32>, Position)> = match (&args.spots, &args.position) {
        (Some(s), None) => {
            let (a, b) = spot_range(s)?;
            (a..=b).map(|n| (Some(n), Position::start(n))).collect()
        }
        (None, Some(p)) => vec![(None, Position::parse(p).context("bad --position")?)],
        _ => bail!("give --spots A..B or --position \"POSITION\""),
    };
    let solver = Solver::new();
    if let Some(path) = &args.db {
        if path.exists() {
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            if size > MAX_DB_BYTES {
                bail!(
                    "the table file {} has {size} bytes; at most {MAX_DB_BYTES} are read",
                    path.display()
                );
            }
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the table file {}", path.display()))?;
            let n = solver
                .import(&text)
                .with_context(|| format!("table file {}", path.display()))?;
            if !args.json {
                eprintln!("read {n} facts from {}", path.display());
            }
        }
    }
    let query = Query {
        misere: args.misere,
        nimber: args.nimber,
        threads: args.threads,
    };
    let play = if args.misere { "misère" } else { "normal" };
    let tty = std::io::stderr().is_terminal();
    let mut items = Vec::new();
    for (spots, position) in targets {
        if args.fresh {
            solver.clear();
        }
        let what = match spots {
            Some(n) => format!("{n} spots"),
            None => position.to_string(),
        };
        let bar = if tty {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar.set_message(progress(&what, play, solver.table_sizes()));
            bar.enable_steady_tick(Duration::from_millis(200));
            Some(bar)
        } else {
            None
        };
        let start = Instant::now();
        let done = std::sync::atomic::AtomicBool::new(false);
        let answer = std::thread::scope(|scope| {
            // What the tables hold, read twice a second beside the search
            // (a lock per shard, nothing on the search's own path): how a
            // long solve shows it is moving.
            if let Some(bar) = &bar {
                let (solver, done, what) = (&solver, &done, &what);
                scope.spawn(move || {
                    while !done.load(std::sync::atomic::Ordering::Relaxed) {
                        std::thread::park_timeout(Duration::from_millis(500));
                        bar.set_message(progress(what, play, solver.table_sizes()));
                    }
                });
            }
            let answer = solver.solve(&position, &query);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            answer
        });
        let seconds = start.elapsed().as_secs_f64();
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let answer = answer?;
        let item = Item {
            spots,
            position: spots.is_none().then(|| position.to_string()),
            misere: args.misere,
            first_player_wins: answer.first_player_wins,
            nimber: answer.nimber,
            seconds,
            positions: answer.positions,
            peak_memory_mib: peak_memory_mib(),
        };
        if !args.json {
            let who = if item.first_player_wins {
                "first player wins"
            } else {
                "second player wins"
            };
            let nim = item
                .nimber
                .map(|n| format!(", nimber {n}"))
                .unwrap_or_default();
            let mem = item
                .peak_memory_mib
                .map(|m| format!(", peak memory {m:.0} MiB"))
                .unwrap_or_default();
            println!(
                "{what} ({play}): {who}{nim}; {seconds:.3} s, {} positions{mem}",
                item.positions
            );
        }
        items.push(item);
    }
    if let Some(path) = &args.db {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, solver.export())
            .and_then(|_| std::fs::rename(&tmp, path))
            .with_context(|| format!("cannot write the table file {}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&items)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// The progress line of a solve: what is solved and what the tables
/// hold so far (lands with something known, misère positions).
fn progress(what: &str, play: &str, (lands, misere): (usize, usize)) -> String {
    let mut line = format!("solving {what} ({play}): {} lands known", thousands(lands));
    if misere > 0 {
        line.push_str(&format!(", {} misère positions", thousands(misere)));
    }
    line
}

/// `1234567` as `1,234,567`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{progress, spot_range};

    #[test]
    fn the_progress_line_counts_what_the_tables_hold() {
        assert_eq!(
            progress("14 spots", "normal", (1_234_567, 0)),
            "solving 14 spots (normal): 1,234,567 lands known"
        );
        assert_eq!(
            progress("11 spots", "misère", (999, 1000)),
            "solving 11 spots (misère): 999 lands known, 1,000 misère positions"
        );
    }

    #[test]
    fn spot_ranges() {
        assert_eq!(spot_range("1..11").unwrap(), (1, 11));
        assert_eq!(spot_range("3..=5").unwrap(), (3, 5));
        assert_eq!(spot_range("7").unwrap(), (7, 7));
        for bad in ["0", "5..3", "1..99", "x", "1..", "..4", "", "1..2..3"] {
            assert!(spot_range(bad).is_err(), "{bad}");
        }
    }
}
