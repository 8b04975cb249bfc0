//! `parlor wordsprout play`: hot-seat humans and computer players at one
//! terminal, game records saved and replayed.
//!
//! Input is read line by line from stdin, so a game can be driven by a pipe.
//! Every line is answered; a line that is not understood, or a play the
//! rules refuse, gets one explanatory line and changes nothing.

mod input;
mod render;
mod replay;

use crate::host::{self, At, End, Typed};
use anyhow::{bail, Context, Result};
use input::{help, parse, split_actor, Input};
use parlor_core::{
    events_seen_by, ActionError, Actor, Budget, DynAgent, DynMatch, Game, Level, Match, Seat,
    Viewer,
};
use parlor_wordsprout::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_wordsprout::{Action, Config, Phase, WordSprout};
use render::{hint, print_events, rules_line, scores_line, show};
use replay::replay;
use serde::Deserialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `parlor wordsprout play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    rules: super::RuleArgs,
    /// Seats at the table (2 to 10).
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// How many of the seats are computer players (the last ones).
    #[arg(long, default_value_t = 1)]
    bots: usize,
    /// Strength of the computer players: easy, medium, hard or best.
    #[arg(long, default_value = "medium")]
    level: Level,
    /// Rounds in the match (default 1; 3 with metamorphism or persistent collections).
    #[arg(long)]
    rounds: Option<u32>,
    /// Teams, by player number: `1,3/2,4` (turns the teams rule on).
    #[arg(long, value_name = "TEAMS")]
    teams: Option<String>,
    /// The tile pot with --rule tiles, as letters with counts: `a9 b2 c2 ...`.
    #[arg(long, value_name = "POT")]
    pot: Option<Pot>,
    /// The vowels (default `aeiou`).
    #[arg(long, value_name = "LETTERS")]
    vowels: Option<String>,
    /// Allow the `hint` command (lists valid plays).
    #[arg(long)]
    hints: bool,
    /// Save the game record (JSON) to FILE when the game ends or you quit.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Replay and verify a saved record step by step instead of playing.
    #[arg(long, value_name = "FILE", conflicts_with = "save")]
    replay: Option<PathBuf>,
    /// Seed of the game and of the computer players (random when unset).
    #[arg(long)]
    seed: Option<u64>,
}

/// A random seed from the standard library's per-process random keys.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x5eed);
    h.finish()
}

/// Runs the command.
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    if let Some(path) = &args.replay {
        return replay(&args, path);
    }
    let (resources, lexicon) = args.rules.dict.resources()?;
    let mut rules = args.rules.rule_set(RuleSet::default())?;
    let teams = match &args.teams {
        Some(t) => {
            rules.set(Rule::Teams, true);
            parse_teams(t)?
        }
        None => Vec::new(),
    };
    let config = Config {
        players: args.players,
        lexicon,
        rules,
        pot: args.pot.unwrap_or_default(),
        vowels: match &args.vowels {
            Some(v) => Vowels::try_from(v.clone()).map_err(anyhow::Error::msg)?,
            None => Vowels::default(),
        },
        teams,
        rounds: args.rounds,
        hints: args.hints,
    };
    if args.bots > args.players {
        bail!(
            "--bots {} is more than --players {}",
            args.bots,
            args.players
        );
    }
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut m = Match::<WordSprout>::new(config.clone(), seed, &resources)?;
    let humans = args.players - args.bots;
    let mut agents: Vec<Option<Box<dyn DynAgent>>> = Vec::new();
    for s in 0..args.players {
        agents.push(if s >= humans {
            Some(m.agent(
                Seat(s),
                args.level,
                seed.wrapping_add(s as u64 + 1),
                &resources,
            )?)
        } else {
            None
        });
    }
    let names: Vec<String> = (0..args.players)
        .map(|s| {
            if s >= humans {
                format!("player {} (computer)", s + 1)
            } else {
                format!("player {}", s + 1)
            }
        })
        .collect();
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(
        out,
        "Word Sprout: {} players ({} computer, {}), word list {}, seed {seed}",
        args.players, args.bots, args.level, config.lexicon
    )?;
    writeln!(out, "Rules: {}", rules_line(&config.rules))?;
    writeln!(out, "Type `help` for the commands.")?;
    let mut screen = Screen {
        names,
        hints: args.hints,
    };
    host::play_at_terminal(
        &mut m,
        agents,
        &mut screen,
        &mut out,
        &host::Options {
            budget: Budget::nodes(200_000),
            record: args.save.clone(),
        },
    )
}

/// Word Sprout at the terminal: the strings and the letters as the seat to
/// act sees them; a line may start with another seat's number to act for
/// it out of turn (`2 call`).
pub(crate) struct Screen {
    pub(crate) names: Vec<String>,
    pub(crate) hints: bool,
}

impl host::Screen for Screen {
    fn name(&self, _: &At<'_>, seat: Seat) -> String {
        self.names[seat.0].clone()
    }

    fn intro(&mut self, _: &At<'_>, _: &mut dyn Write) -> Result<()> {
        Ok(())
    }

    fn turn(
        &mut self,
        at: &At<'_>,
        seat: Seat,
        person: bool,
        mut out: &mut dyn Write,
    ) -> Result<bool> {
        if !person {
            return Ok(false);
        }
        let view = at.typed::<WordSprout>().state().view(Viewer::Seat(seat));
        show(&view, seat, &self.names, &mut out)?;
        Ok(true)
    }

    fn read(&mut self, at: &At<'_>, seat: Seat, line: &str) -> Typed {
        let state = at.typed::<WordSprout>().state();
        let (actor, text) = split_actor(line, self.names.len());
        let actor = actor.unwrap_or(seat);
        let view = state.view(Viewer::Seat(actor));
        let mut said = Vec::new();
        let written = match parse(text, &view, actor == seat) {
            Input::Empty => return Typed::Show,
            Input::Quit => return Typed::Quit,
            Input::Bad(msg) => return Typed::Say(msg),
            Input::Act(action) => return Typed::act(actor, &action),
            Input::Help => help(&view, &mut said),
            Input::Hint if self.hints => hint(state, &mut said),
            Input::Hint => {
                return Typed::Say(
                    "Hints are off: start the game with --hints to allow them.".into(),
                )
            }
            Input::Rules => {
                let mut text = format!("Rules on: {}", rules_line(&view.rules));
                if matches!(view.phase, Phase::ChoosingRule { .. }) {
                    let names: Vec<&str> =
                        state.switchable_rules().iter().map(|r| r.name()).collect();
                    text.push_str(&format!("\nSwitchable: {}", names.join(", ")));
                }
                return Typed::Say(text);
            }
        };
        match written {
            Ok(()) => Typed::Say(
                String::from_utf8_lossy(&said)
                    .trim_end_matches('\n')
                    .to_string(),
            ),
            Err(e) => Typed::Say(e.to_string()),
        }
    }

    fn events(
        &mut self,
        at: &At<'_>,
        _: Actor,
        from: usize,
        mut out: &mut dyn Write,
    ) -> Result<bool> {
        let m = at.typed::<WordSprout>();
        for step in m.history().get(from..).unwrap_or_default() {
            print_events(
                &events_seen_by::<WordSprout>(step, Viewer::Spectator),
                &self.names,
                &mut out,
            )?;
        }
        Ok(true)
    }

    fn refused(
        &mut self,
        _: &At<'_>,
        _: Seat,
        e: &ActionError,
        out: &mut dyn Write,
    ) -> Result<bool> {
        writeln!(out, "Not accepted: {e}.")?;
        Ok(false)
    }

    fn fallback(&self, _: &At<'_>, _: Seat) -> Vec<serde_json::Value> {
        serde_json::to_value(Action::Concede).into_iter().collect()
    }

    /// Computer players who are not to act may call an out-of-turn play
    /// or make an open challenge.
    fn out_of_turn(&self, at: &At<'_>, seat: Seat) -> bool {
        let state = at.typed::<WordSprout>().state();
        *state.phase() == Phase::Playing
            && state.is_active(seat)
            && state.view(Viewer::Seat(seat)).last_play.is_some()
    }

    fn out_of_turn_action(&self, action: &serde_json::Value) -> bool {
        matches!(
            Action::deserialize(action),
            Ok(Action::Call | Action::Challenge)
        )
    }

    fn end(&mut self, at: &At<'_>, how: End, out: &mut dyn Write) -> Result<()> {
        match how {
            End::Quit => writeln!(out, "Stopped.")?,
            End::InputEnded => writeln!(out, "End of input: the game stops here.")?,
            End::Over => {
                let Some(o) = at.typed::<WordSprout>().state().outcome() else {
                    return Ok(());
                };
                let winners: Vec<String> = o
                    .winners()
                    .iter()
                    .map(|s| self.names[s.0].clone())
                    .collect();
                writeln!(
                    out,
                    "Game over: {} win{}.",
                    winners.join(" and "),
                    if winners.len() == 1 { "s" } else { "" }
                )?;
                if let Some(scores) = &o.scores {
                    writeln!(out, "Rounds won: {}", scores_line(scores))?;
                }
            }
        }
        Ok(())
    }
}

fn parse_teams(s: &str) -> Result<Vec<Vec<usize>>> {
    let mut teams = Vec::new();
    for part in s.split('/') {
        let mut team = Vec::new();
        for n in part.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let n: usize = n.parse().ok().filter(|&n| n >= 1).with_context(|| {
                format!("bad --teams {s:?}: player numbers from 1, like 1,3/2,4")
            })?;
            team.push(n - 1);
        }
        teams.push(team);
    }
    Ok(teams)
}
