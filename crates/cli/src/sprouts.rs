//! `parlor sprouts ...`: WGOSA game records replayed move by move, and the
//! legal moves of a position, each in its shortest written form.

use anyhow::{Context, Result};
use parlor_sprouts::wgosa::{Record, Winner};
use parlor_sprouts::{describe, successors, Position};
use std::process::ExitCode;

/// Sprouts commands.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Replay a WGOSA game record ("2+ 1(3)2 1(4)2"), checking every move:
    /// every position and who moved.
    Replay(ReplayArgs),
    /// The legal moves of a position in the card notation ("1,3,2,3"), one
    /// per class of equivalent results, each with its WGOSA form.
    Moves(MovesArgs),
    /// Who wins from the start with N spots (or from a position), normal or
    /// misère, with nimbers: `solve --spots 1..11 [--misere] [--nimber]`.
    Solve(crate::sprouts_solve::Args),
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// The record, e.g. "8+ (Ann - Bob*) 1(9)2 1(10)1[3,4] II".
    record: String,
    /// Print JSON: the header, every move with its player and the position after it, the end.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct MovesArgs {
    /// The position: cards `,` stacks `;` rows `/`, e.g. "4,1,3,2/4,2,3,1".
    position: String,
    /// Print JSON: the position and each move with the position it leads to.
    #[arg(long)]
    json: bool,
}

/// Runs a Sprouts command.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.cmd {
        Cmd::Replay(a) => {
            print_replay(&a.record, a.json)?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Moves(a) => moves(a),
        Cmd::Solve(a) => crate::sprouts_solve::run(a),
    }
}

fn numeral(first: bool) -> &'static str {
    if first {
        "I"
    } else {
        "II"
    }
}

/// Replays `text` (a WGOSA record) and prints it, as text or JSON. Also
/// used by `parlor replay FILE` for a file that holds a WGOSA record.
pub fn print_replay(text: &str, json: bool) -> Result<()> {
    let record = Record::parse(text).context("not a Sprouts record")?;
    let replay = record.replay().context("the record does not replay")?;
    let name = |first: bool| -> Option<&str> {
        record.players.as_ref().map(|p| {
            if first {
                p.first.as_str()
            } else {
                p.second.as_str()
            }
        })
    };
    let winner = replay.winner(record.misere);
    let over = winner.is_some();
    let play = if record.misere { "misère" } else { "normal" };
    if json {
        let moves: Vec<serde_json::Value> = record
            .moves
            .iter()
            .enumerate()
            .map(|(k, wm)| {
                let first = k % 2 == 0;
                let before = &replay.positions[k];
                let shortest = describe(before, &replay.moves[k]).map(|w| w.to_string());
                serde_json::json!({
                    "number": k + 1,
                    "player": if first { 1 } else { 2 },
                    "name": name(first),
                    "move": wm.to_string(),
                    "shortest": shortest,
                    "position": replay.positions[k + 1].to_string(),
                })
            })
            .collect();
        let seat = |w: Option<Winner>| w.map(|w| if w == Winner::First { 1 } else { 2 });
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "spots": record.spots,
                "misere": record.misere,
                "players": record.players,
                "start": replay.positions[0].to_string(),
                "moves": moves,
                "over": over,
                "winner": seat(winner),
                "recorded_result": seat(record.result),
                "record": record.to_string(),
            }))?
        );
        return Ok(());
    }
    let who = |first: bool| match name(first) {
        Some(n) => format!("{} ({n})", numeral(first)),
        None => numeral(first).to_string(),
    };
    println!(
        "Sprouts, {} spots, {play} play; {} moved first.",
        record.spots,
        who(true)
    );
    println!("     start            {}", replay.positions[0]);
    let width = record
        .moves
        .iter()
        .map(|m| m.to_string().len())
        .max()
        .unwrap_or(0)
        .max(4);
    for (k, wm) in record.moves.iter().enumerate() {
        println!(
            "{:>4}. {:<2} {:<width$}  {}",
            k + 1,
            numeral(k % 2 == 0),
            wm.to_string(),
            replay.positions[k + 1]
        );
    }
    match winner {
        Some(w) => println!(
            "No move is left: {} wins ({play} play).",
            who(w == Winner::First)
        ),
        None => {
            let next = record.moves.len() % 2 == 0;
            match record.result {
                Some(w) => println!(
                    "Not over ({} to move); the record gives the game to {} (a resignation).",
                    who(next),
                    who(w == Winner::First)
                ),
                None => println!("Not over: {} to move.", who(next)),
            }
        }
    }
    Ok(())
}

/// The most cards `moves` works on: a game from 32 spots never holds more
/// than 381 (127 spots of three cards), and the work grows with the square
/// of the cards.
const MAX_MOVES_CARDS: usize = 400;

fn moves(args: MovesArgs) -> Result<ExitCode> {
    let position = Position::parse(&args.position)?;
    anyhow::ensure!(
        position.cards() <= MAX_MOVES_CARDS,
        "the position has {} cards; moves are listed for at most {MAX_MOVES_CARDS}",
        position.cards()
    );
    let list: Vec<(String, String)> = successors(&position)
        .into_iter()
        .map(|(mv, p, _)| {
            let text = describe(&position, &mv)
                .map(|w| w.to_string())
                .unwrap_or_else(|| format!("={p}"));
            (text, p.to_string())
        })
        .collect();
    if args.json {
        let moves: Vec<serde_json::Value> = list
            .iter()
            .map(|(m, p)| serde_json::json!({"move": m, "position": p}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "position": position.to_string(),
                "next_spot": position.next_spot(),
                "lives": position.total_lives(),
                "moves": moves,
            }))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    if list.is_empty() {
        println!("No legal move: the player to move loses at normal play (wins at misère).");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} legal moves (one per class of equivalent results):",
        list.len()
    );
    let width = list.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
    for (m, p) in &list {
        println!("  {m:<width$}  {p}");
    }
    Ok(ExitCode::SUCCESS)
}
