//! `parlor wordsprout play`: hot-seat humans and computer players at one
//! terminal, game records saved and replayed.
//!
//! Input is read line by line from stdin, so a game can be driven by a pipe.
//! Every line is answered; a line that is not understood, or a play the
//! rules refuse, gets one explanatory line and changes nothing.

mod input;
mod render;
mod replay;

use anyhow::{bail, Context, Result};
use input::{help, parse, split_actor, Input};
use parlor_core::{
    events_seen_by, Actor, Agent, AgentContext, Budget, Game, Level, Match, Seat, ToAct, Viewer,
};
use parlor_wordsprout::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_wordsprout::{Action, Config, Event, Phase, WordSprout};
use render::{hint, print_events, rules_line, scores_line, show};
use replay::replay;
use std::io::{BufRead, Write};
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
    let mut bots: Vec<Option<Box<dyn Agent<WordSprout>>>> = Vec::new();
    for s in 0..args.players {
        bots.push(if s >= humans {
            Some(WordSprout::agent(
                &config,
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
    let stdin = std::io::stdin();
    // Bytes, not UTF-8 lines: a stray byte is a line not understood,
    // answered like any other, never the end of the game.
    let mut lines = stdin.lock().split(b'\n').map(|r| {
        r.map(|b| {
            String::from_utf8_lossy(&b)
                .trim_end_matches('\r')
                .to_string()
        })
    });
    let mut shown_for: Option<(usize, ToAct)> = None;
    let budget = Budget::nodes(200_000);
    loop {
        if m.state().to_act() == ToAct::Over {
            let o = m.state().outcome().expect("a finished game has an outcome");
            let winners: Vec<String> = o.winners().iter().map(|s| names[s.0].clone()).collect();
            writeln!(
                out,
                "Game over: {} win{}.",
                winners.join(" and "),
                if winners.len() == 1 { "s" } else { "" }
            )?;
            if let Some(scores) = &o.scores {
                writeln!(out, "Rounds won: {}", scores_line(scores))?;
            }
            save(&args, &m, &mut out)?;
            return Ok(ExitCode::SUCCESS);
        }
        // Computer players who are not to act may call an out-of-turn play
        // or make an open challenge first.
        if let Some(done) = bystander_bots(&mut m, &mut bots, &names, budget.clone(), &mut out)? {
            if done {
                continue;
            }
        }
        let ToAct::One(seat) = m.state().to_act() else {
            unreachable!("Word Sprout has no chance or simultaneous phase")
        };
        if let Some(agent) = bots[seat.0].as_mut() {
            let view = m.state().view(Viewer::Seat(seat));
            let legal = m.state().legal_actions(seat);
            let ctx = AgentContext::<WordSprout> {
                seat,
                view: &view,
                legal: legal.as_deref(),
                budget: budget.clone(),
            };
            let action = agent.choose(&ctx).unwrap_or(Action::Concede);
            match m.apply(Actor::Seat(seat), action.clone()) {
                Ok(events) => announce(&events, &mut bots, &names, &mut out)?,
                Err(e) => {
                    // A bot should never be refused; concede rather than loop.
                    writeln!(
                        out,
                        "{} tried {action:?} and was refused ({e}); it concedes",
                        names[seat.0]
                    )?;
                    let events = m
                        .apply(Actor::Seat(seat), Action::Concede)
                        .map_err(anyhow::Error::msg)?;
                    announce(&events, &mut bots, &names, &mut out)?;
                }
            }
            continue;
        }
        let key = (m.record().actions.len(), m.state().to_act());
        if shown_for.as_ref() != Some(&key) {
            show(&m.state().view(Viewer::Seat(seat)), seat, &names, &mut out)?;
            shown_for = Some(key);
        }
        write!(out, "{}> ", names[seat.0])?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            writeln!(out, "End of input: the game stops here.")?;
            save(&args, &m, &mut out)?;
            return Ok(ExitCode::SUCCESS);
        };
        let line = line.context("cannot read the terminal")?;
        let (actor, text) = split_actor(&line, args.players);
        let actor = actor.unwrap_or(seat);
        let view = m.state().view(Viewer::Seat(actor));
        match parse(text, &view, actor == seat) {
            Input::Empty => shown_for = None,
            Input::Help => help(&view, &mut out)?,
            Input::Quit => {
                writeln!(out, "Stopped.")?;
                save(&args, &m, &mut out)?;
                return Ok(ExitCode::SUCCESS);
            }
            Input::Hint => {
                if args.hints {
                    hint(m.state(), &mut out)?;
                } else {
                    writeln!(
                        out,
                        "Hints are off: start the game with --hints to allow them."
                    )?;
                }
            }
            Input::Rules => {
                writeln!(out, "Rules on: {}", rules_line(&view.rules))?;
                if matches!(view.phase, Phase::ChoosingRule { .. }) {
                    let names: Vec<&str> = m
                        .state()
                        .switchable_rules()
                        .iter()
                        .map(|r| r.name())
                        .collect();
                    writeln!(out, "Switchable: {}", names.join(", "))?;
                }
            }
            Input::Bad(msg) => writeln!(out, "{msg}")?,
            Input::Act(action) => match m.apply(Actor::Seat(actor), action) {
                Ok(events) => announce(&events, &mut bots, &names, &mut out)?,
                Err(e) => writeln!(out, "Not accepted: {e}.")?,
            },
        }
    }
}

/// Lets computer players who are not to act call or open-challenge.
/// `Some(true)` when one of them acted.
fn bystander_bots(
    m: &mut Match<WordSprout>,
    bots: &mut [Option<Box<dyn Agent<WordSprout>>>],
    names: &[String],
    budget: Budget,
    out: &mut impl Write,
) -> Result<Option<bool>> {
    if *m.state().phase() != Phase::Playing {
        return Ok(None);
    }
    let to_act = m.state().to_act();
    let mut call = None;
    for (s, slot) in bots.iter_mut().enumerate() {
        let seat = Seat(s);
        if to_act.includes(seat) || !m.state().is_active(seat) {
            continue;
        }
        let Some(agent) = slot.as_mut() else {
            continue;
        };
        let view = m.state().view(Viewer::Seat(seat));
        if view.last_play.is_none() {
            continue;
        }
        let legal = m.state().legal_actions(seat);
        let ctx = AgentContext::<WordSprout> {
            seat,
            view: &view,
            legal: legal.as_deref(),
            budget: budget.clone(),
        };
        if let Some(action) = agent.choose(&ctx) {
            if matches!(action, Action::Call | Action::Challenge) {
                call = Some((seat, action));
                break;
            }
        }
    }
    if let Some((seat, action)) = call {
        if let Ok(events) = m.apply(Actor::Seat(seat), action) {
            announce(&events, bots, names, out)?;
            return Ok(Some(true));
        }
    }
    Ok(Some(false))
}

fn save(args: &PlayArgs, m: &Match<WordSprout>, out: &mut impl Write) -> Result<()> {
    if let Some(path) = &args.save {
        std::fs::write(path, m.record().to_json())
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
        writeln!(
            out,
            "Record saved to {} ({} actions).",
            path.display(),
            m.record().actions.len()
        )?;
    }
    Ok(())
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

/// After an accepted action: each computer player is shown what its seat
/// sees of the events (it may remember them), and the terminal prints what
/// everyone at the table may see.
fn announce(
    events: &[Event],
    bots: &mut [Option<Box<dyn Agent<WordSprout>>>],
    names: &[String],
    out: &mut impl Write,
) -> Result<()> {
    for (s, bot) in bots.iter_mut().enumerate() {
        if let Some(bot) = bot {
            bot.observe(
                Seat(s),
                &events_seen_by::<WordSprout>(events, Viewer::Seat(Seat(s))),
            );
        }
    }
    print_events(
        &events_seen_by::<WordSprout>(events, Viewer::Spectator),
        names,
        out,
    )
}
