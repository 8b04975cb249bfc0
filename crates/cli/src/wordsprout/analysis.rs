//! `parlor wordsprout hint|solve|bench`: the helper and perfect play.
//!
//! The analysis uses only the rules that shape strings (tiles and the
//! "valid strings" rules); any other rule given with `--rule` is listed as
//! ignored in the output, never silently dropped. Rules start from the core
//! rules (`--rule core` is implied).

use super::RuleArgs;
use anyhow::{bail, Context, Result};
use parlor_lexicon::Lexicon;
use parlor_wordsprout::hint::hint as hint_moves;
use parlor_wordsprout::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_wordsprout::solve::solve_players;
use parlor_wordsprout::{Language, Solution};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Options shared by the analysis commands.
#[derive(clap::Args, Clone, Debug)]
pub struct AnalysisArgs {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The tile pot for `--rule tiles`: letters with counts, like
    /// "a9 b2 c2 ..." (default: the 98 lettered tiles of a crossword game).
    #[arg(long, value_name = "POT")]
    pub pot: Option<String>,
    /// The vowels (default aeiou).
    #[arg(long, value_name = "LETTERS")]
    pub vowels: Option<String>,
}

/// `parlor wordsprout hint`.
#[derive(clap::Args, Debug)]
pub struct HintArgs {
    /// The current string (letters a-z, any case; "" for the empty start).
    #[arg(value_name = "STRING")]
    pub string: String,
    #[command(flatten)]
    pub common: AnalysisArgs,
    /// Also solve the two-player game and mark each play winning or losing
    /// for the player who makes it.
    #[arg(long)]
    pub solve: bool,
    /// List at most N goal words per play (0: all); the count is always given.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub limit: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `parlor wordsprout solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub common: AnalysisArgs,
    /// Number of players: 2 (default) solves the two-player game; more uses
    /// max^n with the first-play tie-break (see docs/rules/wordsprout.md).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub players: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `parlor wordsprout bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub common: AnalysisArgs,
    /// Number of timed runs; the medians are reported.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub runs: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Everything an analysis needs, loaded.
struct Setup {
    lexicon: std::sync::Arc<Lexicon>,
    rules: RuleSet,
    pot: Pot,
    vowels: Vowels,
}

impl Setup {
    fn load(a: &AnalysisArgs) -> Result<Setup> {
        let rules = a.rules.rule_set(RuleSet::core())?;
        let pot = match &a.pot {
            Some(p) => p.parse::<Pot>()?,
            None => Pot::STANDARD,
        };
        let vowels = match &a.vowels {
            Some(v) => Vowels::try_from(v.clone()).map_err(anyhow::Error::msg)?,
            None => Vowels::default(),
        };
        if a.pot.is_some() && !rules.has(Rule::Tiles) {
            eprintln!("parlor: note: --pot has no effect without --rule tiles");
        }
        let lexicon = a.rules.dict.load()?;
        Ok(Setup {
            lexicon,
            rules,
            pot,
            vowels,
        })
    }

    fn used(&self) -> Vec<&'static str> {
        self.rules
            .string_rules()
            .0
            .iter()
            .map(|r| r.name())
            .collect()
    }

    fn ignored(&self) -> Vec<&'static str> {
        self.rules
            .0
            .iter()
            .filter(|r| !r.shapes_strings())
            .map(|r| r.name())
            .collect()
    }

    fn describe(&self) -> String {
        let used = self.used();
        let mut line = format!(
            "word list {} ({} words), rules: {}",
            self.lexicon.name(),
            self.lexicon.len(),
            if used.is_empty() {
                "core".to_string()
            } else {
                used.join(", ")
            }
        );
        if self.rules.has(Rule::Tiles) {
            line.push_str(&format!(" (pot {})", self.pot));
        }
        if String::from(self.vowels.clone()) != "aeiou" {
            line.push_str(&format!(" (vowels {})", String::from(self.vowels.clone())));
        }
        let ignored = self.ignored();
        if !ignored.is_empty() {
            line.push_str(&format!(
                "\nignored (they do not change which strings are valid): {}",
                ignored.join(", ")
            ));
        }
        line
    }

    fn language(&self) -> Language {
        Language::new(&self.lexicon, &self.rules, &self.pot, &self.vowels)
    }

    /// For a few queries: builds only the string lengths asked about when
    /// the rules allow it (see `Language::new_lazy`).
    fn lazy_language(&self) -> Language {
        Language::new_lazy(&self.lexicon, &self.rules, &self.pot, &self.vowels)
    }
}

/// A spinner on a terminal, nothing when piped.
fn spinner(message: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(100));
    Some(bar)
}

fn finish(bar: Option<indicatif::ProgressBar>) {
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// `parlor wordsprout hint STRING`.
pub fn hint(a: HintArgs) -> Result<ExitCode> {
    quiet_pipe(hint_inner(a))
}

fn hint_inner(a: HintArgs) -> Result<ExitCode> {
    if !a.string.bytes().all(|b| b.is_ascii_alphabetic()) {
        bail!(
            "{:?} is not a Word Sprout string: use the letters a-z only (any case)",
            a.string
        );
    }
    let setup = Setup::load(&a.common)?;
    let bar = spinner("building the valid strings");
    let language = if a.solve {
        setup.language()
    } else {
        setup.lazy_language()
    };
    let solution = if a.solve {
        if let Some(b) = &bar {
            b.set_message("solving");
        }
        Some(Solution::solve(&language))
    } else {
        None
    };
    finish(bar);
    let moves = hint_moves(&language, &a.string, solution.as_ref())?;
    let string = a.string.to_ascii_lowercase();
    let valid = language.is_valid(&string);
    let mut out = std::io::stdout().lock();
    if a.json {
        let items: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                let mut v = json!({
                    "position": m.position,
                    "letter": m.letter.to_string(),
                    "result": m.result,
                    "goal_count": m.goal_words.len(),
                    "goal_words": limited(&m.goal_words, a.limit),
                });
                if let Some((q, c)) = m.second {
                    v["second"] = json!({ "position": q, "letter": c.to_string() });
                }
                if let Some(w) = m.wins {
                    v["wins"] = json!(w);
                }
                v
            })
            .collect();
        let mut doc = json!({
            "string": string,
            "valid": valid,
            "lexicon": setup.lexicon.name(),
            "rules": setup.used(),
            "ignored_rules": setup.ignored(),
            "position_reported": "leftmost insertion giving the result",
            "moves": items,
        });
        if let Some(sol) = &solution {
            // After a bluff the string is no position of the solved game,
            // but the player to move still wins exactly when a play wins.
            let wins = sol
                .wins(&string)
                .unwrap_or_else(|| moves.iter().any(|m| m.wins == Some(true)));
            doc["to_move_wins"] = json!(wins);
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{}", setup.describe())?;
    let shown = if string.is_empty() {
        "the empty string".to_string()
    } else {
        string.to_uppercase()
    };
    if !valid {
        writeln!(
            out,
            "note: {shown} is not a valid string under these rules (a bluff?)"
        )?;
    }
    if moves.is_empty() {
        writeln!(out, "no legal play from {shown}: the player to move is out")?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(w) = solution.as_ref().and_then(|sol| sol.wins(&string)) {
        let who = if w { "wins" } else { "loses" };
        writeln!(
            out,
            "with perfect play (two players) the player to move at {shown} {who}"
        )?;
    }
    writeln!(
        out,
        "{} legal play(s) from {shown} (position = gap of the leftmost insertion, 0 = before the first letter):",
        moves.len()
    )?;
    let width = moves.iter().map(|m| m.result.len()).max().unwrap_or(0);
    for m in &moves {
        let play = match m.second {
            Some((q, c)) => format!(
                "{:>2} {} +{:>2} {}",
                m.position,
                m.letter.to_ascii_uppercase(),
                q,
                c.to_ascii_uppercase()
            ),
            None => format!("{:>2} {}", m.position, m.letter.to_ascii_uppercase()),
        };
        let verdict = match m.wins {
            Some(true) => "  wins ",
            Some(false) => "  loses",
            None => "",
        };
        let words = limited(&m.goal_words, a.limit);
        let more = if words.len() < m.goal_words.len() {
            format!(" ... ({} in all)", m.goal_words.len())
        } else {
            String::new()
        };
        writeln!(
            out,
            "{play}  {:<width$}{verdict}  {}{}",
            m.result.to_uppercase(),
            words.join(" "),
            more
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A reader that closed the pipe (`| head`) is not an error.
fn quiet_pipe(r: Result<ExitCode>) -> Result<ExitCode> {
    match r {
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(ExitCode::SUCCESS)
        }
        r => r,
    }
}

fn limited(words: &[String], limit: usize) -> Vec<String> {
    if limit == 0 {
        words.to_vec()
    } else {
        words.iter().take(limit).cloned().collect()
    }
}

/// `parlor wordsprout solve`.
pub fn solve(a: SolveArgs) -> Result<ExitCode> {
    quiet_pipe(solve_inner(a))
}

fn solve_inner(a: SolveArgs) -> Result<ExitCode> {
    if a.players < 2 || a.players > 255 {
        bail!("--players must be between 2 and 255, got {}", a.players);
    }
    let setup = Setup::load(&a.common)?;
    let bar = spinner("building the valid strings");
    let started = Instant::now();
    let language = setup.language();
    if let Some(b) = &bar {
        b.set_message(format!("solving {} valid strings", language.valid_count()));
    }
    let mut out = std::io::stdout().lock();
    if a.players == 2 {
        let sol = Solution::solve(&language);
        finish(bar);
        let elapsed = started.elapsed();
        if a.json {
            let doc = json!({
                "positions": sol.positions(),
                "first_player_wins": sol.first_player_wins(),
                "winning_openers": sol.winning_openers(),
                "players": 2,
                "goal_words": language.goal_count(),
                "valid_strings": language.valid_count(),
                "lexicon": setup.lexicon.name(),
                "rules": setup.used(),
                "ignored_rules": setup.ignored(),
                "seconds": elapsed.as_secs_f64(),
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        } else {
            writeln!(out, "{}", setup.describe())?;
            writeln!(out, "goal words: {}", language.goal_count())?;
            writeln!(out, "positions: {} (distinct valid strings reachable from the empty start, counting it)", sol.positions())?;
            if sol.first_player_wins() {
                writeln!(out, "the first player wins with perfect play")?;
                writeln!(
                    out,
                    "winning openers: {}",
                    sol.winning_openers().to_uppercase()
                )?;
            } else {
                writeln!(
                    out,
                    "the second player wins with perfect play (no winning opener)"
                )?;
            }
            writeln!(out, "solved in {:.3} s", elapsed.as_secs_f64())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let sol = solve_players(&language, a.players);
    finish(bar);
    let elapsed = started.elapsed();
    if a.json {
        let doc = json!({
            "positions": sol.positions(),
            "players": a.players,
            "winner": sol.winner() + 1,
            "first_player_wins": sol.winner() == 0,
            "winning_openers": sol.winning_openers(),
            "solution_concept": "max^n, payoff 1 to the winner; a player who cannot win takes the first play in (position, letter) order",
            "lexicon": setup.lexicon.name(),
            "rules": setup.used(),
            "ignored_rules": setup.ignored(),
            "seconds": elapsed.as_secs_f64(),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        writeln!(out, "{}", setup.describe())?;
        writeln!(out, "positions: {}", sol.positions())?;
        writeln!(
            out,
            "with {} players (max^n; a player who cannot win takes the leftmost, then alphabetically first play), player {} wins",
            a.players,
            sol.winner() + 1
        )?;
        writeln!(
            out,
            "openers after which player 1 wins: {}",
            sol.winning_openers().to_uppercase()
        )?;
        writeln!(out, "solved in {:.3} s", elapsed.as_secs_f64())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `parlor wordsprout bench`.
pub fn bench(a: BenchArgs) -> Result<ExitCode> {
    quiet_pipe(bench_inner(a))
}

fn bench_inner(a: BenchArgs) -> Result<ExitCode> {
    if a.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let setup = Setup::load(&a.common)?;
    // The text the word list is rebuilt from in each run (a cold start: no
    // index survives from one run to the next).
    let mut text = Vec::new();
    for w in setup.lexicon.words() {
        text.extend_from_slice(w.as_bytes());
        text.push(b'\n');
    }
    let name = setup.lexicon.name().to_string();
    let (mut load, mut build, mut solve, mut total) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut check: Option<(usize, bool, String)> = None;
    for run in 0..a.runs {
        let t0 = Instant::now();
        let (lexicon, _) =
            Lexicon::from_bytes(name.clone(), &text).context("cannot load the word list")?;
        let t1 = Instant::now();
        let language = Language::new(&lexicon, &setup.rules, &setup.pot, &setup.vowels);
        let t2 = Instant::now();
        let sol = Solution::solve(&language);
        let t3 = Instant::now();
        let got = (
            sol.positions(),
            sol.first_player_wins(),
            sol.winning_openers(),
        );
        if let Some(prev) = &check {
            if *prev != got {
                bail!(
                    "run {} disagrees with run 1: {:?} vs {:?}",
                    run + 1,
                    got,
                    prev
                );
            }
        }
        check = Some(got);
        load.push(t1 - t0);
        build.push(t2 - t1);
        solve.push(t3 - t2);
        total.push(t3 - t1);
        drop(language);
        drop(sol);
    }
    let (positions, first, openers) = check.expect("at least one run");
    let (load, build, solve, total) = (median(load), median(build), median(solve), median(total));
    let mut out = std::io::stdout().lock();
    if a.json {
        let doc = json!({
            "lexicon": name,
            "words": setup.lexicon.len(),
            "rules": setup.used(),
            "ignored_rules": setup.ignored(),
            "runs": a.runs,
            "load_ms_median": ms(load),
            "language_ms_median": ms(build),
            "solve_only_ms_median": ms(solve),
            "solve_ms_median": ms(total),
            "positions": positions,
            "first_player_wins": first,
            "winning_openers": openers,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        writeln!(out, "{}", setup.describe())?;
        writeln!(out, "runs: {} (medians below)", a.runs)?;
        writeln!(out, "load word list:        {:9.1} ms", ms(load))?;
        writeln!(
            out,
            "cold solve:            {:9.1} ms  (valid strings {:.1} ms + solve {:.1} ms)",
            ms(total),
            ms(build),
            ms(solve)
        )?;
        writeln!(
            out,
            "check: positions {positions}, first player wins: {first}, winning openers: {}",
            if openers.is_empty() {
                "-".into()
            } else {
                openers
            }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
