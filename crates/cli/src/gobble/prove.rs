//! `parlor gobble prove`: which boards score at least a target, proved by
//! an exhaustive branch and bound over classes of boards, in one process or
//! as work units for a cluster scheduler (`--units N --unit K`, then
//! `--merge DIR`; docs/rules/gobble.md, "Proving the best boards" and
//! "Proving on a cluster").

use super::*;
#[derive(clap::Args)]
pub(super) struct ProveArgs {
    /// Board size: N or WxH (at most 4^16 top-level classes).
    #[arg(long, value_parser = parse_size, required_unless_present_any = ["merge", "estimate", "draw"])]
    size: Option<Size>,
    /// Scoring: gobble or boggle.
    #[arg(long, default_value = "gobble", value_parser = parse_scoring)]
    scoring: Scoring,
    #[command(flatten)]
    dict: DictArgs,
    /// Print every board scoring at least this (default: the best board of
    /// a `gobble best` search of 300 runs from seed 1 on one thread, so the
    /// default is the same on every run and a checkpoint resumes).
    #[arg(long)]
    above: Option<u32>,
    /// Letter buckets of the top-level classes: comma-separated groups
    /// covering a-z once each (default by size: `aeiou` and the rest up to
    /// 3x3; `bdfgjqvwxz,aeiou,lnrsy,chkmpt` beyond, with the cell buckets
    /// below). Given, it sets every cell's, and only --corner-buckets and
    /// --cell-buckets change some.
    #[arg(long)]
    buckets: Option<String>,
    /// Letter buckets of the four corner cells (the same as
    /// `--cell-buckets corners=BUCKETS`, applied before them).
    #[arg(long, value_name = "BUCKETS")]
    corner_buckets: Option<String>,
    /// Other buckets for some cells, CELLS=BUCKETS: CELLS is `+`-separated
    /// cell numbers (row-major from 0), `ringK` (the cells at the K-th
    /// distance from the centre, ring0 the centre) or `corners`. Repeatable,
    /// later ones win. Default without --buckets: on 10-12 cells
    /// `corners=aeiosuy,bcdfghjklmnpqrtvwxz`, and on 3x4 also
    /// `ring1=aeijou,bcdfgmpqvwxz,hklnrsty`.
    #[arg(long, value_name = "CELLS=BUCKETS")]
    cell_buckets: Vec<String>,
    /// Only the classes numbered A to B-1 (a work unit for a scheduler:
    /// the proof is the union of the units covering 0..N, N printed by
    /// any run, e.g. `--classes 0..0`); default: all.
    #[arg(long, value_name = "A..B", value_parser = parse_class_range)]
    classes: Option<std::ops::Range<u64>>,
    /// Threads; 0 (default) uses every core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The most word paths one tree is built from: a group of classes with
    /// more is split by the letters of its central cells. Each thread's
    /// memory grows with it (about 72 bytes per path on 3x4); the answer does
    /// not depend on it.
    #[arg(long, value_name = "N", default_value_t = parlor_gobble::prove::DEFAULT_TREE_PATHS as u64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    tree_paths: u64,
    /// Measure instead of prove: only N whole groups of classes (one tree
    /// each), spread evenly over all, in one run; prints their CPU seconds
    /// and the whole proof's estimate (x groups / N).
    #[arg(long, value_name = "N", conflicts_with_all = ["classes", "checkpoint"])]
    sample: Option<u64>,
    /// Checkpoint file: finished classes are appended to it, and a run
    /// given an existing one skips the classes it lists. Ctrl-C stops the
    /// run after the classes under way, leaving the file ready to resume.
    #[arg(long, value_name = "PATH")]
    checkpoint: Option<std::path::PathBuf>,
    /// Split the proof into N work units (for a cluster: a Slurm job array
    /// or a Kubernetes Indexed Job) and run one of them, `--unit`; every run
    /// with the same settings deals the classes alike. Needs --out.
    #[arg(long, value_name = "N", conflicts_with_all = ["classes", "checkpoint", "sample"])]
    units: Option<u64>,
    /// The work unit to run, 0 to N-1 (default: $SLURM_ARRAY_TASK_ID, else
    /// $JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "K", requires = "units")]
    unit: Option<u64>,
    /// Folder of the units' results (`unit-K.json`) and checkpoints
    /// (`unit-K.ckpt`, from which a unit run again resumes).
    #[arg(long, value_name = "DIR", requires = "units")]
    out: Option<std::path::PathBuf>,
    /// Merge the results of every unit in DIR: checks they are of one proof
    /// and cover each class exactly once, and prints the proof's answer.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["units", "classes", "checkpoint", "sample"])]
    merge: Option<std::path::PathBuf>,
    /// Estimate the whole proof from the results in DIR of units chosen at
    /// random (`scripts/gobble-estimate` runs them): its CPU hours with a
    /// 95% interval, and the cores that would finish it in a week.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["units", "classes", "checkpoint", "sample", "merge"])]
    estimate: Option<std::path::PathBuf>,
    /// Instead of running a unit, print S of the `--units N` unit numbers
    /// drawn at random (uniformly, each at most once, from `--seed`), one a
    /// line: the sample `--estimate` needs (`scripts/gobble-estimate`).
    #[arg(long, value_name = "S", requires = "units", conflicts_with_all = ["unit", "out"])]
    draw: Option<u64>,
    /// The seed of `--draw`: the same seed draws the same units.
    #[arg(long, default_value_t = 46, requires = "draw")]
    seed: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `A..B`: class numbers A (inclusive) to B (exclusive).
fn parse_class_range(s: &str) -> Result<std::ops::Range<u64>, String> {
    let bad = || format!("{s:?}: a class range is A..B with whole numbers A <= B, e.g. 0..1000");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let (a, b) = (a.trim().parse::<u64>(), b.trim().parse::<u64>());
    match (a, b) {
        (Ok(a), Ok(b)) if a <= b => Ok(a..b),
        _ => Err(bad()),
    }
}

/// `prove --sample N`: the yardstick of a proof's cost (docs/rules/gobble.md,
/// "Proving the best boards"): N groups spread evenly over all, in one
/// process as a whole proof runs them (buffers reused), timed by the
/// process's CPU clock; the dictionary load and target search are before
/// the clock starts.
fn prove_sample(
    a: &ProveArgs,
    size: Size,
    prover: &parlor_gobble::prove::Prover,
    above: u32,
    threads: usize,
    samples: u64,
) -> Result<ExitCode> {
    if samples == 0 {
        bail!("--sample must be at least 1");
    }
    let groups = prover.raw_classes() / prover.group_len();
    let cpu0 = process_cpu_seconds();
    let start = Instant::now();
    catch_interrupt();
    let (found, stats, starts) = prover.prove_sample(above, threads, samples, &INTERRUPTED);
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_since(cpu0);
    let interrupted = INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst);
    let n = starts.len() as u64;
    let estimate = cpu.map(|c| c * groups as f64 / n as f64);
    let mut o = String::new();
    if a.json {
        let v = serde_json::json!({
            "size": size.to_string(),
            "scoring": a.scoring,
            "above": above,
            "sampled_groups": n,
            "groups": groups,
            "group_len": prover.group_len(),
            "cell_buckets": prover
                .cell_buckets()
                .iter()
                .map(|b| parlor_gobble::prove::buckets_text(b))
                .collect::<Vec<_>>(),
            "all_classes": prover.raw_classes(),
            "complete": !interrupted,
            "boards": found,
            "classes": stats.classes,
            "bounds": stats.bounds,
            "tree_nodes": stats.tree_nodes,
            "boards_scored": stats.boards_scored,
            "cpu_seconds": cpu,
            "seconds": wall,
            "estimated_cpu_seconds": estimate,
            "threads": threads,
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!(
            o,
            "{n} of {groups} groups ({} classes each, the first {}..{}), {} canonical classes, {} bounds, {} tree nodes, {} boards found, {:.1} s on {threads} thread(s)",
            prover.group_len(),
            starts.first().copied().unwrap_or(0),
            starts.first().copied().unwrap_or(0) + prover.group_len(),
            stats.classes,
            stats.bounds,
            stats.tree_nodes,
            found.len(),
            wall
        );
        match (cpu, estimate) {
            (Some(c), Some(e)) => outln!(
                o,
                "{c:.1} CPU s; the whole proof (x {groups}/{n}): about {e:.0} CPU s"
            ),
            _ => outln!(o, "no CPU clock on this system: no estimate"),
        }
    }
    emit(&o)?;
    Ok(if interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// Set by the first Ctrl-C: the proof stops after the classes under way.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    // SAFETY: signal() is async-signal-safe; a second Ctrl-C then ends the
    // process at once, as one expects when the first seems not to work.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

fn catch_interrupt() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to an atomic and resets the
    // disposition, both async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as *const () as libc::sighandler_t,
        );
    }
}

/// Runs of the search that sets a proof's default target: enough to reach
/// the known best 3x3, 3x4 and 4x4 ENABLE2K boards from seed 1.
const DEFAULT_TARGET_RUNS: u64 = 300;

/// The best board of a fixed search (one thread, seed 1, a set number of
/// runs): the same on every run, so a resumed proof keeps its target.
fn default_target(trie: &Trie, size: Size, scoring: Scoring) -> SearchStatus {
    let mut cfg = SearchConfig::new(size, scoring, Duration::from_secs(24 * 3600), 1, 1);
    cfg.max_runs = Some(DEFAULT_TARGET_RUNS);
    search(trie, &cfg, &AtomicBool::new(false), &|_| {})
}

pub(super) fn prove(a: ProveArgs) -> Result<ExitCode> {
    use parlor_gobble::prove::{buckets_text, parse_buckets, parse_cells, Prover, MAX_PROVE_CELLS};
    if let Some(dir) = &a.merge {
        return merge_units(dir, a.json);
    }
    if let Some(dir) = &a.estimate {
        return estimate_units(dir, a.json);
    }
    if let (Some(units), Some(draw)) = (a.units, a.draw) {
        return draw_units(units, draw, a.seed);
    }
    if a.units.is_some() && a.out.is_none() {
        bail!("--units needs --out DIR, the folder of the units' results and checkpoints");
    }
    let size = a.size.context("--size is required")?;
    // A unit's number is checked before any work: a job array's task with a
    // bad index fails at once, saying why.
    let unit = match a.units {
        Some(units) => Some((unit_number(units, a.unit)?, units)),
        None => None,
    };
    let all_letters = |flag: &str, text: &str| -> Result<Vec<u32>> {
        let b = parse_buckets(text).map_err(|e| anyhow!("{flag}: {e}"))?;
        if b.iter().fold(0, |m, b| m | b) != (1 << 26) - 1 {
            bail!("{flag} must cover every letter a-z (q is the Qu cell)");
        }
        Ok(b)
    };
    // The buckets as given, or the size's defaults (one set for every
    // cell, then other sets for some cells); `--buckets` alone means one set
    // everywhere. The corner and cell buckets given apply last, in order.
    let (bucket_text, mut cell_texts): (String, Vec<(String, String)>) = match &a.buckets {
        Some(b) => (b.clone(), Vec::new()),
        None => {
            let (b, cells) = parlor_gobble::prove::default_buckets(size);
            let cells = cells.iter().map(|(c, b)| (c.to_string(), b.to_string()));
            (b.to_string(), cells.collect())
        }
    };
    if let Some(b) = &a.corner_buckets {
        cell_texts.push(("corners".into(), b.clone()));
    }
    for spec in &a.cell_buckets {
        let Some((cells, b)) = spec.split_once('=') else {
            bail!("--cell-buckets {spec:?}: write CELLS=BUCKETS, e.g. ring1=aeiou,bcdfghjklmnpqrstvwxyz");
        };
        cell_texts.push((cells.to_string(), b.to_string()));
    }
    let buckets = all_letters("--buckets", &bucket_text)?;
    let mut cell_buckets = Vec::new();
    for (cells, b) in &cell_texts {
        let flag = format!("--cell-buckets {cells}={b}");
        let cells = parse_cells(size, cells).map_err(|e| anyhow!("{flag}: {e}"))?;
        cell_buckets.push((cells, all_letters(&flag, b)?));
    }
    if a.above == Some(0) {
        bail!("--above must be at least 1 (every board scores at least 0)");
    }
    if size.cells() > MAX_PROVE_CELLS {
        bail!(
            "--size {}: a proof handles at most {MAX_PROVE_CELLS} cells",
            size
        );
    }
    let threads = threads(a.threads)?;
    let (trie, _, fingerprint) = load_trie_fingerprint(&a.dict)?;
    let above = match a.above {
        Some(above) => above,
        None => {
            let found = default_target(&trie, size, a.scoring);
            eprintln!(
                "--above {}: the best board of a {DEFAULT_TARGET_RUNS}-run search (seed 1): {} {} points",
                found.score.max(1),
                found.board.letters(),
                found.score
            );
            found.score.max(1)
        }
    };
    let mut prover =
        Prover::new(&trie, size, a.scoring, buckets).with_tree_paths(a.tree_paths as usize);
    for (cells, b) in cell_buckets {
        prover = prover.with_cell_buckets(&cells, b);
    }
    // Every cell's buckets, as the checkpoint header and JSON name them.
    let per_cell: Vec<String> = prover
        .cell_buckets()
        .iter()
        .map(|b| buckets_text(b))
        .collect();
    if prover.raw_classes() > 1 << 32 {
        bail!(
            "--size {}: these buckets make {} classes; at most 4^16 (use fewer buckets or a smaller board)",
            size,
            prover.raw_classes()
        );
    }
    if let Some(samples) = a.sample {
        return prove_sample(&a, size, &prover, above, threads, samples);
    }
    if let Some((unit, units)) = unit {
        let settings = UnitSettings {
            size: size.to_string(),
            scoring: a.scoring.to_string(),
            above,
            dict_fingerprint: format!("{fingerprint:016x}"),
            dict_words: trie.len() as u64,
            cell_buckets: per_cell.clone(),
            all_classes: prover.raw_classes(),
            group_len: prover.group_len(),
            units,
        };
        let out = a.out.as_deref().context("--units needs --out DIR")?;
        return prove_unit(&a, &prover, settings, unit, out, threads);
    }
    let range = a.classes.clone().unwrap_or(0..prover.raw_classes());
    if range.end > prover.raw_classes() {
        bail!(
            "--classes {}..{}: classes are numbered 0..{} for this size and these buckets",
            range.start,
            range.end,
            prover.raw_classes()
        );
    }
    let header = checkpoint_header(
        size,
        a.scoring,
        above,
        &per_cell,
        &format!("{}..{}", range.start, range.end),
        trie.len(),
    );
    let total = prover.canonical_classes(range.clone());
    let run = run_proof(
        a.checkpoint.as_deref(),
        &header,
        size,
        &|k| range.contains(&k),
        total,
        a.json,
        &|skip, done, stop| prover.prove(above, threads, range.clone(), skip, done, stop),
    )?;
    let found = &run.found;
    let stats = &run.stats;
    let mut o = String::new();
    if a.json {
        let v = serde_json::json!({
            "size": size.to_string(),
            "scoring": a.scoring,
            "above": above,
            "buckets": bucket_text,
            "cell_buckets": per_cell,
            "class_range": [range.start, range.end],
            "all_classes": prover.raw_classes(),
            "complete": !run.interrupted,
            "boards": found,
            "classes": stats.classes,
            "classes_resumed": run.resumed,
            "bounds": stats.bounds,
            "tree_nodes": stats.tree_nodes,
            "boards_scored": stats.boards_scored,
            "seconds": run.elapsed.as_secs_f64(),
            "threads": threads,
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        boards_text(&mut o, found, size, above, a.scoring);
        outln!(
            o,
            "{} classes of {}..{} (the whole proof: 0..{}; {} resumed from the checkpoint), {} bounds, {} tree nodes, {} boards scored, {:.1} s on {threads} thread(s)",
            stats.classes,
            range.start,
            range.end,
            prover.raw_classes(),
            run.resumed,
            stats.bounds,
            stats.tree_nodes,
            stats.boards_scored,
            run.elapsed.as_secs_f64()
        );
    }
    emit(&o)?;
    if run.interrupted {
        // Exit as an interrupted program does (128 + SIGINT), so a script
        // never takes the partial list for a proof.
        eprintln!(
            "interrupted: the list above covers only the classes finished; {}",
            match &a.checkpoint {
                Some(p) => format!("run again with --checkpoint {} to resume", p.display()),
                None => "give --checkpoint FILE to be able to resume".to_string(),
            }
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// The first line of a proof's checkpoint: every setting that changes
/// which classes there are or what they find, so that a checkpoint only
/// ever resumes the same proof. `classes` names the part of the proof run.
fn checkpoint_header(
    size: Size,
    scoring: Scoring,
    above: u32,
    per_cell: &[String],
    classes: &str,
    words: usize,
) -> String {
    format!(
        "parlor gobble prove v3 size={size} scoring={scoring} above={above} cell-buckets={} classes={classes} words={words}",
        per_cell.join("|"),
    )
}

/// The list of boards a proof found, as its text output starts.
fn boards_text(
    o: &mut String,
    found: &[parlor_gobble::prove::Found],
    size: Size,
    above: u32,
    scoring: Scoring,
) {
    outln!(
        o,
        "{} board(s) of {} scoring at least {} ({} scoring; one of each set of mirror images):",
        found.len(),
        size,
        above,
        scoring
    );
    for f in found {
        outln!(o, "  {} {}", f.board, f.score);
    }
}

/// What one run of a proof (the whole, a class range or a unit) found.
struct ProofRun {
    /// Every board found, with those of the classes resumed, best first.
    found: Vec<parlor_gobble::prove::Found>,
    /// This run's statistics (the resumed classes' work is not in them).
    stats: parlor_gobble::prove::ProofStats,
    /// Classes taken from the checkpoint.
    resumed: usize,
    /// The CPU seconds the checkpoint's earlier runs took, where it records
    /// them (0 with nothing resumed; `None` for a checkpoint of classes
    /// without their CPU).
    resumed_cpu: Option<f64>,
    /// This run's CPU seconds (`None` where there is no CPU clock).
    cpu: Option<f64>,
    elapsed: Duration,
    interrupted: bool,
}

/// The proof function a run drives: `(skip, done, stop)` as
/// [`parlor_gobble::prove::Prover::prove`] takes them.
type ProveFn<'a> = dyn Fn(
        &(dyn Fn(u64) -> bool + Sync),
        &(dyn Fn(u64, &[parlor_gobble::prove::Found]) + Sync),
        &AtomicBool,
    ) -> (
        Vec<parlor_gobble::prove::Found>,
        parlor_gobble::prove::ProofStats,
    ) + 'a;

/// Runs a proof over the classes `in_scope` says are its own (`total` of
/// them searched): resumed from the checkpoint at `checkpoint` when it
/// holds the same proof (`header`), each finished class appended to it,
/// with a progress bar on a terminal, stopped by Ctrl-C after the classes
/// under way.
///
/// Each `class K` line also carries the CPU seconds the proof had taken,
/// over all its runs, when class K finished, so that a resumed proof still
/// knows its whole cost (a unit's CPU is what `--estimate` samples). Work on
/// a class that an interruption cut short is not in it, as it is redone.
fn run_proof(
    checkpoint: Option<&std::path::Path>,
    header: &str,
    size: Size,
    in_scope: &dyn Fn(u64) -> bool,
    total: u64,
    json: bool,
    go: &ProveFn<'_>,
) -> Result<ProofRun> {
    use parlor_gobble::prove::Found;
    use std::collections::HashSet;
    use std::sync::Mutex;
    // Resume: the classes a previous run finished and the boards it found.
    let mut finished = HashSet::new();
    let mut earlier: Vec<Found> = Vec::new();
    let mut resumed_cpu = Some(0.0f64);
    let mut file = None;
    if let Some(path) = checkpoint {
        if path.exists() {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading checkpoint {}", path.display()))?;
            // Only whole lines count: an interruption may cut the last one.
            let mut lines = text.split_inclusive('\n').filter(|l| l.ends_with('\n'));
            if lines.next().map(str::trim_end) != Some(header) {
                bail!(
                    "checkpoint {} is for another proof; its first line must be: {header}",
                    path.display()
                );
            }
            // A class's boards come before its `class` line; boards with
            // no such line after them belong to a class that is redone.
            let mut pending = Vec::new();
            for line in lines {
                let parts: Vec<&str> = line.trim_end().split(' ').collect();
                match parts.as_slice() {
                    ["class", k, cpu @ ..] if cpu.len() <= 1 => {
                        let k = k.parse::<u64>().ok().filter(|&k| in_scope(k));
                        // The CPU so far: a line without it (written where
                        // there was no CPU clock) leaves the whole unknown.
                        let cpu = match cpu {
                            [c] => c
                                .parse::<f64>()
                                .ok()
                                .filter(|c| c.is_finite() && *c >= 0.0)
                                .map(Some),
                            _ => Some(None),
                        };
                        let (Some(k), Some(cpu)) = (k, cpu) else {
                            bail!(
                                "checkpoint {}: bad line {:?} (expected class K [CPU-SECONDS])",
                                path.display(),
                                line.trim_end()
                            );
                        };
                        finished.insert(k);
                        earlier.append(&mut pending);
                        resumed_cpu = resumed_cpu.zip(cpu).map(|(a, b)| a.max(b));
                    }
                    ["board", b, s] => {
                        let board = Board::parse(b, Some(size)).ok();
                        let score = s.parse::<u32>().ok();
                        let (Some(board), Some(score)) = (board, score) else {
                            bail!(
                                "checkpoint {}: bad line {:?}",
                                path.display(),
                                line.trim_end()
                            );
                        };
                        pending.push(Found {
                            board: board.letters(),
                            score,
                        });
                    }
                    _ => bail!(
                        "checkpoint {}: bad line {:?}",
                        path.display(),
                        line.trim_end()
                    ),
                }
            }
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening checkpoint {}", path.display()))?;
        let len = f.metadata()?.len();
        if len == 0 {
            writeln!(f, "{header}")?;
        } else {
            // Drop the line an interruption cut short (it was ignored
            // above), so the lines written next stay whole.
            let bytes = std::fs::read(path)?;
            let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            if whole < bytes.len() {
                f.set_len(whole as u64)?;
            }
        }
        file = Some(Mutex::new(f));
    }
    let bar = if std::io::stderr().is_terminal() && !json {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} classes · {elapsed} elapsed · {eta} left · {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(finished.len() as u64);
        Some(bar)
    } else {
        None
    };
    let best_so_far =
        std::sync::atomic::AtomicU32::new(earlier.iter().map(|f| f.score).max().unwrap_or(0));
    let write_error = Mutex::new(None);
    let start = Instant::now();
    let cpu0 = process_cpu_seconds();
    let skip = |k: u64| finished.contains(&k);
    let done = |k: u64, found: &[Found]| {
        if let Some(f) = &file {
            let mut text = String::new();
            for b in found {
                text.push_str(&format!("board {} {}\n", b.board, b.score));
            }
            // Read under the lock, so the file's CPU figures only grow.
            let mut f = f.lock().unwrap();
            match resumed_cpu.zip(cpu_since(cpu0)) {
                Some((a, b)) => text.push_str(&format!("class {k} {:.3}\n", a + b)),
                None => text.push_str(&format!("class {k}\n")),
            }
            if let Err(e) = f.write_all(text.as_bytes()) {
                write_error.lock().unwrap().get_or_insert(e);
            }
        }
        if let Some(bar) = &bar {
            let top = found.iter().map(|f| f.score).max().unwrap_or(0);
            let old = best_so_far.fetch_max(top, Ordering::Relaxed);
            if top > old {
                bar.set_message(format!("best {top}"));
            }
            bar.inc(1);
        }
    };
    catch_interrupt();
    let (mut found, stats) = go(&skip, &done, &INTERRUPTED);
    let elapsed = start.elapsed();
    let cpu = cpu_since(cpu0);
    let interrupted = INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(e) = write_error.into_inner().unwrap() {
        bail!("writing the checkpoint failed: {e}");
    }
    found.extend(earlier);
    found.sort_by(|x, y| y.score.cmp(&x.score).then(x.board.cmp(&y.board)));
    found.dedup();
    Ok(ProofRun {
        found,
        stats,
        resumed: finished.len(),
        resumed_cpu,
        cpu,
        elapsed,
        interrupted,
    })
}

/// The most work units a proof is split into: a 4x4 proof's 16,777,216
/// groups four to a unit, so that an estimate's sample of a few hundred
/// units can be small. Each unit deals every group through a heap of 24
/// bytes a unit, so this also bounds the deal to about 100 MB.
const MAX_UNITS: u64 = 1 << 22;

/// The largest unit result `--merge` reads (a unit of a 4x4 proof in
/// 200 units lists about 84,000 groups: well under a megabyte).
const MAX_UNIT_FILE: u64 = 64 << 20;

/// `--units N` within the number of units a proof is split into.
fn check_units(units: u64) -> Result<()> {
    if units == 0 || units > MAX_UNITS {
        bail!("--units {units}: a proof is split into 1 to {MAX_UNITS} units");
    }
    Ok(())
}

/// The unit a `--units N` run does: `--unit K`, else the index a Slurm job
/// array (`SLURM_ARRAY_TASK_ID`) or a Kubernetes Indexed Job
/// (`JOB_COMPLETION_INDEX`) gives each of its tasks.
fn unit_number(units: u64, given: Option<u64>) -> Result<u64> {
    check_units(units)?;
    let (k, from) = match given {
        Some(k) => (k, "--unit".to_string()),
        None => {
            let var = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
                .into_iter()
                .find_map(|v| std::env::var(v).ok().map(|x| (v, x)));
            let Some((var, text)) = var else {
                bail!(
                    "--units {units}: which unit? give --unit K (0 to {}), or run as a Slurm array task (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)",
                    units - 1
                );
            };
            let k = text.trim().parse::<u64>().map_err(|_| {
                anyhow!(
                    "{var}={text:?} is not a unit number: units are 0 to {} for --units {units}",
                    units - 1
                )
            })?;
            (k, var.to_string())
        }
    };
    if k >= units {
        bail!(
            "{from} {k} is out of range: units are 0 to {} for --units {units}",
            units - 1
        );
    }
    Ok(k)
}

/// The settings a unit's result names: units merge only when all of
/// theirs are equal.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct UnitSettings {
    size: String,
    scoring: String,
    above: u32,
    /// The word list's fingerprint (FNV-1a of its words, hexadecimal).
    dict_fingerprint: String,
    dict_words: u64,
    /// Every cell's buckets, row-major.
    cell_buckets: Vec<String>,
    all_classes: u64,
    group_len: u64,
    units: u64,
}

/// A finished unit's result file, `unit-K.json`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct UnitResult {
    format: String,
    settings: UnitSettings,
    unit: u64,
    /// The groups the unit covered (each `group_len` consecutive classes).
    groups: Vec<u64>,
    /// The classes of those groups it searched (the rest are mirror images
    /// of searched ones) and their checksum
    /// ([`parlor_gobble::prove::Prover::coverage`], hexadecimal).
    classes: u64,
    class_checksum: String,
    boards: Vec<UnitBoard>,
    bounds: u64,
    tree_nodes: u64,
    boards_scored: u64,
    /// Classes taken from the unit's checkpoint: their work is not in the
    /// statistics above.
    classes_resumed: u64,
    /// The unit's CPU seconds over all its runs where its checkpoint
    /// recorded the earlier runs' (see `cpu_seconds_resumed`), else this
    /// run's alone.
    cpu_seconds: Option<f64>,
    /// The earlier runs' CPU seconds, from the checkpoint (0 for a unit run
    /// in one go); `None` when they are not known, and then the unit's CPU
    /// is not whole and `--estimate` leaves it out.
    #[serde(default)]
    cpu_seconds_resumed: Option<f64>,
    seconds: f64,
    threads: usize,
}

/// A board of a unit's result.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
struct UnitBoard {
    board: String,
    score: u32,
}

const UNIT_FORMAT: &str = "parlor gobble prove unit v1";

fn unit_file(unit: u64) -> String {
    format!("unit-{unit}.json")
}

/// `prove --units N --unit K --out DIR`: one unit of the proof, resumed
/// from `DIR/unit-K.ckpt`, its result written to `DIR/unit-K.json` once
/// every class of it is done.
fn prove_unit(
    a: &ProveArgs,
    prover: &parlor_gobble::prove::Prover,
    settings: UnitSettings,
    unit: u64,
    out: &std::path::Path,
    threads: usize,
) -> Result<ExitCode> {
    let size = a.size.context("--size is required")?;
    let units = settings.units;
    std::fs::create_dir_all(out)
        .with_context(|| format!("--out {}: cannot create the folder", out.display()))?;
    let groups = prover.unit_groups(units, unit);
    let (classes, checksum) = prover.coverage(&groups);
    let group = prover.group_len();
    let header = checkpoint_header(
        size,
        a.scoring,
        settings.above,
        &settings.cell_buckets,
        &format!("unit-{unit}-of-{units}"),
        settings.dict_words as usize,
    );
    let ckpt = out.join(format!("unit-{unit}.ckpt"));
    let above = settings.above;
    let run = run_proof(
        Some(&ckpt),
        &header,
        size,
        &|k| groups.binary_search(&(k / group)).is_ok(),
        classes,
        a.json,
        &|skip, done, stop| prover.prove_groups(above, threads, &groups, skip, done, stop),
    )?;
    let result = UnitResult {
        format: UNIT_FORMAT.into(),
        settings,
        unit,
        groups,
        classes,
        class_checksum: format!("{checksum:016x}"),
        boards: run
            .found
            .iter()
            .map(|f| UnitBoard {
                board: f.board.clone(),
                score: f.score,
            })
            .collect(),
        bounds: run.stats.bounds,
        tree_nodes: run.stats.tree_nodes,
        boards_scored: run.stats.boards_scored,
        classes_resumed: run.resumed as u64,
        cpu_seconds: run.cpu.map(|c| c + run.resumed_cpu.unwrap_or(0.0)),
        cpu_seconds_resumed: run.resumed_cpu,
        seconds: run.elapsed.as_secs_f64(),
        threads,
    };
    let path = out.join(unit_file(unit));
    if !run.interrupted {
        // Written whole or not at all: a merge never reads half a result.
        let tmp = out.join(format!(".{}.tmp", unit_file(unit)));
        std::fs::write(&tmp, serde_json::to_string_pretty(&result)?)
            .and_then(|_| std::fs::rename(&tmp, &path))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let mut o = String::new();
    if a.json {
        let mut v = serde_json::to_value(&result)?;
        v["complete"] = serde_json::json!(!run.interrupted);
        v["result"] = serde_json::json!(path.display().to_string());
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        boards_text(&mut o, &run.found, size, above, a.scoring);
        outln!(
            o,
            "unit {unit} of {units}: {} groups, {} classes ({} resumed from {}), {} bounds, {} tree nodes, {} boards scored, {:.1} s on {threads} thread(s){}",
            result.groups.len(),
            classes,
            run.resumed,
            ckpt.display(),
            result.bounds,
            result.tree_nodes,
            result.boards_scored,
            result.seconds,
            if run.interrupted {
                String::new()
            } else {
                format!("; result in {}", path.display())
            }
        );
    }
    emit(&o)?;
    if run.interrupted {
        eprintln!(
            "interrupted: unit {unit} is not finished; run the same command again to resume from {}",
            ckpt.display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// Numbers as short ranges for an error line: `3, 5-9, 12` (at most a
/// few, then how many more).
fn ranges_text(mut xs: Vec<u64>) -> String {
    xs.sort_unstable();
    xs.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < xs.len() {
        let mut j = i;
        while j + 1 < xs.len() && xs[j + 1] == xs[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            xs[i].to_string()
        } else {
            format!("{}-{}", xs[i], xs[j])
        });
        i = j + 1;
    }
    let shown = parts.len().min(8);
    let more = parts.len() - shown;
    let mut text = parts[..shown].join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// The unit results in `dir` (read for `flag`), checked to be of one proof
/// and each in its own unit's file, with their settings.
fn read_units(
    dir: &std::path::Path,
    flag: &str,
) -> Result<(Vec<(String, UnitResult)>, UnitSettings)> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("{flag} {}: cannot read the folder", dir.display()))?;
    let mut names = Vec::new();
    for e in entries {
        let name = e?.file_name().to_string_lossy().into_owned();
        if name.starts_with("unit-") && name.ends_with(".json") {
            names.push(name);
        }
    }
    if names.is_empty() {
        bail!(
            "{flag} {}: no unit results (unit-K.json) in the folder",
            dir.display()
        );
    }
    names.sort_by_key(|n| (n.len(), n.clone()));
    let mut results: Vec<(String, UnitResult)> = Vec::new();
    for name in names {
        let path = dir.join(&name);
        let len = std::fs::metadata(&path)?.len();
        if len > MAX_UNIT_FILE {
            bail!(
                "{}: {len} bytes, more than a unit's result can be ({MAX_UNIT_FILE})",
                path.display()
            );
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let r: UnitResult = serde_json::from_str(&text)
            .map_err(|e| anyhow!("{}: not a unit result ({e})", path.display()))?;
        if r.format != UNIT_FORMAT {
            bail!(
                "{}: format {:?}, expected {UNIT_FORMAT:?}",
                path.display(),
                r.format
            );
        }
        results.push((name, r));
    }
    let (first_name, first) = &results[0];
    let settings = first.settings.clone();
    if settings.units == 0 || settings.units > MAX_UNITS {
        bail!(
            "{first_name}: {} units; a proof is split into 1 to {MAX_UNITS}",
            settings.units
        );
    }
    for (name, r) in &results {
        if r.settings != settings {
            let a = serde_json::to_value(&settings)?;
            let b = serde_json::to_value(&r.settings)?;
            let key = a
                .as_object()
                .and_then(|a| a.iter().find(|(k, v)| b.get(k.as_str()) != Some(v)))
                .map(|(k, _)| k.clone())
                .unwrap_or_default();
            bail!(
                "{name} is of another proof than {first_name}: {key} is {} there and {} here",
                b[&key],
                a[&key]
            );
        }
        if r.unit >= settings.units || *name != unit_file(r.unit) {
            bail!(
                "{name} holds the result of unit {} (of {}): a result belongs in unit-K.json for its own K, 0 to {}",
                r.unit,
                settings.units,
                settings.units - 1
            );
        }
    }
    Ok((results, settings))
}

/// `prove --units N --draw S --seed X`: S distinct unit numbers of 0..N,
/// drawn uniformly from a seeded generator, one a line. A sample for
/// `--estimate` must be drawn so: units near in number are dealt alike
/// groups, so a sample that clusters (as `shuf` does from a repeating
/// `--random-source`) measures a few kinds of unit many times.
fn draw_units(units: u64, draw: u64, seed: u64) -> Result<ExitCode> {
    check_units(units)?;
    if draw == 0 || draw > units {
        bail!("--draw {draw}: draw 1 to {units} of the --units {units}");
    }
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let picked = rand::seq::index::sample(&mut rng, units as usize, draw as usize);
    let mut o = String::new();
    for k in picked.iter() {
        outln!(o, "{k}");
    }
    emit(&o)?;
    Ok(ExitCode::SUCCESS)
}

/// How many times `--estimate` resamples the units' CPU for its interval.
const RESAMPLES: usize = 10_000;

/// `prove --estimate DIR`: the whole proof's CPU from a random sample of its
/// units. The units are dealt to weigh alike, so the whole is the number of
/// units times the sample's mean; the 95% interval is the bootstrap's
/// (percentiles of the mean over resamples with replacement, from a fixed
/// seed), since a unit's cost is heavy-tailed and a normal interval would
/// understate the upper side. A unit resumed from a checkpoint that did not
/// record its earlier runs' CPU is left out: its CPU would be only that of
/// its last run.
fn estimate_units(dir: &std::path::Path, json: bool) -> Result<ExitCode> {
    let (results, settings) = read_units(dir, "--estimate")?;
    let mut cpu: Vec<f64> = results
        .iter()
        .filter(|(_, r)| r.classes_resumed == 0 || r.cpu_seconds_resumed.is_some())
        .filter_map(|(_, r)| r.cpu_seconds)
        .collect();
    if cpu.len() < 2 {
        bail!(
            "--estimate {}: {} unit(s) with their whole CPU time; an estimate needs at least 2 (units resumed from a checkpoint without the CPU of their earlier runs do not count)",
            dir.display(),
            cpu.len()
        );
    }
    cpu.sort_by(f64::total_cmp);
    let n = cpu.len();
    let mean = cpu.iter().sum::<f64>() / n as f64;
    let median = (cpu[(n - 1) / 2] + cpu[n / 2]) / 2.0;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(46);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| (0..n).map(|_| cpu[rng.gen_range(0..n)]).sum::<f64>() / n as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let (low, high) = (
        means[RESAMPLES * 25 / 1000],
        means[RESAMPLES * 975 / 1000 - 1],
    );
    let units = settings.units as f64;
    let hours = |unit_mean: f64| unit_mean * units / 3600.0;
    const WEEK_HOURS: f64 = 7.0 * 24.0;
    let cores = |unit_mean: f64| hours(unit_mean) / WEEK_HOURS;
    let mut o = String::new();
    if json {
        let v = serde_json::json!({
            "size": settings.size,
            "scoring": settings.scoring,
            "above": settings.above,
            "units": settings.units,
            "sampled_units": n,
            "unit_cpu_seconds": {
                "mean": mean,
                "median": median,
                "max": cpu[n - 1],
                "min": cpu[0],
            },
            "cpu_hours": hours(mean),
            "cpu_hours_95": [hours(low), hours(high)],
            "cores_for_a_week": cores(mean),
            "cores_for_a_week_95": [cores(low), cores(high)],
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!(
            o,
            "{n} of {} units ({} {} above {}): CPU seconds per unit mean {mean:.2}, median {:.2}, min {:.2}, max {:.2}",
            settings.units,
            settings.size,
            settings.scoring,
            settings.above,
            median,
            cpu[0],
            cpu[n - 1]
        );
        outln!(
            o,
            "the whole proof: about {:.0} CPU hours (95% interval {:.0} to {:.0}, a bootstrap of the unit mean)",
            hours(mean),
            hours(low),
            hours(high)
        );
        outln!(
            o,
            "to finish in a week: {:.1} cores busy all week ({:.1} at the interval's top), each unit on one",
            cores(mean),
            cores(high)
        );
    }
    emit(&o)?;
    Ok(ExitCode::SUCCESS)
}

/// `prove --merge DIR`: every unit's result, checked to be of one proof and
/// to cover every class exactly once, as one proof's answer.
fn merge_units(dir: &std::path::Path, json: bool) -> Result<ExitCode> {
    use parlor_gobble::prove::{parse_buckets, Prover};
    let (results, settings) = read_units(dir, "--merge")?;
    let (first_name, _) = &results[0];
    // The units: each once (file names are unique, and each names its own
    // unit, so none is twice); say which are missing.
    let present: std::collections::HashSet<u64> = results.iter().map(|(_, r)| r.unit).collect();
    let missing: Vec<u64> = (0..settings.units)
        .filter(|u| !present.contains(u))
        .collect();
    if !missing.is_empty() {
        bail!(
            "--merge {}: {} of {} units have no result: unit(s) {}",
            dir.display(),
            missing.len(),
            settings.units,
            ranges_text(missing)
        );
    }
    // The groups: each in exactly one unit.
    let size: Size = settings
        .size
        .parse()
        .map_err(|e| anyhow!("{first_name}: size: {e}"))?;
    let scoring: Scoring = settings
        .scoring
        .parse()
        .map_err(|e| anyhow!("{first_name}: scoring: {e}"))?;
    if size.cells() > parlor_gobble::prove::MAX_PROVE_CELLS || settings.all_classes > 1 << 32 {
        bail!(
            "{first_name}: a {size} proof of {} classes is larger than any proof runs",
            settings.all_classes
        );
    }
    let empty = Trie::new(std::iter::empty::<&str>());
    let mut prover = Prover::new(
        &empty,
        size,
        scoring,
        parse_buckets("abcdefghijklmnopqrstuvwxyz").unwrap_or_default(),
    );
    if settings.cell_buckets.len() != size.cells() {
        bail!(
            "{first_name}: {} cells' buckets for a {size} board",
            settings.cell_buckets.len()
        );
    }
    for (cell, b) in settings.cell_buckets.iter().enumerate() {
        let b =
            parse_buckets(b).map_err(|e| anyhow!("{first_name}: cell {cell}'s buckets: {e}"))?;
        prover = prover.with_cell_buckets(&[cell], b);
    }
    if prover.raw_classes() != settings.all_classes || prover.group_len() != settings.group_len {
        bail!(
            "{first_name}: {} classes in groups of {} do not match its buckets ({} in groups of {})",
            settings.all_classes,
            settings.group_len,
            prover.raw_classes(),
            prover.group_len()
        );
    }
    let groups = settings.all_classes / settings.group_len;
    // A bit per group (a 4x4 proof has 16,777,216 groups: 2 MB); the first
    // unit of a group seen twice is looked up only then.
    let mut seen = vec![0u64; usize::try_from(groups.div_ceil(64))?];
    let mut twice: Vec<(u64, u64)> = Vec::new();
    for (name, r) in &results {
        for &g in &r.groups {
            if g >= groups {
                bail!("{name}: group {g} is past the last, {}", groups - 1);
            }
            let (word, bit) = ((g / 64) as usize, 1u64 << (g % 64));
            if seen[word] & bit != 0 {
                twice.push((g, r.unit));
            }
            seen[word] |= bit;
        }
    }
    let classes_of = |g: u64| {
        format!(
            "classes {}..{}",
            g * settings.group_len,
            (g + 1) * settings.group_len
        )
    };
    if let Some(&(g, v)) = twice.first() {
        let u = results
            .iter()
            .find(|(_, o)| o.unit != v && o.groups.contains(&g))
            .map_or(v, |(_, o)| o.unit);
        bail!(
            "--merge {}: {} group(s) covered twice, the first group {g} ({}) by units {u} and {v}",
            dir.display(),
            twice.len(),
            classes_of(g)
        );
    }
    let none: Vec<u64> = (0..groups)
        .filter(|&g| seen[(g / 64) as usize] & 1 << (g % 64) == 0)
        .collect();
    if let Some(&g) = none.first() {
        bail!(
            "--merge {}: {} group(s) in no unit, the first group {g} ({}): groups {}",
            dir.display(),
            none.len(),
            classes_of(g),
            ranges_text(none.clone())
        );
    }
    // Each unit searched the classes its groups hold: the count and
    // checksum it wrote are those of its groups.
    for (name, r) in &results {
        let (count, hash) = prover.coverage(&r.groups);
        if count != r.classes || format!("{hash:016x}") != r.class_checksum {
            bail!(
                "{name}: its classes ({} with checksum {}) are not those of its groups ({count} with checksum {hash:016x})",
                r.classes,
                r.class_checksum
            );
        }
    }
    let mut boards: Vec<UnitBoard> = results
        .iter()
        .flat_map(|(_, r)| r.boards.iter().cloned())
        .collect();
    boards.sort_by(|x, y| y.score.cmp(&x.score).then(x.board.cmp(&y.board)));
    boards.dedup();
    let sum = |f: fn(&UnitResult) -> u64| results.iter().map(|(_, r)| f(r)).sum::<u64>();
    let classes = sum(|r| r.classes);
    let resumed = sum(|r| r.classes_resumed);
    let cpu: Option<f64> = results.iter().map(|(_, r)| r.cpu_seconds).sum();
    let unit_cpu: Vec<f64> = results.iter().filter_map(|(_, r)| r.cpu_seconds).collect();
    let mut o = String::new();
    if json {
        let v = serde_json::json!({
            "size": settings.size,
            "scoring": settings.scoring,
            "above": settings.above,
            "cell_buckets": settings.cell_buckets,
            "dict_fingerprint": settings.dict_fingerprint,
            "class_range": [0, settings.all_classes],
            "all_classes": settings.all_classes,
            "units": settings.units,
            "complete": true,
            "boards": boards,
            "best_score": boards.first().map(|b| b.score),
            "classes": classes,
            "classes_resumed": resumed,
            "bounds": sum(|r| r.bounds),
            "tree_nodes": sum(|r| r.tree_nodes),
            "boards_scored": sum(|r| r.boards_scored),
            "cpu_seconds": cpu,
            "unit_cpu_seconds": unit_cpu,
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        let found: Vec<parlor_gobble::prove::Found> = boards
            .iter()
            .map(|b| parlor_gobble::prove::Found {
                board: b.board.clone(),
                score: b.score,
            })
            .collect();
        boards_text(&mut o, &found, size, settings.above, scoring);
        outln!(
            o,
            "{classes} classes of 0..{} in {} units, each class once, {} bounds, {} tree nodes, {} boards scored{}{}",
            settings.all_classes,
            settings.units,
            sum(|r| r.bounds),
            sum(|r| r.tree_nodes),
            sum(|r| r.boards_scored),
            if resumed > 0 {
                format!(" (not counting the {resumed} classes units resumed from their checkpoints)")
            } else {
                String::new()
            },
            match cpu {
                Some(c) => format!(", {c:.1} CPU s in all"),
                None => String::new(),
            }
        );
    }
    emit(&o)?;
    Ok(ExitCode::SUCCESS)
}
