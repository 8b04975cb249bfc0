//! `parlor sprouts play`: a game of Sprouts at the terminal, against the
//! computer or between two people taking turns at one keyboard.
//!
//! The position is shown region by region (the card notation's rows), each
//! boundary as the walk of its spots, with the lives every live spot has
//! left; moves are typed in WGOSA form (`1(4)2`, `1(5)1[3]`) or by their
//! number in the list of legal moves. The record is printed at the end.

use crate::host::{self, At, End, Typed};
use anyhow::{bail, Result};
use parlor_core::{Actor, Budget, DynAgent, DynMatch, Game, Level, Match, Resources, Seat, Viewer};
use parlor_sprouts::{Action, Config, Position, Sprouts};
use std::io::Write;
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
    let mut agents: Vec<Option<Box<dyn DynAgent>>> = vec![None, None];
    if let Some(level) = level {
        let bot = Seat(1 - human.0);
        agents[bot.0] = Some(game.agent(bot, level, seed, &resources)?);
    }
    let mut screen = Screen {
        spots: a.spots,
        misere: a.misere,
        against: level.is_some().then_some(human),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    host::play_at_terminal(
        &mut game,
        agents,
        &mut screen,
        &mut out,
        &host::Options {
            budget: Budget::time(Duration::from_secs_f64(a.think)),
            record: None,
        },
    )
}

/// Sprouts at the terminal: the position region by region, moves typed in
/// WGOSA form or by their number in the list.
pub struct Screen {
    pub(crate) spots: u32,
    pub(crate) misere: bool,
    /// The person's seat, against the computer.
    pub(crate) against: Option<Seat>,
}

impl Screen {
    fn who(&self, seat: Seat) -> String {
        match self.against {
            None => format!("Player {}", seat.0 + 1),
            Some(h) if h == seat => "You".to_string(),
            Some(_) => "The computer".to_string(),
        }
    }
}

impl host::Screen for Screen {
    fn name(&self, _: &At<'_>, seat: Seat) -> String {
        self.who(seat)
    }

    fn intro(&mut self, _: &At<'_>, out: &mut dyn Write) -> Result<()> {
        writeln!(
            out,
            "Sprouts, {} spot{}, {} play: {}.",
            self.spots,
            if self.spots == 1 { "" } else { "s" },
            if self.misere { "misère" } else { "normal" },
            if self.misere {
                "whoever makes the last move loses"
            } else {
                "whoever makes the last move wins"
            }
        )?;
        writeln!(
            out,
            "Type a move in WGOSA form (1(4)2, 3(5)3[1,2]) or its number in the list; \
             /moves lists them again, /resign gives up, /quit leaves."
        )?;
        Ok(())
    }

    fn turn(&mut self, at: &At<'_>, seat: Seat, person: bool, out: &mut dyn Write) -> Result<bool> {
        let g = at.typed::<Sprouts>().state();
        show(g.position(), seat, &self.who(seat), out)?;
        if person {
            writeln!(out, "Legal moves (one per class of equivalent results):")?;
            for (i, (m, p)) in g.moves_with_text().iter().enumerate() {
                writeln!(out, "  {:>3}. {:<16} {}", i + 1, m.text(), p)?;
            }
        }
        Ok(true)
    }

    fn read(&mut self, at: &At<'_>, seat: Seat, line: &str) -> Typed {
        let action = match line.trim() {
            "" => return Typed::Nothing,
            "/quit" | "/q" => return Typed::Quit,
            "/moves" | "/m" => return Typed::Show,
            "/help" | "/h" | "?" => {
                return Typed::Say(
                    "A move: f(g)h draws a line from spot f to spot h with the new spot g on \
                     it; [L] lists the spots a closed curve puts on one side, @i names the \
                     region holding live spot i, ! flips a side (see docs/rules/sprouts.md). \
                     Or type the move's number. /moves, /resign, /quit."
                        .into(),
                )
            }
            "/resign" => Action::new("resign"),
            l if l.starts_with('/') => {
                return Typed::Say(format!(
                    "Unknown command {l:?}: /moves, /resign, /quit or /help."
                ))
            }
            l => match l.parse::<usize>() {
                Ok(n) => {
                    let moves = at.typed::<Sprouts>().state().moves_with_text();
                    match moves.get(n.wrapping_sub(1)) {
                        Some((m, _)) => m.clone(),
                        None => {
                            return Typed::Say(format!(
                                "There is no move {n}: the list runs from 1 to {}.",
                                moves.len()
                            ))
                        }
                    }
                }
                Err(_) => Action::new(l),
            },
        };
        Typed::act(seat, &action)
    }

    fn events(
        &mut self,
        at: &At<'_>,
        actor: Actor,
        from: usize,
        out: &mut dyn Write,
    ) -> Result<bool> {
        let m = at.typed::<Sprouts>();
        let Actor::Seat(seat) = actor else {
            return Ok(false);
        };
        if at.people[seat.0] || from == 0 {
            return Ok(false);
        }
        let Some(step) = m.record().actions.get(from - 1) else {
            return Ok(false);
        };
        writeln!(out, "{} played {}.", self.who(seat), step.action.text())?;
        Ok(true)
    }

    fn end(&mut self, at: &At<'_>, how: End, out: &mut dyn Write) -> Result<()> {
        let game = at.typed::<Sprouts>();
        match how {
            End::Quit => writeln!(out, "Left unfinished.")?,
            End::InputEnded => writeln!(out, "End of input: the game is left unfinished.")?,
            End::Over => {
                let over = game.state().view(Viewer::Spectator);
                writeln!(out)?;
                let p = game.state().position();
                if !p.has_move() {
                    writeln!(out, "Final position {p} (no move is left)")?;
                } else {
                    writeln!(out, "Final position {p} (ended by resignation)")?;
                }
                match over.winner {
                    Some(w) => {
                        let name = self.who(w);
                        let s = if name == "You" { "" } else { "s" };
                        writeln!(out, "{name} win{s}.")?
                    }
                    None => writeln!(out, "The game is over.")?,
                }
            }
        }
        let view = game.state().view(Viewer::Spectator);
        writeln!(out, "Record: {}", view.record)?;
        Ok(())
    }
}

/// The position region by region: each boundary as the walk of its spots,
/// then the live spots with their lives.
fn show(p: &Position, seat: Seat, who: &str, out: &mut dyn Write) -> Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "Position {p}   ({} lives left; {who} to move, player {})",
        p.total_lives(),
        seat.0 + 1
    )?;
    for (i, row) in p.to_string().split('/').enumerate() {
        let boundaries: Vec<String> = row
            .split(';')
            .map(|stack| format!("[{}]", stack.replace(',', " ")))
            .collect();
        writeln!(out, "  region {:>2}: {}", i + 1, boundaries.join("  "))?;
    }
    Ok(())
}
