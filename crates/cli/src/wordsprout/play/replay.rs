//! `--replay FILE`: a saved record, replayed and checked.

use super::render::{describe, describe_action, rules_line};
use super::PlayArgs;
use anyhow::{bail, Context, Result};
use parlor_core::{Actor, Game, Match, Record};
use parlor_wordsprout::{Event, WordSprout};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `--replay FILE`: prints the game step by step, checking every action.
pub(super) fn replay(args: &PlayArgs, path: &PathBuf) -> Result<ExitCode> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read record {}", path.display()))?;
    let record = Record::<WordSprout>::from_json(&text)
        .with_context(|| format!("{} is not a Word Sprout record", path.display()))?;
    let resources = match (&args.rules.dict.dict, &args.rules.dict.lexicon) {
        (None, None) => parlor_core::Resources::embedded(),
        _ => args.rules.dict.resources()?.0,
    };
    let mut m = Match::<WordSprout>::new(record.config.clone(), record.seed, &resources)
        .with_context(|| {
            format!(
                "cannot set up the game of {} (pass its word list with --dict)",
                path.display()
            )
        })?;
    for (now, then) in m.record().lexicons.iter().zip(&record.lexicons) {
        if now.fingerprint != then.fingerprint {
            bail!(
                "the record was played with word list {:?} ({} words) but {:?} here has {} words; pass the same list with --dict",
                then.name,
                then.words,
                now.name,
                now.words
            );
        }
    }
    let names: Vec<String> = (0..record.config.players)
        .map(|s| format!("player {}", s + 1))
        .collect();
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(
        out,
        "Replaying {}: {} players, word list {}, rules: {}",
        path.display(),
        record.config.players,
        record.config.lexicon,
        rules_line(&record.config.rules)
    )?;
    for (i, step) in record.actions.iter().enumerate() {
        let who = match step.actor {
            Actor::Seat(s) => names.get(s.0).cloned().unwrap_or_else(|| s.to_string()),
            Actor::Referee => "the referee".into(),
        };
        writeln!(out, "{:>3}. {who} {}", i + 1, describe_action(&step.action))?;
        match m.apply(step.actor, step.action.clone()) {
            Ok(events) => {
                for e in &events {
                    if let Event::Played { .. } = e {
                        continue;
                    }
                    if let Some(line) = describe(e, &names) {
                        writeln!(out, "     {line}")?;
                    }
                }
            }
            Err(e) => {
                writeln!(out, "     REFUSED: {e}")?;
                bail!(
                    "action {} of {} does not follow the rules: {e}",
                    i + 1,
                    path.display()
                );
            }
        }
    }
    match m.state().outcome() {
        Some(o) => {
            let w: Vec<String> = o.winners().iter().map(|s| names[s.0].clone()).collect();
            writeln!(out, "Result: {} won.", w.join(" and "))?;
        }
        None => writeln!(out, "The game was not finished.")?,
    }
    writeln!(
        out,
        "Record verified: {} actions follow the rules.",
        record.actions.len()
    )?;
    Ok(ExitCode::SUCCESS)
}
