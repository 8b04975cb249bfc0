//! `parlor puzzles`: puzzles from the games' solvers, for every game that
//! makes them (through the registry's [`parlor_core::PuzzleBook`]s).
//!
//! A set of puzzles is a file of JSON lines, one [`parlor_core::Puzzle`]
//! each. `generate` appends to it, so a run stopped half-way goes on where
//! it was: the seeds it tried are those up to the file's last puzzle (the
//! seeds after that one found nothing, and are tried again).

use anyhow::{bail, Context, Result};
use parlor_core::{Puzzle, PuzzleBook, Resources, Seed};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `parlor puzzles`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// The kinds of puzzles each game makes.
    Kinds {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Find puzzles of one kind and append them to a file of JSON lines
    /// (resumable: what the file holds counts, and its seeds are not tried
    /// again).
    Generate {
        /// The game (`parlor puzzles kinds` lists those that make puzzles).
        #[arg(long)]
        game: String,
        /// The kind of puzzle.
        #[arg(long)]
        kind: String,
        /// How many puzzles the file should hold.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// The first seed to try (then the next ones, one per attempt).
        #[arg(long, default_value_t = 1)]
        seed: Seed,
        /// The file of JSON lines to append to.
        #[arg(long)]
        out: PathBuf,
        /// Print a JSON summary at the end.
        #[arg(long)]
        json: bool,
    },
    /// Prove every puzzle of a file again (or a sample of them), with its
    /// game's solver: a line for each that does not hold.
    Check {
        /// The file of JSON lines.
        file: PathBuf,
        /// Only this many, spread evenly over the file.
        #[arg(long)]
        sample: Option<usize>,
        /// Print a JSON summary.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `parlor puzzles` command.
/// The puzzle sets under `data/puzzles/`, built into the binary: a fresh
/// machine's server has puzzles without a file beside it.
const SHIPPED: &[(&str, &str)] = &[
    (
        "gobble-longest-4x4",
        include_str!("../../../data/puzzles/gobble-longest-4x4.jsonl"),
    ),
    (
        "gobble-longest-5x5",
        include_str!("../../../data/puzzles/gobble-longest-5x5.jsonl"),
    ),
    (
        "sprouts-normal-4",
        include_str!("../../../data/puzzles/sprouts-normal-4.jsonl"),
    ),
    (
        "sprouts-normal-5",
        include_str!("../../../data/puzzles/sprouts-normal-5.jsonl"),
    ),
    (
        "sprouts-normal-6",
        include_str!("../../../data/puzzles/sprouts-normal-6.jsonl"),
    ),
    (
        "sprouts-misere-4",
        include_str!("../../../data/puzzles/sprouts-misere-4.jsonl"),
    ),
    (
        "sprouts-misere-5",
        include_str!("../../../data/puzzles/sprouts-misere-5.jsonl"),
    ),
    (
        "twingrid-best-word",
        include_str!("../../../data/puzzles/twingrid-best-word.jsonl"),
    ),
    (
        "wordchain-best-score",
        include_str!("../../../data/puzzles/wordchain-best-score.jsonl"),
    ),
    (
        "wordchain-best-tactical",
        include_str!("../../../data/puzzles/wordchain-best-tactical.jsonl"),
    ),
    (
        "wordsprout-keep-the-win",
        include_str!("../../../data/puzzles/wordsprout-keep-the-win.jsonl"),
    ),
];

/// Every shipped puzzle, set by set.
pub fn shipped() -> Result<Vec<Puzzle>> {
    let mut all = Vec::new();
    for (name, text) in SHIPPED {
        all.extend(
            parlor_server::puzzles::read_puzzles(text)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("data/puzzles/{name}.jsonl"))?,
        );
    }
    Ok(all)
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Kinds { json } => kinds(json),
        Command::Generate {
            game,
            kind,
            count,
            seed,
            out,
            json,
        } => generate(&game, &kind, count, seed, &out, json),
        Command::Check { file, sample, json } => check(&file, sample, json),
    }
}

/// The puzzle book of `game`, or why there is none.
fn book(game: &str) -> Result<PuzzleBook> {
    let registry = crate::games::registry();
    let entry = registry.get(game)?;
    entry.puzzles().with_context(|| {
        let with: Vec<&str> = registry
            .names()
            .into_iter()
            .filter(|n| registry.get(n).is_ok_and(|e| e.puzzles().is_some()))
            .collect();
        format!(
            "{game} makes no puzzles yet; the games that do: {}",
            with.join(", ")
        )
    })
}

fn kinds(json: bool) -> Result<ExitCode> {
    let registry = crate::games::registry();
    let mut all = Vec::new();
    for name in registry.names() {
        let Some(book) = registry.get(name)?.puzzles() else {
            continue;
        };
        for kind in book.kinds {
            if json {
                all.push(serde_json::json!({"game": name, "kind": kind.name, "about": kind.about}));
            } else {
                println!("{name:<12} {:<12} {}", kind.name, kind.about);
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// The puzzles of a file, in order, each with its line number.
fn read(file: &Path) -> Result<Vec<(usize, Puzzle)>> {
    let text =
        std::fs::File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(text).lines().enumerate() {
        let line =
            line.with_context(|| format!("{}: cannot read line {}", file.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let puzzle: Puzzle = serde_json::from_str(&line).with_context(|| {
            format!(
                "{} line {}: not a puzzle (a JSON object with game, kind, seed, config, seat, answers, themes, proof_size, proof)",
                file.display(),
                i + 1
            )
        })?;
        out.push((i + 1, puzzle));
    }
    Ok(out)
}

fn generate(
    game: &str,
    kind: &str,
    count: u64,
    first_seed: Seed,
    out: &Path,
    json: bool,
) -> Result<ExitCode> {
    let book = book(game)?;
    book.kind(kind).map_err(anyhow::Error::msg)?;
    let held = if out.exists() { read(out)? } else { Vec::new() };
    let mine: Vec<&Puzzle> = held
        .iter()
        .map(|(_, p)| p)
        .filter(|p| p.game == game && p.kind == kind)
        .collect();
    if mine.len() != held.len() {
        bail!(
            "{} holds puzzles of other games or kinds; give a file for {game} {kind} alone",
            out.display()
        );
    }
    let mut seed = mine.last().map_or(first_seed, |p| p.seed.wrapping_add(1));
    let mut found = mine.len() as u64;
    // A set holds each position once: seeds that find a puzzle already
    // held are passed over.
    let mut keys: std::collections::HashSet<String> = mine.iter().map(|p| p.key.clone()).collect();
    let mut repeats = 0u64;
    let resources = Resources::embedded();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let bar = (std::io::stderr().is_terminal() && !json).then(|| {
        let bar = indicatif::ProgressBar::new(count);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} puzzles {elapsed}/{duration} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(found);
        bar
    });
    let started = std::time::Instant::now();
    let mut tried = 0u64;
    while found < count {
        let puzzle = (book.find)(kind, seed, &resources).map_err(anyhow::Error::msg)?;
        tried += 1;
        if let Some(p) = puzzle.filter(|p| {
            let new = keys.insert(p.key.clone());
            repeats += u64::from(!new);
            new
        }) {
            // One line per puzzle, written whole: a run killed between
            // two leaves a file that reads back.
            let mut line = serde_json::to_string(&p)?;
            line.push('\n');
            file.write_all(line.as_bytes())?;
            file.flush()?;
            found += 1;
        }
        if let Some(bar) = &bar {
            bar.set_position(found);
            bar.set_message(format!("seed {seed}, {tried} tried"));
        }
        seed = seed.wrapping_add(1);
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let added = found - mine.len() as u64;
    if json {
        println!(
            "{}",
            serde_json::json!({
                "game": game, "kind": kind, "file": out.display().to_string(),
                "puzzles": found, "added": added, "seeds_tried": tried, "repeats_passed_over": repeats,
                "seconds": started.elapsed().as_secs_f64(),
            })
        );
    } else {
        println!(
            "{}: {found} puzzles of {game} {kind} ({added} new from {tried} seeds, {repeats} already held passed over, {:.1} s)",
            out.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn check(file: &Path, sample: Option<usize>, json: bool) -> Result<ExitCode> {
    let all = read(file)?;
    let chosen: Vec<&(usize, Puzzle)> = match sample {
        Some(k) if k < all.len() => (0..k).map(|i| &all[i * all.len() / k]).collect(),
        _ => all.iter().collect(),
    };
    let resources = Resources::embedded();
    let mut failed = Vec::new();
    let mut first_line: std::collections::HashMap<(&str, &str), usize> = Default::default();
    for (line, puzzle) in &all {
        if let Some(before) = first_line.insert((puzzle.game.as_str(), puzzle.key.as_str()), *line)
        {
            let e = format!("the same puzzle as line {before}");
            if !json {
                eprintln!("{} line {line}: {e}", file.display());
            }
            failed.push(serde_json::json!({"line": line, "error": e}));
        }
    }
    for (line, puzzle) in &chosen {
        let verdict = book(&puzzle.game)
            .and_then(|b| (b.check)(puzzle, &resources).map_err(anyhow::Error::msg));
        if let Err(e) = verdict {
            if !json {
                eprintln!("{} line {line}: {e}", file.display());
            }
            failed.push(serde_json::json!({"line": line, "error": e.to_string()}));
        }
    }
    if json {
        println!(
            "{}",
            serde_json::json!({"file": file.display().to_string(), "checked": chosen.len(), "failed": failed})
        );
    } else {
        println!(
            "{}: {} puzzles checked, {} failed",
            file.display(),
            chosen.len(),
            failed.len()
        );
    }
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
