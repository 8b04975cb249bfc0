//! `parlor sprouts play`: a game of Sprouts at the terminal, against the
//! computer or between two people taking turns at one keyboard.
//!
//! The position is shown region by region (the card notation's rows), each
//! boundary as the walk of its spots, with the lives every live spot has
//! left; moves are typed in WGOSA form (`1(4)2`, `1(5)1[3]`) or by their
//! number in the list of legal moves. The record is printed at the end.

use anyhow::{bail, Result};
use parlor_core::{
    Actor, AgentContext, Budget, Game, Level, Match, Resources, Seat, ToAct, Viewer,
};
use parlor_sprouts::{Action, Config, Position, Sprouts};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

/// `parlor sprouts play` options.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// Starting spots (1 to 32).
    #[arg(long, default_value_t = 3)]
    spots: u32,
    /// Misère play: whoever makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// The computer's level: easy, medium, hard or best; `none` for two
    /// players at this terminal.
    #[arg(long, default_value = "best")]
    bot: String,
    /// Who moves first: 1 (you) or 2 (the computer, or the second player).
    #[arg(long, default_value_t = 1)]
    first: u8,
    /// Seed of the computer's choices (random when left out).
    #[arg(long)]
    seed: Option<u64>,
    /// How long the computer may think per move, in seconds.
    #[arg(long, default_value_t = 5.0)]
    think: f64,
}

/// The longest line read as a move: the longest WGOSA move of a 32-spot
/// game is far shorter; anything longer is refused unread.
const MAX_LINE: usize = 512;

/// Plays a game at the terminal.
pub fn run(a: PlayArgs) -> Result<ExitCode> {
    if !(1..=parlor_sprouts::game::MAX_SPOTS).contains(&a.spots) {
        bail!(
            "--spots {}: a game starts with 1 to {} spots",
            a.spots,
            parlor_sprouts::game::MAX_SPOTS
        );
    }
    if !matches!(a.first, 1 | 2) {
        bail!(
            "--first {}: 1 (you move first) or 2 (the other side does)",
            a.first
        );
    }
    if !(a.think.is_finite() && a.think > 0.0 && a.think <= 600.0) {
        bail!(
            "--think {}: seconds per move, more than 0 and at most 600",
            a.think
        );
    }
    let level: Option<Level> = match a.bot.as_str() {
        "none" => None,
        s => Some(s.parse().map_err(anyhow::Error::msg)?),
    };
    let config = Config {
        spots: a.spots,
        misere: a.misere,
        ..Config::default()
    };
    let resources = Resources::embedded();
    let seed = a.seed.unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        nanos ^ u64::from(std::process::id()).rotate_left(32)
    });
    let mut game: Match<Sprouts> = Match::new(config.clone(), seed, &resources)?;
    // Seat 0 moves first; the person takes the seat `--first` names.
    let human = Seat(usize::from(a.first - 1));
    let mut bot = match level {
        Some(level) => Some(Sprouts::agent(&config, level, seed, &resources)?),
        None => None,
    };
    let name = |seat: Seat| -> String {
        match (level, seat == human) {
            (None, _) => format!("Player {}", seat.0 + 1),
            (Some(_), true) => "You".to_string(),
            (Some(_), false) => "The computer".to_string(),
        }
    };
    println!(
        "Sprouts, {} spot{}, {} play: {}.",
        a.spots,
        if a.spots == 1 { "" } else { "s" },
        if a.misere { "misère" } else { "normal" },
        if a.misere {
            "whoever makes the last move loses"
        } else {
            "whoever makes the last move wins"
        }
    );
    println!(
        "Type a move in WGOSA form (1(4)2, 3(5)3[1,2]) or its number in the list; \
         /moves lists them again, /resign gives up, /quit leaves."
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    let mut listed = true;
    while let ToAct::One(seat) = game.state().to_act() {
        let moves = game.state().moves_with_text();
        if listed {
            show(game.state().position(), seat, &name(seat));
        }
        let human_turn = level.is_none() || seat == human;
        if !human_turn {
            let Some(agent) = bot.as_mut() else { break };
            let view = game.state().view(Viewer::Seat(seat));
            let legal: Vec<Action> = moves.iter().map(|(m, _)| m.clone()).collect();
            let ctx = AgentContext {
                seat,
                view: &view,
                legal: Some(&legal),
                budget: Budget::time(Duration::from_secs_f64(a.think)),
            };
            let Some(action) = agent.choose(&ctx) else {
                bail!("the computer found no move in a position that has some");
            };
            let events = game.apply(Actor::Seat(seat), action.clone())?;
            agent.observe(seat, &events);
            println!("{} played {}.", name(seat), action.text());
            listed = true;
            continue;
        }
        if listed {
            println!("Legal moves (one per class of equivalent results):");
            for (i, (m, p)) in moves.iter().enumerate() {
                println!("  {:>3}. {:<16} {}", i + 1, m.text(), p);
            }
        }
        print!("{}> ", name(seat));
        std::io::stdout().flush()?;
        let line = match read_line(&mut lines)? {
            Line::Text(l) => l,
            Line::TooLong => {
                println!("That line is over {MAX_LINE} characters: type one move.");
                continue;
            }
            Line::Eof => {
                println!();
                println!("End of input: the game is left unfinished.");
                print_record(&game);
                return Ok(ExitCode::SUCCESS);
            }
        };
        let line = line.trim();
        listed = false;
        let action = match line {
            "" => continue,
            "/quit" | "/q" => {
                println!("Left unfinished.");
                print_record(&game);
                return Ok(ExitCode::SUCCESS);
            }
            "/moves" | "/m" => {
                listed = true;
                continue;
            }
            "/help" | "/h" | "?" => {
                println!(
                    "A move: f(g)h draws a line from spot f to spot h with the new spot g on \
                     it; [L] lists the spots a closed curve puts on one side, @i names the \
                     region holding live spot i, ! flips a side (see docs/rules/sprouts.md). \
                     Or type the move's number. /moves, /resign, /quit."
                );
                continue;
            }
            "/resign" => Action::new("resign"),
            l if l.starts_with('/') => {
                println!("Unknown command {l:?}: /moves, /resign, /quit or /help.");
                continue;
            }
            l => match l.parse::<usize>() {
                Ok(n) if (1..=moves.len()).contains(&n) => moves[n - 1].0.clone(),
                Ok(n) => {
                    println!(
                        "There is no move {n}: the list runs from 1 to {}.",
                        moves.len()
                    );
                    continue;
                }
                Err(_) => Action::new(l),
            },
        };
        match game.apply(Actor::Seat(seat), action.clone()) {
            Ok(events) => {
                if let Some(agent) = bot.as_mut() {
                    agent.observe(seat, &events);
                }
                listed = true;
            }
            Err(e) => println!("{e}"),
        }
    }
    let over = game.state().view(Viewer::Spectator);
    println!();
    if !game.state().position().has_move() {
        println!(
            "Final position {} (no move is left)",
            game.state().position()
        );
    } else {
        println!(
            "Final position {} (ended by resignation)",
            game.state().position()
        );
    }
    match over.winner {
        Some(w) => println!(
            "{} win{}.",
            name(w),
            if name(w) == "You" { "" } else { "s" }
        ),
        None => println!("The game is over."),
    }
    print_record(&game);
    Ok(ExitCode::SUCCESS)
}

/// A line of input as read.
enum Line {
    Text(String),
    /// Longer than [`MAX_LINE`]: skipped unread.
    TooLong,
    Eof,
}

/// One line of input, bounded before it is held whole.
fn read_line(input: &mut impl BufRead) -> Result<Line> {
    let mut buf = Vec::new();
    let mut limited = <&mut _ as std::io::Read>::take(&mut *input, MAX_LINE as u64 + 1);
    let n = limited.read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(Line::Eof);
    }
    if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
        // Skip the rest of the over-long line, a chunk at a time.
        loop {
            let chunk = input.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    input.consume(i + 1);
                    break;
                }
                None => {
                    let len = chunk.len();
                    input.consume(len);
                }
            }
        }
        return Ok(Line::TooLong);
    }
    Ok(Line::Text(
        String::from_utf8_lossy(&buf).trim_end().to_string(),
    ))
}

/// The position region by region: each boundary as the walk of its spots,
/// then the live spots with their lives.
fn show(p: &Position, seat: Seat, who: &str) {
    println!();
    println!(
        "Position {p}   ({} lives left; {who} to move, player {})",
        p.total_lives(),
        seat.0 + 1
    );
    for (i, row) in p.to_string().split('/').enumerate() {
        let boundaries: Vec<String> = row
            .split(';')
            .map(|stack| format!("[{}]", stack.replace(',', " ")))
            .collect();
        println!("  region {:>2}: {}", i + 1, boundaries.join("  "));
    }
}

fn print_record(game: &Match<Sprouts>) {
    let view = game.state().view(Viewer::Spectator);
    println!("Record: {}", view.record);
}
