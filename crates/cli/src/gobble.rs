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
use prove::{prove, ProveArgs};
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

// After `outln!`, which it uses.
mod prove;

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

/// CPU seconds this process has used since `start` (a reading of
/// [`process_cpu_seconds`]); `None` where there is no such clock.
fn cpu_since(start: Option<f64>) -> Option<f64> {
    Some(process_cpu_seconds()? - start?)
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
    let cpu = cpu_since(cpu0).filter(|&c| c > 0.0);
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
