//! `parlor`: play and analyse word and pencil games from the terminal, and
//! run the play server.
//!
//! Each command is a thin layer over a game crate: it reads files and
//! arguments, calls the crate, prints. Errors are one line on stderr and a
//! non-zero exit status.
//!
//! # How it is built
//!
//! | module | what |
//! | --- | --- |
//! | `games` | the registry of every game this build hosts (the server's too) |
//! | `host` | the one terminal host loop: any registered game, its agents, a game's screen |
//! | `wordsprout`, `gobble`, `sprouts*`, `wordchain*`, `twingrid` | each game's commands: its helpers, solvers, scorers, and the screen `play` draws |
//! | `records`, `conformance`, `puzzles` | what works on every game through the registry: replaying records, the conformance suite, puzzles |
//! | `selfplay` | computer players against each other, what the games' `selfplay` commands share |
//! | `serve`, `serve_bench` | the play server's command line and its load benchmark |
//! | `lexicon`, `dict` | word-list queries, and which list a command uses (`--dict`, `--lexicon`) |
//!
//! `parlor <game> play` builds the game's match from the registry
//! (type-erased, as the server does) and hands it to
//! `host::play_at_terminal` with the game's `Screen`, which draws views
//! and reads the player's actions; bots are the game's agents, asked
//! through the same match. No rule is decided here: a screen shows what
//! the game's view says and sends what the player typed.
//!
//! # Changing it
//!
//! A new command is a variant of `Command` below with its `Args` in the
//! game's module (clap derives the help text from the doc comments). A new
//! game needs no change here beyond its registration in `games` and, for
//! terminal play, a `Screen` (see `docs/adding-a-game.md`). Commands are
//! tested end to end from the built binary in `tests/`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod conformance;
mod dict;
mod games;
mod gobble;
mod host;
mod lexicon;
mod puzzles;
mod records;
mod selfplay;
mod serve;
mod serve_bench;
mod sprouts;
mod sprouts_analyse;
mod sprouts_play;
mod sprouts_solve;
mod twingrid;
mod wordchain;
mod wordchain_play;
mod wordsprout;

/// Word and pencil games: play them, check them, solve them.
#[derive(Parser)]
#[command(name = "parlor", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Word lists: information, membership, substring and pattern queries.
    Lexicon(lexicon::Args),
    /// Word Sprout: play, the helper (hint), perfect play (solve).
    #[command(name = "wordsprout", alias = "word-sprout")]
    Wordsprout(wordsprout::Args),
    /// Gobble: boards from keyphrases, the solver, benchmarks, timed play.
    Gobble(gobble::Args),
    /// Sprouts: replay WGOSA game records, list the legal moves of a position.
    Sprouts(sprouts::Args),
    /// WORDCHAIN: score a word, the best plays of a hand, play a game.
    Wordchain(wordchain::Args),
    /// Twin Grids: score a placement, replay a record, play a game.
    Twingrid(twingrid::Args),
    /// The conformance suite over many random games (a benchmark and a long check).
    Conformance(conformance::Args),
    /// The games this build hosts, with their default rules.
    Games(records::GamesArgs),
    /// Replay a game record of any game, checking every action.
    Replay(records::ReplayArgs),
    /// Puzzles from the solvers: the kinds, generating a set, proving a set again.
    Puzzles(puzzles::Args),
    /// The play server: lobby and games in the browser, JSON API (docs/api.md).
    Serve(serve::Args),
    /// Load benchmark of the play server over loopback WebSockets.
    #[command(name = "serve-bench")]
    ServeBench(serve_bench::Args),
}

/// mimalloc rather than the system's allocator: the server allocates and
/// frees many small buffers per message from several threads, where glibc's
/// malloc spent about a tenth of the server's CPU and fragmented its memory
/// (measured with `parlor serve-bench`).
///
/// Built with `no_thp`: mimalloc does not ask the kernel for transparent
/// huge pages, so the system's setting decides (on Debian, `madvise`: no
/// huge pages). With them, every command began by clearing several 2 MiB
/// pages it barely used: `parlor sprouts solve` of a small start took
/// 0.3 ms more CPU of its 2 to 3 ms, and the normal 1..11 row (a process
/// each) 2% more. The server's CPU per action did not move with them
/// (`serve-bench --game nim`, two interleaved pairs: 59.9 and 60.5 µs
/// without, 59.5 and 62.8 µs with), and it ended 10 to 16 MiB smaller
/// without (196 and 198 MiB against 207 and 212).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its option number 15 in v2 and v3).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

extern "C" {
    /// mimalloc's own setter (the C library the allocator above links).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Memory freed by the server goes back to the system after 10 ms
/// instead of mimalloc 3's default of a second: games end and their
/// rematches start all the time, and the pages freed meanwhile stayed
/// resident. Word Sprout's 10,000-game benchmark ended 15–19 MiB lower in
/// two interleaved pairs (about 30 MiB lower on the mean of all runs),
/// its peak did not move measurably, nor the CPU per action
/// (`parlor serve-bench --game wordsprout`).
/// `MIMALLOC_PURGE_DELAY` in the environment still decides when set.
fn purge_freed_memory_soon() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one option of the allocator this binary links;
        // mimalloc reads it at its next purge, from any thread.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
    }
}

fn main() -> ExitCode {
    purge_freed_memory_soon();
    // A panic is a bug; still, the person at the terminal gets one line,
    // not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("parlor: internal error (please report): {msg}{at}");
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with success, and
            // usage errors to stderr with status 2.
            if !e.use_stderr() {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // `parlor` or `parlor gobble` alone: the list of commands.
                let _ = e.print();
                return ExitCode::from(2);
            }
            // A usage error in one line: clap's first paragraph says what
            // was wrong (a missing argument is named on the lines under
            // it) and what is accepted; --help has the rest.
            let rendered = e.render().to_string();
            let first: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty())
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            let first = if first.is_empty() {
                "invalid arguments"
            } else {
                first
            };
            eprintln!("parlor: error: {first} (see --help)");
            return ExitCode::from(2);
        }
    };
    // A command whose output is piped dies quietly when the reader goes
    // away; the server must not: a client closing a socket would kill it.
    if !matches!(cli.command, Command::Serve(_) | Command::ServeBench(_)) {
        quiet_on_closed_pipe();
    }
    let result = match cli.command {
        Command::Lexicon(args) => lexicon::run(args),
        Command::Wordsprout(args) => wordsprout::run(args),
        Command::Gobble(args) => gobble::run(args),
        Command::Sprouts(args) => sprouts::run(args),
        Command::Wordchain(args) => wordchain::run(args),
        Command::Twingrid(args) => twingrid::run(args),
        Command::Conformance(args) => conformance::run(args),
        Command::Games(args) => records::games(args),
        Command::Replay(args) => records::replay(args),
        Command::Puzzles(args) => puzzles::run(args),
        Command::Serve(args) => serve::run(args),
        Command::ServeBench(args) => serve_bench::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // One line: the error and its causes, never a backtrace.
            let mut line = e.to_string();
            for cause in e.chain().skip(1) {
                // Errors that already quote their cause would say it twice.
                let cause = cause.to_string();
                if !line.contains(&cause) {
                    line.push_str(": ");
                    line.push_str(&cause);
                }
            }
            eprintln!("parlor: error: {line}");
            ExitCode::FAILURE
        }
    }
}

/// `parlor ... | head` should stop quietly when `head` has read enough, as
/// Unix tools do, instead of failing on the closed pipe.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE at start-up,
    // before any thread exists, is what a C program starts with.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
