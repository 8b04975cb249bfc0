//! `parlor conformance GAME`: the shared conformance suite
//! ([`parlor_core::conformance`]) over many seeds, with each game's default
//! mix of configs, as a benchmark and a long-running check.

use anyhow::{bail, Result};
use parlor_core::conformance::{DynSuite, Totals};
use parlor_core::{Resources, Seed};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// `parlor conformance`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: any registered game (`parlor games`), or the examples
    /// sealed-bid and nim.
    game: String,
    /// How many games to play (seeds SEED, SEED+1, ...).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// The word list of the word games (default: the embedded `en`). A
    /// short list makes long runs of Word Sprout, whose every step checks
    /// up to 64 listed plays, affordable.
    #[command(flatten)]
    dict: crate::dict::DictArgs,
}

/// Runs the suite; exits non-zero on the first failure, naming its seed.
pub fn run(args: Args) -> Result<ExitCode> {
    let (resources, lexicon) = match (&args.dict.dict, &args.dict.lexicon) {
        (None, None) => (Resources::embedded(), parlor_lexicon::DEFAULT.to_string()),
        _ => args.dict.resources()?,
    };
    let lexicon = lexicon.as_str();
    let registry = crate::games::with_examples();
    let name = match args.game.as_str() {
        "word-sprout" => "wordsprout",
        g => g,
    };
    let entry = registry.get(name)?;
    if entry.suites(&resources, lexicon).is_none() {
        bail!("{name} was registered without its conformance suites");
    }
    let name = entry.info().name;
    // The shipped puzzles of the game, every one proved again by its
    // solver: the long check of what the server offers players.
    if let Some(book) = entry.puzzles() {
        let puzzles: Vec<_> = crate::puzzles::shipped()?
            .into_iter()
            .filter(|p| p.game == name)
            .collect();
        let started = Instant::now();
        for p in &puzzles {
            if let Err(e) = (book.check)(p, &Resources::embedded()) {
                eprintln!(
                    "{name}: the shipped puzzle {} ({}, seed {}) does not prove again: {e}",
                    parlor_server::puzzles::puzzle_id(p),
                    p.kind,
                    p.seed
                );
                return Ok(ExitCode::FAILURE);
            }
        }
        if !args.json {
            eprintln!(
                "{name}: {} shipped puzzles proved again in {:.1} s",
                puzzles.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    drive(&args, &resources, name, || {
        entry.suites(&resources, lexicon).unwrap_or_default()
    })
}

struct Failure {
    seed: Seed,
    config: String,
    message: String,
}

fn drive(
    args: &Args,
    resources: &Resources,
    name: &str,
    mix: impl Fn() -> Vec<Box<dyn DynSuite>> + Sync,
) -> Result<ExitCode> {
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let n = args.games;
    let bar = if std::io::stderr().is_terminal() && !args.json {
        let bar = indicatif::ProgressBar::new(n);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games {per_sec} {elapsed}/{duration} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    // A failing game panics; its message is collected, not printed.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<Failure>> = Mutex::new(None);
    let totals = Mutex::new(Totals::default());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let mut suites = mix();
                let mut mine = Totals::default();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= n || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let seed = args.seed.wrapping_add(k);
                    let i = (seed % suites.len() as u64) as usize;
                    let suite = &mut suites[i];
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        suite.play(seed, resources)
                    }));
                    match result {
                        Ok(t) => mine += t,
                        Err(p) => {
                            let message = p
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_else(|| "unknown panic".into());
                            stop.store(true, Ordering::Relaxed);
                            let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
                            if f.as_ref().is_none_or(|f| f.seed > seed) {
                                *f = Some(Failure {
                                    seed,
                                    config: suites[i].config_json(),
                                    message,
                                });
                            }
                            break;
                        }
                    }
                    if let Some(bar) = &bar {
                        bar.inc(1);
                    }
                }
                *totals.lock().unwrap_or_else(|e| e.into_inner()) += mine;
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    std::panic::set_hook(hook);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let t = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    let failure = failure.into_inner().unwrap_or_else(|e| e.into_inner());
    let rate = t.games as f64 / seconds.max(1e-9);
    if args.json {
        let out = serde_json::json!({
            "game": name,
            "games": t.games,
            "actions": t.actions,
            "refused": t.refused,
            "listed_checked": t.listed_checked,
            "json_probes": t.json_probes,
            "seconds": seconds,
            "games_per_second": rate,
            "jobs": jobs,
            "first_seed": args.seed,
            "failure": failure.as_ref().map(|f| serde_json::json!({
                "seed": f.seed, "config": f.config, "message": f.message,
            })),
        });
        println!("{out}");
    } else {
        println!(
            "{}: {} games, {} actions ({} refused, {} listed actions checked, {} JSON probes) \
             in {seconds:.1} s on {jobs} threads: {rate:.0} games/s",
            name, t.games, t.actions, t.refused, t.listed_checked, t.json_probes
        );
        match &failure {
            None => println!("failures: 0"),
            Some(f) => println!(
                "FAILED at seed {} (config {}):\n{}",
                f.seed, f.config, f.message
            ),
        }
    }
    Ok(if failure.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
