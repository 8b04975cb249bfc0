//! `parlor games` and `parlor replay FILE`: commands over every registered
//! game at once, through the type-erased registry.

use crate::dict::DictArgs;
use anyhow::{Context, Result};
use parlor_core::{Seat, ToAct, Viewer};
use std::path::PathBuf;
use std::process::ExitCode;

/// `parlor games`.
#[derive(clap::Args)]
pub struct GamesArgs {
    /// Print JSON: name, title, seats and default rules of each game.
    #[arg(long)]
    json: bool,
}

/// Lists the registered games.
pub fn games(args: GamesArgs) -> Result<ExitCode> {
    let registry = crate::games::registry();
    let mut list = Vec::new();
    for name in registry.names() {
        let entry = registry.get(name)?;
        let info = entry.info();
        if args.json {
            list.push(serde_json::json!({
                "name": info.name,
                "title": info.title,
                "min_seats": info.min_seats,
                "max_seats": info.max_seats,
                "default_config": entry.default_config(),
            }));
        } else {
            println!(
                "{:<12} {:<12} {}-{} players",
                info.name, info.title, info.min_seats, info.max_seats
            );
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&list)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// `parlor replay FILE`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A game record (JSON) of any game, as saved by `play --save` or the server.
    file: PathBuf,
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON: game, actions, who is to act, outcome, the final view
    /// and every action's events, as the viewer `--as` sees them.
    #[arg(long)]
    json: bool,
    /// Whose eyes to see the game through: `spectator` (the default) or a
    /// player number from 1; a player sees their own hidden hand and
    /// private events, nobody else's.
    #[arg(long = "as", value_name = "VIEWER", default_value = "spectator", value_parser = parse_viewer)]
    viewer: Viewer,
}

fn parse_viewer(text: &str) -> Result<Viewer, String> {
    if text.eq_ignore_ascii_case("spectator") {
        return Ok(Viewer::Spectator);
    }
    match text.parse::<usize>() {
        Ok(n) if (1..=64).contains(&n) => Ok(Viewer::Seat(Seat(n - 1))),
        _ => Err(format!(
            "{text:?} is not a viewer: write spectator or a player number from 1"
        )),
    }
}

/// Replays a record of any game, checking every action against the rules.
pub fn replay(args: ReplayArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read record {}", args.file.display()))?;
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        // A Sprouts record in WGOSA notation (`2+ 1(3)2 ...`) rather than JSON.
        Err(_) if parlor_sprouts::Record::parse(&text).is_ok() => {
            crate::sprouts::print_replay(&text, args.json)
                .with_context(|| format!("{} does not replay", args.file.display()))?;
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => {
            return Err(anyhow::Error::new(e).context(format!(
                "{} is not a JSON game record (nor a Sprouts record in WGOSA notation)",
                args.file.display()
            )))
        }
    };
    let resources = match (&args.dict.dict, &args.dict.lexicon) {
        (None, None) => parlor_core::Resources::embedded(),
        _ => args.dict.resources()?.0,
    };
    let m = crate::games::registry()
        .replay(&value, &resources)
        .with_context(|| format!("{} does not replay", args.file.display()))?;
    let info = m.info();
    let outcome = m.outcome();
    if let Viewer::Seat(seat) = args.viewer {
        anyhow::ensure!(
            seat.0 < m.seats(),
            "--as {}: this game has {} players",
            seat.0 + 1,
            m.seats()
        );
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "game": info.name,
                "seats": m.seats(),
                "actions": m.actions_len(),
                "to_act": m.to_act(),
                "outcome": outcome,
                "view": m.view_json(args.viewer),
                "events": m.history_json(args.viewer, 0),
            }))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: {} players, {} actions, every one legal.",
        info.title,
        m.seats(),
        m.actions_len()
    );
    match (m.to_act(), outcome) {
        (ToAct::Over, Some(o)) => {
            let places: Vec<String> = o
                .ranking
                .iter()
                .map(|place| {
                    place
                        .iter()
                        .map(|s: &Seat| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" = ")
                })
                .collect();
            println!("Finished: {}", places.join(", then "));
            if let Some(scores) = o.scores {
                let s: Vec<String> = scores
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("{}: {p}", Seat(i)))
                    .collect();
                println!("Scores: {}", s.join(", "));
            }
        }
        (to_act, _) => println!("Not finished; to act: {to_act:?}"),
    }
    Ok(ExitCode::SUCCESS)
}
