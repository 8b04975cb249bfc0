//! `parlor twingrid ...`: the score of a placement, a game record scored
//! turn by turn, and a game at the terminal.

use crate::dict::DictArgs;
use crate::host::{self, At, End, Typed};
use anyhow::{bail, Context, Result};
use parlor_core::{Actor, Budget, DynAgent, DynMatch, Game, Level, Match, Record, Seat, Viewer};
use parlor_twingrid::grid::{Grid, Vertical};
use parlor_twingrid::{Action, Config, Turn, TwinGrids};
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

/// Twin Grids commands.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// The score of writing a word into the next free row of a grid.
    Score(ScoreArgs),
    /// Score a whole game record (a file, or its JSON) turn by turn.
    Replay(ReplayArgs),
    /// A game at this terminal, against the computer or a friend.
    Play(PlayArgs),
    /// Computer players against each other: win rates between two levels
    /// (seats swapped every game) and player 1's edge.
    Selfplay(SelfplayArgs),
}

#[derive(clap::Args)]
struct SelfplayArgs {
    #[command(flatten)]
    common: crate::selfplay::Options,
    /// Turns each player takes.
    #[arg(long, default_value_t = 8)]
    turns: usize,
}

#[derive(clap::Args)]
struct ScoreArgs {
    /// The grid's rows top to bottom, `/` between rows, `.` for an empty
    /// cell: `tan....../.........`.
    #[arg(long)]
    grid: String,
    /// The opponent's most recent word.
    #[arg(long)]
    opponent_last: String,
    /// The word to write.
    #[arg(long)]
    word: String,
    /// The column of its first letter, from 1.
    #[arg(long)]
    column: usize,
    /// The grid's width (default: the rows' length).
    #[arg(long)]
    width: Option<usize>,
    /// Points for an anagram of the opponent's word.
    #[arg(long, default_value_t = 10)]
    anagram_bonus: u32,
    /// Which runs down a column count as vertical words: `every-run`
    /// ending in the new row (the game's default) or `whole-column` (the
    /// crossword reading).
    #[arg(long, default_value = "every-run", value_parser = vertical_arg)]
    vertical: Vertical,
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON: `shared`, `vertical_words`, `longest_vertical`, `score`.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// The record: a file written by `twingrid play --record` or the
    /// server, or its JSON text.
    record: String,
    /// Print JSON: every turn with its score.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct PlayArgs {
    /// The computer's level (easy, medium, hard, best), or `none` for two
    /// people at one keyboard.
    #[arg(long, default_value = "best")]
    bot: String,
    /// Cells in a row.
    #[arg(long, default_value_t = 9)]
    width: usize,
    /// Turns each player takes.
    #[arg(long, default_value_t = 8)]
    turns: usize,
    /// Points for an anagram of the opponent's last word.
    #[arg(long, default_value_t = 10)]
    anagram_bonus: u32,
    /// No challenges: words are checked as they are played.
    #[arg(long)]
    no_challenges: bool,
    /// Which runs down a column count as vertical words: `every-run` or
    /// `whole-column`.
    #[arg(long, default_value = "every-run", value_parser = vertical_arg)]
    vertical: Vertical,
    /// Which seat the person takes: 1 (opens) or 2 (decides the pie).
    #[arg(long, default_value_t = 1)]
    seat: usize,
    /// Seed of the opening word (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the record here at the end.
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
    #[command(flatten)]
    dict: DictArgs,
}

/// Runs a Twin Grids command.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.cmd {
        Cmd::Score(a) => score(a),
        Cmd::Replay(a) => replay(a),
        Cmd::Play(a) => play(a),
        Cmd::Selfplay(a) => selfplay(a),
    }
}

fn selfplay(a: SelfplayArgs) -> Result<ExitCode> {
    use crate::selfplay::{play_one, Tally};
    let (levels, resources, lexicon) = a.common.prepare()?;
    let config = Config {
        lexicon,
        turns: a.turns,
        ..Config::default()
    };
    let (mut tally, mut edge, mut swaps) = (Tally::default(), 0i64, 0u64);
    for i in 0..a.common.games {
        let (seed, by_seat, swap) = a.common.game(i, levels);
        let m = play_one::<TwinGrids>(&config, seed, &resources, by_seat, &[Action::Accept])?;
        let g = m.state();
        edge += g.scores()[0] - g.scores()[1];
        swaps += u64::from(g.seat_of() != [0, 1]);
        let by_seat_score = |s: usize| g.scores()[g.role_of(s)];
        let (first, second) = if swap {
            (by_seat_score(1), by_seat_score(0))
        } else {
            (by_seat_score(0), by_seat_score(1))
        };
        tally.add(first, second);
    }
    let p1_edge = edge as f64 / a.common.games as f64;
    if a.common.json {
        let mut v = tally.json(levels);
        v["player1_edge"] = json!(p1_edge);
        v["swaps"] = json!(swaps);
        println!("{v}");
    } else {
        println!(
            "{}; player 1 scored {p1_edge:+.1} points more than player 2 on average; {swaps} pie swaps",
            tally.line(levels)
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn vertical_arg(s: &str) -> Result<Vertical, String> {
    match s {
        "every-run" | "every_run" => Ok(Vertical::EveryRun),
        "whole-column" | "whole_column" => Ok(Vertical::WholeColumn),
        _ => Err(format!(
            "{:?}: every-run (every run ending in the new row) or whole-column (only the whole column's run)",
            s.chars().take(40).collect::<String>()
        )),
    }
}

fn word_arg(what: &str, w: &str) -> Result<String> {
    if w.is_empty() || w.len() > 64 || !w.bytes().all(|b| b.is_ascii_alphabetic()) {
        bail!("{what} {w:?}: a word of 1 to 64 letters a-z");
    }
    Ok(w.to_ascii_lowercase())
}

fn score(a: ScoreArgs) -> Result<ExitCode> {
    let grid = Grid::parse(&a.grid, a.width)?;
    let word = word_arg("--word", &a.word)?;
    let theirs = word_arg("--opponent-last", &a.opponent_last)?;
    if a.column == 0 || !grid.fits(&word, a.column - 1) {
        bail!(
            "--column {}: {word:?} must fit in the grid's {} columns (1 to {})",
            a.column,
            grid.width(),
            (grid.width() + 1).saturating_sub(word.len()).max(1)
        );
    }
    let lexicon = a.dict.load()?;
    let s = grid.score(
        &word,
        a.column - 1,
        &theirs,
        a.anagram_bonus,
        &lexicon,
        a.vertical,
    );
    if a.json {
        let verticals: Vec<&str> = s.vertical_words.iter().map(|v| v.word.as_str()).collect();
        let where_: Vec<_> = s
            .vertical_words
            .iter()
            .map(|v| json!({"column": v.column + 1, "word": v.word, "length": v.word.len()}))
            .collect();
        println!(
            "{}",
            json!({
                "word": word,
                "column": a.column,
                "row": grid.rows() + 1,
                "shared": s.shared,
                "shared_letters": s.shared_letters,
                "vertical_words": verticals,
                "vertical_details": where_,
                "longest_vertical": s.longest_vertical,
                "anagram_bonus": s.anagram_bonus,
                "score": s.score,
                "in_dictionary": lexicon.contains(&word),
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} in row {} from column {}",
        word.to_uppercase(),
        grid.rows() + 1,
        a.column
    );
    println!(
        "  shared with {}: {} ({})",
        theirs.to_uppercase(),
        s.shared,
        if s.shared_letters.is_empty() {
            "none".to_string()
        } else {
            s.shared_letters.to_uppercase()
        }
    );
    if s.vertical_words.is_empty() {
        println!("  vertical words: none");
    }
    for v in &s.vertical_words {
        println!(
            "  vertical word in column {}: {} ({})",
            v.column + 1,
            v.word.to_uppercase(),
            v.word.len()
        );
    }
    println!("  longest vertical word: {}", s.longest_vertical);
    if s.anagram_bonus > 0 {
        println!(
            "  anagram of {}: +{}",
            theirs.to_uppercase(),
            s.anagram_bonus
        );
    }
    println!(
        "  {} x {}{} = {}",
        s.shared,
        s.longest_vertical,
        if s.anagram_bonus > 0 {
            format!(" + {}", s.anagram_bonus)
        } else {
            String::new()
        },
        s.score
    );
    println!("score: {}", s.score);
    Ok(ExitCode::SUCCESS)
}

fn turn_line(t: &Turn) -> String {
    match t {
        Turn::Opening {
            word,
            column,
            points,
            to,
        } => format!(
            "opening word {} at column {}; {points} points to player {}",
            word.to_uppercase(),
            column + 1,
            to + 1
        ),
        Turn::Pie { swap } => {
            if *swap {
                "pie rule: the second player takes player 1's side".into()
            } else {
                "pie rule: the second player stays player 2".into()
            }
        }
        Turn::Word {
            player,
            word,
            column,
            row,
            against,
            score,
            first,
            challenged,
        } => {
            let how = if *first {
                format!(
                    "{} letters shared with the opening {}",
                    score.shared,
                    against.to_uppercase()
                )
            } else {
                format!(
                    "{} shared with {} x longest vertical {}{}",
                    score.shared,
                    against.to_uppercase(),
                    score.longest_vertical,
                    if score.anagram_bonus > 0 {
                        format!(" + anagram {}", score.anagram_bonus)
                    } else {
                        String::new()
                    }
                )
            };
            let ch = match challenged {
                Some(true) => ", challenged: not a word, 0 points",
                Some(false) => ", challenged in vain",
                None => "",
            };
            format!(
                "player {}: {} in row {} from column {}: {how} = {}{ch}",
                player + 1,
                word.to_uppercase(),
                row + 1,
                column + 1,
                score.score
            )
        }
        Turn::Skipped { player } => {
            format!("player {} skips a turn (a failed challenge)", player + 1)
        }
        Turn::Accepted { player } => {
            format!(
                "player {} accepts the last word: the game is over",
                player + 1
            )
        }
    }
}

fn replay(a: ReplayArgs) -> Result<ExitCode> {
    let text = if a.record.trim_start().starts_with('{') {
        a.record.clone()
    } else {
        std::fs::read_to_string(&a.record).with_context(|| format!("cannot read {}", a.record))?
    };
    if text.len() > 10_000_000 {
        bail!("the record is larger than 10 MB");
    }
    let record: Record<TwinGrids> = Record::from_json(&text).context("not a Twin Grids record")?;
    let resources = parlor_core::Resources::embedded();
    let m =
        Match::<TwinGrids>::replay(&record, &resources).context("the record does not replay")?;
    let g = m.state();
    if a.json {
        println!(
            "{}",
            json!({"opening": g.opening(), "turns": g.log(), "scores": g.scores(), "seat_of": g.seat_of(), "outcome": g.outcome()})
        );
        return Ok(ExitCode::SUCCESS);
    }
    for (i, t) in g.log().iter().enumerate() {
        println!("{:>3}. {}", i + 1, turn_line(t));
    }
    println!(
        "scores: player 1 {}, player 2 {}",
        g.scores()[0],
        g.scores()[1]
    );
    Ok(ExitCode::SUCCESS)
}

fn show(g: &TwinGrids, name: &dyn Fn(usize) -> String, out: &mut dyn Write) -> Result<()> {
    let w = g.rules().width;
    let rows = g.rules().turns;
    writeln!(out)?;
    writeln!(
        out,
        "  {:<w$}   {:<w$}",
        format!("{} ({})", "P1", g.scores()[0]),
        format!("{} ({})", "P2", g.scores()[1]),
        w = w + 2
    )?;
    for r in 0..rows {
        let cell = |role: usize| -> String {
            match g.grids()[role].cells().get(r) {
                Some(row) => row
                    .iter()
                    .map(|c| c.map_or('.', |b| (b as char).to_ascii_uppercase()))
                    .collect(),
                None => ".".repeat(w),
            }
        };
        writeln!(out, "  {:<w$}   {:<w$}", cell(0), cell(1), w = w + 2)?;
    }
    writeln!(
        out,
        "  player 1: {}, player 2: {}",
        name(g.seat_of()[0]),
        name(g.seat_of()[1])
    )?;
    Ok(())
}

fn play(a: PlayArgs) -> Result<ExitCode> {
    let level: Option<Level> = match a.bot.as_str() {
        "none" => None,
        s => Some(s.parse().map_err(anyhow::Error::msg)?),
    };
    if !(1..=2).contains(&a.seat) {
        bail!("--seat {}: 1 or 2", a.seat);
    }
    let (resources, lexicon) = a.dict.resources()?;
    let config = Config {
        width: a.width,
        turns: a.turns,
        anagram_bonus: a.anagram_bonus,
        challenges: !a.no_challenges,
        vertical: a.vertical,
        lexicon,
        ..Config::default()
    };
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let mut m: Match<TwinGrids> = Match::new(config.clone(), seed, &resources)?;
    let human = a.seat - 1;
    let mut agents: Vec<Option<Box<dyn DynAgent>>> = vec![None, None];
    if let Some(level) = level {
        let bot = Seat(1 - human);
        agents[bot.0] = Some(m.agent(bot, level, seed ^ 1, &resources)?);
    }
    let mut screen = Screen {
        human: level.is_some().then_some(human),
        printed: 0,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    host::play_at_terminal(
        &mut m,
        agents,
        &mut screen,
        &mut out,
        &host::Options {
            budget: Budget::time(std::time::Duration::from_secs(2)),
            record: a.record.clone(),
        },
    )
}

/// Twin Grids at the terminal: the two grids side by side, the turns as
/// they are written, words typed with their column.
pub struct Screen {
    /// The person's seat, against the computer.
    pub(crate) human: Option<usize>,
    /// Entries of the game's log printed so far.
    pub(crate) printed: usize,
}

impl Screen {
    fn who(&self, s: usize) -> String {
        match self.human {
            None => format!("seat {}", s + 1),
            Some(h) if h == s => "you".into(),
            Some(_) => "the computer".into(),
        }
    }

    /// Prints the log's new entries.
    fn catch_up(&mut self, g: &TwinGrids, out: &mut dyn Write) -> Result<bool> {
        let new = &g.log()[self.printed.min(g.log().len())..];
        for t in new {
            writeln!(out, "  {}", turn_line(t))?;
        }
        self.printed = g.log().len();
        Ok(!new.is_empty())
    }
}

impl host::Screen for Screen {
    fn name(&self, _: &At<'_>, seat: Seat) -> String {
        self.who(seat.0)
    }

    fn intro(&mut self, at: &At<'_>, out: &mut dyn Write) -> Result<()> {
        let g = at.typed::<TwinGrids>().state();
        writeln!(
            out,
            "Twin Grids: {} wide, {} turns each. The opening word: {}.",
            g.rules().width,
            g.rules().turns,
            g.opening().to_uppercase()
        )?;
        writeln!(out, "Type: WORD COLUMN (cat 3), /challenge, /quit. Player 1 opens with COLUMN POINTS TO (3 5 2: column 3, 5 points to player 2); player 2 answers the pie with /stay or /swap.")?;
        Ok(())
    }

    fn turn(&mut self, at: &At<'_>, _: Seat, person: bool, out: &mut dyn Write) -> Result<bool> {
        let g = at.typed::<TwinGrids>().state();
        let printed = self.catch_up(g, out)?;
        if person {
            show(g, &|s| self.who(s), out)?;
        }
        Ok(printed || person)
    }

    fn prompt(&self, at: &At<'_>, seat: Seat) -> String {
        let g = at.typed::<TwinGrids>().state();
        let view = g.view(Viewer::Seat(seat));
        format!(
            "{} (player {}, {})> ",
            self.who(seat.0),
            g.role_of(seat.0) + 1,
            view.phase
        )
    }

    fn read(&mut self, at: &At<'_>, seat: Seat, line: &str) -> Typed {
        let view = at.typed::<TwinGrids>().state().view(Viewer::Seat(seat));
        match read(line, view.phase) {
            Ok(Some(a)) => Typed::act(seat, &a),
            Ok(None) => Typed::Quit,
            Err(e) => Typed::SayAndShow(e.to_string()),
        }
    }

    fn events(&mut self, _: &At<'_>, _: Actor, _: usize, _: &mut dyn Write) -> Result<bool> {
        // The turns are printed from the log when the next one starts.
        Ok(false)
    }

    /// The table again after a refusal, as before every move.
    fn redraws_after_refusal(&self) -> bool {
        true
    }

    fn end(&mut self, at: &At<'_>, how: End, out: &mut dyn Write) -> Result<()> {
        if how != End::Over {
            return Ok(());
        }
        let g = at.typed::<TwinGrids>().state();
        self.catch_up(g, out)?;
        show(g, &|s| self.who(s), out)?;
        if let Some(o) = g.outcome() {
            let scores = o.scores.clone().unwrap_or_default();
            writeln!(
                out,
                "Game over: {} {}, {} {}.",
                self.who(0),
                scores.first().copied().unwrap_or(0),
                self.who(1),
                scores.get(1).copied().unwrap_or(0)
            )?;
        }
        Ok(())
    }
}

fn read(line: &str, phase: &str) -> Result<Option<Action>> {
    let parts: Vec<&str> = line.split_whitespace().collect();
    let num = |s: &str, what: &str| -> Result<usize> {
        s.parse::<usize>()
            .with_context(|| format!("{s:?} is not a {what}"))
    };
    Ok(Some(match (phase, parts.as_slice()) {
        (_, ["/quit"]) => return Ok(None),
        (_, ["/challenge"]) => Action::Challenge,
        ("last_challenge", ["/accept"]) => Action::Accept,
        ("pie", ["/stay"]) => Action::Pie { swap: false },
        ("pie", ["/swap"]) => Action::Pie { swap: true },
        ("open", [c, p, to]) => {
            let column = num(c, "column")?;
            let to = num(to, "player (1 or 2)")?;
            if column == 0 || !(1..=2).contains(&to) {
                bail!("open with COLUMN POINTS TO: a column from 1, points, player 1 or 2");
            }
            Action::Open {
                column: column - 1,
                points: num(p, "number of points")? as u32,
                to: to - 1,
            }
        }
        ("turn", [w, c]) => {
            let column = num(c, "column")?;
            if column == 0 {
                bail!("columns count from 1");
            }
            Action::Play {
                word: w.to_string(),
                column: column - 1,
            }
        }
        ("open", _) => bail!("open with COLUMN POINTS TO (3 5 2: column 3, 5 points to player 2)"),
        ("pie", _) => bail!("/stay (remain player 2) or /swap (become player 1)"),
        ("last_challenge", _) => bail!("/challenge or /accept the last word"),
        _ => bail!("WORD COLUMN (cat 3), /challenge or /quit"),
    }))
}
