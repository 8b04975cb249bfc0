//! `parlor gobble ...`: boards from keyphrases, the solver, the benchmark,
//! the best-board search and a timed round in the terminal.

use crate::dict::DictArgs;
use crate::host::{self, At, End, Typed};
use anyhow::{anyhow, bail, Context, Result};
use parlor_core::{
    events_seen_by, ActionError, Actor, DynAgent, DynMatch, Game, GameRng, Level, Match, Seat,
    Viewer,
};
use parlor_gobble::bench::{random_boards, score_boards, Dist};
use parlor_gobble::game::{Gobble, GobbleAction, GobbleConfig, GobbleEvent, RoundResults};
use parlor_gobble::search::{search, SearchConfig, SearchStatus};
use parlor_gobble::{Board, DiceSet, Keyphrase, Scoring, Size, Solver, Trie, WalkKind};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Gobble commands.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// A board and its keyphrase (a fresh keyphrase when none is given).
    New(NewArgs),
    /// Every word on a board with its path, the count and the total score.
    Solve(SolveArgs),
    /// Score many boards and report boards per second and a checksum.
    Bench(BenchArgs),
    /// Search for the highest-scoring board (annealing on all cores).
    Best(BestArgs),
    /// Prove which boards score at least a target: an exhaustive branch and
    /// bound over board classes (every board of the size is covered).
    Prove(ProveArgs),
    /// Play a timed round in the terminal, against computer players.
    Play(PlayArgs),
}

/// Runs a Gobble command.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.cmd {
        Cmd::New(a) => new(a),
        Cmd::Solve(a) => solve(a),
        Cmd::Bench(a) => bench(a),
        Cmd::Best(a) => best(a),
        Cmd::Prove(a) => prove(a),
        Cmd::Play(a) => play(a),
    }
}

fn parse_size(s: &str) -> Result<Size, String> {
    s.parse::<Size>().map_err(|e| e.to_string())
}

fn parse_scoring(s: &str) -> Result<Scoring, String> {
    s.parse::<Scoring>().map_err(|e| e.to_string())
}

/// A random u64 from the standard library's per-process random keys.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

fn fresh_keyphrase() -> Keyphrase {
    let mut rng = GameRng::from_seed(fresh_seed());
    Keyphrase::random(&mut rng)
}

fn square(size: Size) -> Result<usize> {
    if size.width != size.height {
        bail!("games are played on square boards (4, 5 or 6); {size} is for --board analysis only");
    }
    Ok(size.width)
}

fn load_trie(dict: &DictArgs) -> Result<(Trie, Duration)> {
    let (trie, took, _) = load_trie_fingerprint(dict)?;
    Ok((trie, took))
}

/// [`load_trie`], with the word list's fingerprint (a proof's results name
/// the list they were found with).
fn load_trie_fingerprint(dict: &DictArgs) -> Result<(Trie, Duration, u64)> {
    let start = Instant::now();
    let lexicon = dict.load()?;
    let trie = Trie::new(lexicon.words());
    if trie.is_empty() {
        bail!(
            "word list {} has no word of 3 or more letters a-z",
            lexicon.name()
        );
    }
    Ok((trie, start.elapsed(), lexicon.fingerprint()))
}

fn board_text(board: &Board) -> String {
    let mut o = String::new();
    for row in board.rows() {
        let cells: Vec<String> = row.iter().map(|f| format!("{f:<2}")).collect();
        o.push_str(&format!("  {}\n", cells.join(" ").trim_end()));
    }
    o
}

/// Appends one formatted line to a `String` of output.
macro_rules! outln {
    ($o:expr) => { $o.push('\n') };
    ($o:expr, $($arg:tt)*) => {{ $o.push_str(&format!($($arg)*)); $o.push('\n'); }};
}

/// Writes a command's output; a closed pipe (`| head`) is not an error.
fn emit(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

#[derive(clap::Args)]
struct NewArgs {
    /// Board size: 4, 5 or 6.
    #[arg(long, default_value = "4", value_parser = parse_size)]
    size: Size,
    /// Dice set: 1987 or classic (4x4), 1979 (5x5), gobble6 (6x6); default for the size.
    #[arg(long, value_name = "SET")]
    dice: Option<String>,
    /// The board's four-word keyphrase ("w1 w2 w3 w4").
    #[arg(long, value_name = "PHRASE")]
    keyphrase: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn new(a: NewArgs) -> Result<ExitCode> {
    let mut o = String::new();
    square(a.size)?;
    let dice = DiceSet::for_size(a.dice.as_deref(), a.size)?;
    let key = match &a.keyphrase {
        Some(k) => Keyphrase::parse(k)?,
        None => fresh_keyphrase(),
    };
    let board = dice.board_for_seed(&key.normalised());
    if a.json {
        let v = serde_json::json!({
            "keyphrase": key.normalised(),
            "size": a.size.to_string(),
            "dice": dice.name(),
            "letters": board.letters(),
            "rows": board.rows(),
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!(o, "keyphrase: {key}");
        outln!(
            o,
            "dice: {} ({}x{})",
            dice.name(),
            a.size.width,
            a.size.height
        );
        o.push_str(&board_text(&board));
        outln!(o, "letters: {}", board.letters());
    }
    emit(&o)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
struct SolveArgs {
    /// The board's keyphrase.
    #[arg(
        long,
        value_name = "PHRASE",
        conflicts_with = "board",
        required_unless_present = "board"
    )]
    keyphrase: Option<String>,
    /// The board's letters, row-major; q or qu is the Qu cell.
    #[arg(long, value_name = "LETTERS")]
    board: Option<String>,
    /// Board size: N or WxH (default: 4 with a keyphrase, from the length with --board).
    #[arg(long, value_parser = parse_size)]
    size: Option<Size>,
    /// Dice set for --keyphrase (default for the size).
    #[arg(long, value_name = "SET")]
    dice: Option<String>,
    #[command(flatten)]
    dict: DictArgs,
    /// Scoring: gobble or boggle.
    #[arg(long, default_value = "gobble", value_parser = parse_scoring)]
    scoring: Scoring,
    /// Print JSON: `words` (each `word`, `points`, `path` as [row, col] from
    /// 0), `count`, `score`, `board`, `keyphrase`, `scoring`, `min_len`.
    #[arg(long)]
    json: bool,
}

fn board_from(
    keyphrase: Option<&str>,
    letters: Option<&str>,
    size: Option<Size>,
    dice: Option<&str>,
) -> Result<(Board, Option<Keyphrase>)> {
    match (keyphrase, letters) {
        (Some(k), _) => {
            let size = size.unwrap_or(Size::square(4));
            square(size)?;
            let key = Keyphrase::parse(k)?;
            let set = DiceSet::for_size(dice, size)?;
            Ok((set.board_for_seed(&key.normalised()), Some(key)))
        }
        (None, Some(b)) => Ok((Board::parse(b, size)?, None)),
        (None, None) => bail!("give --keyphrase PHRASE or --board LETTERS"),
    }
}

fn solve(a: SolveArgs) -> Result<ExitCode> {
    let mut o = String::new();
    let (board, key) = board_from(
        a.keyphrase.as_deref(),
        a.board.as_deref(),
        a.size,
        a.dice.as_deref(),
    )?;
    let (trie, _) = load_trie(&a.dict)?;
    let mut solver = Solver::new(&trie, a.scoring);
    let words = solver.words(&board);
    let score: u32 = words.iter().map(|w| w.points).sum();
    let w = board.size().width;
    if a.json {
        let list: Vec<serde_json::Value> = words
            .iter()
            .map(|f| {
                serde_json::json!({
                    "word": f.word,
                    "points": f.points,
                    "path": f.path.iter().map(|&c| [c / w, c % w]).collect::<Vec<_>>(),
                })
            })
            .collect();
        let v = serde_json::json!({
            "keyphrase": key.map(|k| k.normalised()),
            "board": board.letters(),
            "size": board.size().to_string(),
            "scoring": a.scoring,
            "min_len": a.scoring.min_len(board.size()),
            "count": words.len(),
            "score": score,
            "words": list,
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        if let Some(k) = &key {
            outln!(o, "keyphrase: {k}");
        }
        o.push_str(&board_text(&board));
        let mut sorted = words.clone();
        sorted.sort_by(|x, y| y.points.cmp(&x.points).then(x.word.cmp(&y.word)));
        for f in &sorted {
            let path: Vec<String> = f
                .path
                .iter()
                .map(|&c| format!("{},{}", c / w + 1, c % w + 1))
                .collect();
            outln!(o, "{:>3}  {:<16} {}", f.points, f.word, path.join(" "));
        }
        outln!(
            o,
            "{} words, {} points ({} scoring)",
            words.len(),
            score,
            a.scoring
        );
    }
    emit(&o)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
struct BenchArgs {
    /// A file of boards, one a line in LETTERS form.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["random", "dist"])]
    boards: Option<std::path::PathBuf>,
    /// Score N random boards.
    #[arg(long, value_name = "N")]
    random: Option<usize>,
    /// Seed string of the random boards (seedrandom ARC4).
    #[arg(long, default_value = "1")]
    seed: String,
    /// Random boards: uniform letters or rolled dice.
    #[arg(long, default_value = "uniform", value_parser = ["uniform", "dice"])]
    dist: Option<String>,
    /// Board size: N or WxH (random boards: default 4; a boards file: from each line's length).
    #[arg(long, value_parser = parse_size)]
    size: Option<Size>,
    /// Dice set for --dist dice (default for the size).
    #[arg(long, value_name = "SET")]
    dice: Option<String>,
    #[command(flatten)]
    dict: DictArgs,
    /// Scoring: gobble or boggle.
    #[arg(long, default_value = "gobble", value_parser = parse_scoring)]
    scoring: Scoring,
    /// Threads; 0 uses every core.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The solver's walk: auto (the one chosen for this processor), plain,
    /// avx2 or avx2-pdep (to compare them on one machine).
    #[arg(long, default_value = "auto", value_parser = ["auto", "plain", "avx2", "avx2-pdep"])]
    walk: String,
    /// Print JSON: `boards`, `boards_per_second`, `seconds`, `score_sum`,
    /// `word_sum`, `threads`, `walk`, `dict_load_seconds`, ...
    #[arg(long)]
    json: bool,
}

/// The thread count for `--threads N` (0: every core), at most 1,024.
fn threads(n: usize) -> Result<usize> {
    if n > 1024 {
        bail!("--threads {n}: at most 1024 (0 uses every core)");
    }
    Ok(if n == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        n
    })
}

/// CPU seconds used so far by this process (all its threads, finished ones
/// included), to the nanosecond clock of `clock_gettime`; `None` where
/// there is no such clock.
fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to fill.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
        ok.then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

fn bench(a: BenchArgs) -> Result<ExitCode> {
    let mut o = String::new();
    let (boards, what) = match (&a.boards, a.random) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read boards file {}", path.display()))?;
            let mut boards = Vec::new();
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let b = Board::parse(line, a.size)
                    .with_context(|| format!("{}:{}", path.display(), i + 1))?;
                boards.push(b);
            }
            if boards.is_empty() {
                bail!("boards file {} has no board", path.display());
            }
            (boards, format!("file {}", path.display()))
        }
        (None, Some(n)) => {
            if n == 0 {
                bail!("--random N needs at least one board");
            }
            let size = a.size.unwrap_or(Size::square(4));
            let dist = match a.dist.as_deref() {
                Some("dice") => Dist::Dice(DiceSet::for_size(a.dice.as_deref(), size)?),
                _ => Dist::Uniform,
            };
            let label = match &dist {
                Dist::Uniform => "uniform".to_string(),
                Dist::Dice(d) => format!("dice {}", d.name()),
            };
            (
                random_boards(n, &a.seed, &dist, size),
                format!("random {label} seed {:?}", a.seed),
            )
        }
        (None, None) => bail!("give --boards FILE or --random N"),
    };
    let walk = match WalkKind::parse(&a.walk) {
        None => WalkKind::best_here(),
        Some(w) if w.runs_here() => w,
        Some(w) => bail!(
            "--walk {w}: this processor lacks its instructions (AVX2 and BMI2); it runs plain"
        ),
    };
    let (trie, load) = load_trie(&a.dict)?;
    let t = threads(a.threads)?;
    let cpu0 = process_cpu_seconds();
    let r = score_boards(&trie, a.scoring, &boards, t, walk);
    // CPU time of the process over the scoring: on a shared machine, boards
    // per CPU-second is the figure other processes disturb least.
    let cpu = match (cpu0, process_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    if a.json {
        let v = serde_json::json!({
            "boards": r.boards,
            "source": what,
            "size": boards[0].size().to_string(),
            "scoring": a.scoring,
            "threads": r.threads,
            "walk": r.walk,
            "walk_chosen": if a.walk == "auto" { "for this processor" } else { "by --walk" },
            "seconds": r.elapsed.as_secs_f64(),
            "boards_per_second": r.rate(),
            "score_sum": r.score_sum,
            "word_sum": r.word_sum,
            "cpu_seconds": cpu,
            "boards_per_cpu_second": cpu.map(|c| r.boards as f64 / c),
            "dict_load_seconds": load.as_secs_f64(),
            "dict_words": trie.len(),
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!(
            o,
            "dictionary: {} words, trie {} nodes, loaded in {:.3} s (not timed below)",
            trie.len(),
            trie.node_count(),
            load.as_secs_f64()
        );
        outln!(
            o,
            "boards: {} ({what}), {} scoring, {} thread(s), {} walk",
            r.boards,
            a.scoring,
            r.threads,
            r.walk
        );
        outln!(
            o,
            "scored in {:.3} s: {:.0} boards/s",
            r.elapsed.as_secs_f64(),
            r.rate()
        );
        if let Some(c) = cpu {
            outln!(
                o,
                "process CPU time {:.3} s: {:.0} boards per CPU-second",
                c,
                r.boards as f64 / c
            );
        }
        outln!(
            o,
            "checksum: score sum {}, word sum {}",
            r.score_sum,
            r.word_sum
        );
    }
    emit(&o)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
struct BestArgs {
    /// Board size: N or WxH.
    #[arg(long, value_parser = parse_size)]
    size: Size,
    /// Time budget in seconds.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// Also stop once the search has used this much CPU time (seconds of
    /// all threads together): on a shared machine a fairer budget than
    /// wall time, so runs compare across loads.
    #[arg(long, value_name = "SECONDS")]
    cpu_seconds: Option<f64>,
    /// Seed of the search.
    #[arg(long)]
    seed: Option<u64>,
    /// Scoring: gobble or boggle.
    #[arg(long, default_value = "gobble", value_parser = parse_scoring)]
    scoring: Scoring,
    #[command(flatten)]
    dict: DictArgs,
    /// Threads; 0 (default) uses every core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Stop as soon as a board reaches this score.
    #[arg(long)]
    target: Option<u32>,
    /// Stop after this many runs; with --threads 1 and --seed the search
    /// then gives the same board every time (unless --seconds runs out).
    #[arg(long, value_name = "N")]
    runs: Option<u64>,
    /// Show this many of the best distinct boards found (each a local
    /// maximum; rotations and reflections count once).
    #[arg(long, default_value_t = 1, value_name = "N")]
    top: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn best(a: BestArgs) -> Result<ExitCode> {
    let mut o = String::new();
    if !(a.seconds > 0.0 && a.seconds <= 1e7) {
        bail!("--seconds must be a positive number of seconds (at most 10,000,000)");
    }
    if let Some(c) = a.cpu_seconds {
        if !(c > 0.0 && c <= 1e7) {
            bail!("--cpu-seconds must be a positive number of seconds (at most 10,000,000)");
        }
        if process_cpu_seconds().is_none() {
            bail!(
                "--cpu-seconds: this system does not report the process's CPU time; use --seconds"
            );
        }
    }
    let (trie, _) = load_trie(&a.dict)?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut cfg = SearchConfig::new(
        a.size,
        a.scoring,
        Duration::from_secs_f64(a.seconds),
        seed,
        threads(a.threads)?,
    );
    cfg.target = a.target;
    if a.runs == Some(0) {
        bail!("--runs must be at least 1");
    }
    cfg.max_runs = a.runs;
    if a.top == 0 || a.top > 1000 {
        bail!("--top {}: show 1 to 1000 boards", a.top);
    }
    cfg.keep = a.top;
    let cpu_start = process_cpu_seconds();
    // The CPU time when the best board was first reached: on a shared
    // machine a fairer measure of the search than its wall time.
    let found_cpu = std::sync::Mutex::new((0u32, None::<f64>));
    let tty = std::io::stderr().is_terminal();
    let bar = if tty {
        let bar = indicatif::ProgressBar::new((a.seconds * 10.0) as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:20} {elapsed}/{duration} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let report = |s: &SearchStatus| {
        {
            let mut f = found_cpu.lock().unwrap_or_else(|e| e.into_inner());
            if s.score > f.0 {
                *f = (s.score, process_cpu_seconds());
            }
        }
        if let Some(bar) = &bar {
            bar.set_position((s.elapsed.as_secs_f64() * 10.0) as u64);
            bar.set_message(format!(
                "best {} {} · {}k boards",
                s.score,
                s.board.letters(),
                s.evaluations / 1000
            ));
        }
    };
    let cancel = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    let st = std::thread::scope(|scope| {
        if let (Some(budget), Some(start)) = (a.cpu_seconds, cpu_start) {
            // The search checks `cancel` between boards; a watcher polling
            // the process's CPU clock keeps the budget out of its inner loop.
            let (cancel, finished) = (&cancel, &finished);
            scope.spawn(move || {
                while !finished.load(Ordering::Relaxed) {
                    if process_cpu_seconds().is_some_and(|now| now - start >= budget) {
                        cancel.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
        }
        let st = search(&trie, &cfg, &cancel, &report);
        finished.store(true, Ordering::Relaxed);
        st
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let since = |t: Option<f64>| Some(t? - cpu_start?);
    let cpu = since(process_cpu_seconds());
    let found_cpu = since(found_cpu.into_inner().unwrap_or_else(|e| e.into_inner()).1);
    let top: Vec<_> = st.elite.iter().take(a.top).collect();
    if a.json {
        let v = serde_json::json!({
            "board": st.board.letters(),
            "rows": st.board.rows(),
            "score": st.score,
            "words": st.words,
            "scoring": a.scoring,
            "found_after_seconds": st.found_after.as_secs_f64(),
            "found_after_cpu_seconds": found_cpu,
            "seconds": st.elapsed.as_secs_f64(),
            "cpu_seconds": cpu,
            "top": top.iter().map(|(b, s)| serde_json::json!({"board": b.letters(), "score": s})).collect::<Vec<_>>(),
            "boards_scored": st.evaluations,
            "runs": st.runs,
            "threads": cfg.threads,
            "seed": seed,
        });
        outln!(o, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        o.push_str(&board_text(&st.board));
        outln!(
            o,
            "best: {} = {} points, {} words ({} scoring)",
            st.board.letters(),
            st.score,
            st.words,
            a.scoring
        );
        let cpu_text = |t: Option<f64>| t.map(|t| format!(" ({t:.1} CPU-s)")).unwrap_or_default();
        outln!(
            o,
            "found after {:.1} s{}; searched {:.1} s{}, {} boards, {} runs, {} thread(s), seed {seed}",
            st.found_after.as_secs_f64(),
            cpu_text(found_cpu),
            st.elapsed.as_secs_f64(),
            cpu_text(cpu),
            st.evaluations,
            st.runs,
            cfg.threads
        );
        if a.top > 1 {
            outln!(o, "best distinct boards found (local maxima):");
            for (b, s) in &top {
                outln!(o, "  {s:>6}  {}", b.letters());
            }
        }
    }
    emit(&o)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args)]
struct ProveArgs {
    /// Board size: N or WxH (at most 4^16 top-level classes).
    #[arg(long, value_parser = parse_size, required_unless_present = "merge")]
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
    #[arg(long, value_name = "N", requires = "out", conflicts_with_all = ["classes", "checkpoint", "sample"])]
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
    let cpu = match (cpu0, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
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

fn prove(a: ProveArgs) -> Result<ExitCode> {
    use parlor_gobble::prove::{buckets_text, parse_buckets, parse_cells, Prover, MAX_PROVE_CELLS};
    if let Some(dir) = &a.merge {
        return merge_units(dir, a.json);
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
    let mut prover = Prover::new(&trie, size, a.scoring, buckets);
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
                    ["class", k] => {
                        let k = k.parse::<u64>().ok().filter(|&k| in_scope(k));
                        let k = k.ok_or_else(|| {
                            anyhow!(
                                "checkpoint {}: bad line {:?}",
                                path.display(),
                                line.trim_end()
                            )
                        })?;
                        finished.insert(k);
                        earlier.append(&mut pending);
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
    let skip = |k: u64| finished.contains(&k);
    let done = |k: u64, found: &[Found]| {
        if let Some(f) = &file {
            let mut text = String::new();
            for b in found {
                text.push_str(&format!("board {} {}\n", b.board, b.score));
            }
            text.push_str(&format!("class {k}\n"));
            let mut f = f.lock().unwrap();
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
        elapsed,
        interrupted,
    })
}

/// The most work units a proof is split into.
const MAX_UNITS: u64 = 1_000_000;

/// The largest unit result `--merge` reads (a unit of a 4x4 proof in
/// 200 units lists about 84,000 groups: well under a megabyte).
const MAX_UNIT_FILE: u64 = 64 << 20;

/// The unit a `--units N` run does: `--unit K`, else the index a Slurm job
/// array (`SLURM_ARRAY_TASK_ID`) or a Kubernetes Indexed Job
/// (`JOB_COMPLETION_INDEX`) gives each of its tasks.
fn unit_number(units: u64, given: Option<u64>) -> Result<u64> {
    if units == 0 || units > MAX_UNITS {
        bail!("--units {units}: a proof is split into 1 to {MAX_UNITS} units");
    }
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
    cpu_seconds: Option<f64>,
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
    let cpu0 = process_cpu_seconds();
    let run = run_proof(
        Some(&ckpt),
        &header,
        size,
        &|k| groups.binary_search(&(k / group)).is_ok(),
        classes,
        a.json,
        &|skip, done, stop| prover.prove_groups(above, threads, &groups, skip, done, stop),
    )?;
    let cpu = match (cpu0, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
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
        cpu_seconds: cpu,
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

/// `prove --merge DIR`: every unit's result, checked to be of one proof and
/// to cover every class exactly once, as one proof's answer.
fn merge_units(dir: &std::path::Path, json: bool) -> Result<ExitCode> {
    use parlor_gobble::prove::{parse_buckets, Prover};
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("--merge {}: cannot read the folder", dir.display()))?;
    let mut names = Vec::new();
    for e in entries {
        let name = e?.file_name().to_string_lossy().into_owned();
        if name.starts_with("unit-") && name.ends_with(".json") {
            names.push(name);
        }
    }
    if names.is_empty() {
        bail!(
            "--merge {}: no unit results (unit-K.json) in the folder",
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

#[derive(clap::Args)]
struct PlayArgs {
    /// Board size: 4, 5 or 6.
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// The board's keyphrase (default: a fresh one).
    #[arg(long, value_name = "PHRASE")]
    keyphrase: Option<String>,
    /// Dice set (default for the size).
    #[arg(long, value_name = "SET")]
    dice: Option<String>,
    /// Length of the round in seconds.
    #[arg(long, default_value_t = 180)]
    seconds: u32,
    /// Computer players.
    #[arg(long, default_value_t = 1)]
    bots: usize,
    /// Their level: easy, medium, hard or best.
    #[arg(long, default_value = "medium")]
    level: Level,
    /// Scoring: gobble or boggle.
    #[arg(long, default_value = "gobble", value_parser = parse_scoring)]
    scoring: Scoring,
    /// Write the round's record here at the end (for `parlor replay`).
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
    #[command(flatten)]
    dict: DictArgs,
}

fn fmt_clock(d: Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    format!("{}:{:02}", s / 60, s % 60)
}

fn play(a: PlayArgs) -> Result<ExitCode> {
    if a.bots > 15 {
        bail!("--bots: at most 15 computer players");
    }
    let (resources, lexicon) = a.dict.resources()?;
    let config = GobbleConfig {
        seats: 1 + a.bots,
        size: a.size,
        dice: a.dice.clone(),
        keyphrase: Some(match &a.keyphrase {
            Some(k) => Keyphrase::parse(k)?.normalised(),
            None => fresh_keyphrase().normalised(),
        }),
        seconds: a.seconds,
        scoring: a.scoring,
        lexicon,
    };
    let seed = fresh_seed();
    // A match, not a bare table: it keeps the record `--record` writes.
    let mut round =
        Match::<Gobble>::new(config, seed, &resources).map_err(|e| anyhow!(e.message))?;
    let mut agents: Vec<Option<Box<dyn DynAgent>>> = vec![None];
    for b in 1..=a.bots {
        agents.push(Some(round.agent(
            Seat(b),
            a.level,
            seed.wrapping_add(b as u64),
            &resources,
        )?));
    }
    let names: Vec<String> = std::iter::once("you".to_string())
        .chain((1..=a.bots).map(|k| format!("bot {k} ({})", a.level)))
        .collect();
    let mut screen = PlayScreen {
        names,
        level: a.level,
        tty: std::io::stdout().is_terminal() && std::io::stdin().is_terminal(),
        status_shown: false,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    host::play_at_terminal(
        &mut round,
        agents,
        &mut screen,
        &mut out,
        &host::Options {
            budget: parlor_core::Budget::UNLIMITED,
            record: a.record.clone(),
        },
    )
}

/// A Gobble round at the terminal: the board, then words typed against the
/// round's clock while the computer players find theirs at their pace.
pub struct PlayScreen {
    pub(crate) names: Vec<String>,
    pub(crate) level: Level,
    /// Whether the status line is kept above the prompt.
    pub(crate) tty: bool,
    pub(crate) status_shown: bool,
}

/// The person's seat.
const ME: Seat = Seat(0);

/// The length of the round a computer player's share of the board is
/// found in ([`parlor_gobble::game::bot_words`]): shorter rounds end
/// before it has entered them all.
const BOT_ROUND: Duration = Duration::from_secs(180);

impl PlayScreen {
    fn status(&self, game: &Gobble, left: Option<Duration>) -> String {
        let v = game.view(Viewer::Seat(ME));
        let mine: u32 = v
            .my_words
            .iter()
            .filter_map(|w| game.all_words().find(|f| &f.word == w))
            .map(|f| f.points)
            .sum();
        let others: Vec<String> = (1..self.names.len())
            .map(|s| format!("{} {}", self.names[s], v.counts[s]))
            .collect();
        format!(
            "[{} left] you: {} words, {} points{}{}",
            fmt_clock(left.unwrap_or_default()),
            v.my_words.len(),
            mine,
            if others.is_empty() { "" } else { " · " },
            others.join(" · ")
        )
    }

    /// After a word of the person's: the status line, or the time left.
    fn answer(&self, at: &At<'_>, msg: &str, out: &mut dyn Write) -> Result<()> {
        let game = at.typed::<Gobble>().state();
        if self.tty {
            writeln!(out, "{msg}")?;
            writeln!(out, "{}", self.status(game, at.left))?;
        } else {
            writeln!(
                out,
                "{msg} [{} left]",
                fmt_clock(at.left.unwrap_or_default())
            )?;
        }
        Ok(())
    }
}

impl host::Screen for PlayScreen {
    fn name(&self, _: &At<'_>, seat: Seat) -> String {
        self.names.get(seat.0).cloned().unwrap_or_default()
    }

    fn intro(&mut self, at: &At<'_>, out: &mut dyn Write) -> Result<()> {
        let g = at.typed::<Gobble>().state();
        writeln!(out, "Gobble — keyphrase: {}", g.keyphrase())?;
        writeln!(out)?;
        write!(out, "{}", board_text(g.board()))?;
        writeln!(out)?;
        let scoring = g.config().scoring;
        writeln!(
            out,
            "Words of {}+ letters (Qu counts as two), {} scoring. Type a word and Enter; an empty line or Ctrl-D ends your search.",
            scoring.min_len(g.board().size()),
            scoring
        )?;
        Ok(())
    }

    fn turn(&mut self, at: &At<'_>, _: Seat, person: bool, out: &mut dyn Write) -> Result<bool> {
        if !person || !self.tty || self.status_shown {
            return Ok(false);
        }
        self.status_shown = true;
        writeln!(
            out,
            "{}",
            self.status(at.typed::<Gobble>().state(), at.left)
        )?;
        Ok(true)
    }

    fn prompt(&self, _: &At<'_>, _: Seat) -> String {
        if self.tty { "> " } else { "" }.to_string()
    }

    fn read(&mut self, _: &At<'_>, seat: Seat, line: &str) -> Typed {
        let word = line.trim();
        if word.is_empty() {
            return Typed::act(seat, &GobbleAction::Done);
        }
        Typed::act(
            seat,
            &GobbleAction::Enter {
                word: word.to_string(),
            },
        )
    }

    fn at_end_of_input(&self, _: &At<'_>, _: Seat) -> Option<serde_json::Value> {
        serde_json::to_value(GobbleAction::Done).ok()
    }

    fn events(
        &mut self,
        at: &At<'_>,
        actor: Actor,
        from: usize,
        out: &mut dyn Write,
    ) -> Result<bool> {
        let m = at.typed::<Gobble>();
        let mut printed = false;
        for step in m.history().get(from..).unwrap_or_default() {
            for e in events_seen_by::<Gobble>(step, Viewer::Seat(ME)) {
                match e {
                    GobbleEvent::Accepted {
                        word: Some((w, p)), ..
                    } if actor == Actor::Seat(ME) => {
                        self.answer(at, &format!("  ✓ {w} (+{p})"), out)?;
                        printed = true;
                    }
                    GobbleEvent::SeatDone { seat } if seat == ME => {
                        writeln!(out, "You stopped searching.")?;
                        printed = true;
                    }
                    GobbleEvent::RoundOver { .. } => {
                        writeln!(out)?;
                        writeln!(out, "Round over.")?;
                        printed = true;
                    }
                    _ => {}
                }
            }
        }
        Ok(printed)
    }

    fn refused(
        &mut self,
        at: &At<'_>,
        _: Seat,
        e: &ActionError,
        out: &mut dyn Write,
    ) -> Result<bool> {
        self.answer(at, &format!("  ✗ {e}"), out)?;
        Ok(false)
    }

    /// A computer player enters its share of the board's words
    /// ([`BOT_ROUND`]'s worth) at an even pace.
    fn pace(&self, at: &At<'_>, _: Seat) -> Duration {
        let words = at.typed::<Gobble>().state().all_words().count() as f64;
        let share = (words * parlor_gobble::game::level_share(self.level)).round();
        BOT_ROUND.div_f64(share.max(1.0))
    }

    fn clock(&mut self, at: &At<'_>, _: Seat, out: &mut dyn Write) -> Result<()> {
        if self.tty && self.status_shown {
            // Rewrite the status line above the prompt, keeping the cursor.
            let status = self.status(at.typed::<Gobble>().state(), at.left);
            write!(out, "\x1b7\x1b[1A\r\x1b[2K{status}\x1b8")?;
            out.flush()?;
        }
        Ok(())
    }

    fn end(&mut self, at: &At<'_>, _: End, out: &mut dyn Write) -> Result<()> {
        let g = at.typed::<Gobble>().state();
        let Some(results) = g.results() else {
            return Ok(());
        };
        print_results(results, &self.names, out)?;
        let all: Vec<_> = g.all_words().cloned().collect();
        let total: u32 = all.iter().map(|w| w.points).sum();
        writeln!(out)?;
        writeln!(
            out,
            "The board held {} words worth {} points. Longest:",
            all.len(),
            total
        )?;
        let mut longest = all;
        longest.sort_by(|x, y| y.word.len().cmp(&x.word.len()).then(x.word.cmp(&y.word)));
        let top: Vec<&str> = longest.iter().take(8).map(|w| w.word.as_str()).collect();
        writeln!(out, "  {}", top.join(", "))?;
        writeln!(
            out,
            "Replay this board with --keyphrase \"{}\".",
            g.keyphrase()
        )?;
        Ok(())
    }
}

fn print_results(r: &RoundResults, names: &[String], out: &mut dyn Write) -> Result<()> {
    writeln!(out, "Lists, read fewest words first:")?;
    for seat in &r.reading_order {
        let s = &r.seats[seat.0];
        writeln!(out)?;
        writeln!(
            out,
            "{} — {} words, {} points",
            names[seat.0],
            s.words.len(),
            s.score
        )?;
        for w in &s.words {
            if w.cancelled_by.is_empty() {
                writeln!(out, "  {:<16} {:>2}", w.word, w.points)?;
            } else {
                let by: Vec<&str> = w.cancelled_by.iter().map(|o| names[o.0].as_str()).collect();
                writeln!(
                    out,
                    "  {:<16}  – cancelled (also found by {})",
                    w.word,
                    by.join(", ")
                )?;
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "Scores:")?;
    let mut order: Vec<usize> = (0..r.seats.len()).collect();
    order.sort_by_key(|&s| (std::cmp::Reverse(r.seats[s].score), s));
    for s in order {
        writeln!(out, "  {:<20} {:>4}", names[s], r.seats[s].score)?;
    }
    Ok(())
}
