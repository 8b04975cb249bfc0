//! `parlor sprouts analyse "RECORD"`: the solver's verdict on every move of
//! a game: who could win before it, who after, and the moves that gave a
//! win away.

use anyhow::{Context, Result};
use parlor_core::Budget;
use parlor_sprouts::analysis::analyse_within;
use parlor_sprouts::wgosa::Record;
use std::process::ExitCode;
use std::time::Duration;

/// `parlor sprouts analyse` options.
#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// The record, e.g. "4+ 1(5)2 3(6)4 1(7)3".
    record: String,
    /// How long the solver may take in all, in seconds: positions not
    /// answered by then are shown as unknown.
    #[arg(long, default_value_t = 30.0)]
    think: f64,
    /// Print the verdicts as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the analysis.
pub fn run(a: AnalyseArgs) -> Result<ExitCode> {
    anyhow::ensure!(
        a.think.is_finite() && a.think > 0.0 && a.think <= 3600.0,
        "--think {}: seconds, more than 0 and at most 3600",
        a.think
    );
    let record = Record::parse(&a.record).context("not a Sprouts record")?;
    let replay = record.replay().context("the record does not replay")?;
    let texts: Vec<String> = record.moves.iter().map(|m| m.to_string()).collect();
    let budget = Budget::time(Duration::from_secs_f64(a.think));
    let analysis = analyse_within(&replay.positions, &texts, record.misere, &budget);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&analysis)?);
        return Ok(ExitCode::SUCCESS);
    }
    let verdict = |w: Option<bool>| match w {
        Some(true) => "wins",
        Some(false) => "loses",
        None => "unknown",
    };
    println!(
        "{} spots, {} play; from the start the first player {} with perfect play.",
        record.spots,
        if record.misere { "misère" } else { "normal" },
        verdict(analysis.first_player_wins)
    );
    for m in &analysis.moves {
        let who = if m.seat == 0 { "I " } else { "II" };
        println!(
            "{:>4}. {who} {:<16} before: {:<7} after: {:<7}{}",
            m.number,
            m.text,
            verdict(m.could_win),
            verdict(m.wins_after),
            if m.mistake {
                "  ← gives the win away"
            } else {
                ""
            }
        );
    }
    if !analysis.complete {
        println!(
            "The solver did not answer every position within {} s: those are unknown (--think gives it longer).",
            a.think
        );
    }
    Ok(ExitCode::SUCCESS)
}
