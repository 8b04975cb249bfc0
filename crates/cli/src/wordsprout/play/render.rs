//! What the terminal shows: the table, events, hints.

use anyhow::Result;
use parlor_core::Seat;
use parlor_wordsprout::game::{LastPlay, OutReason, WinReason};
use parlor_wordsprout::rules::{Rule, RuleSet};
use parlor_wordsprout::{Action, Event, Phase, View, WordSprout};
use std::io::Write;

pub(super) fn rules_line(rules: &RuleSet) -> String {
    if rules.0.is_empty() {
        "core rules only".into()
    } else {
        rules
            .0
            .iter()
            .map(|r| r.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub(super) fn scores_line(scores: &[i64]) -> String {
    scores
        .iter()
        .enumerate()
        .map(|(i, s)| format!("player {} {s}", i + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The string with numbered insertion points, on two lines.
pub fn slots(s: &str) -> String {
    let mut letters = String::from("   ");
    let mut gaps = String::new();
    for (i, c) in s.chars().enumerate() {
        gaps.push_str(&format!("{:<4}", i));
        letters.push(c.to_ascii_uppercase());
        letters.push_str("   ");
    }
    gaps.push_str(&s.len().to_string());
    format!("{}\n  {}", letters.trim_end(), gaps)
}

pub(super) fn show(view: &View, seat: Seat, names: &[String], out: &mut impl Write) -> Result<()> {
    writeln!(out)?;
    let mut status = Vec::new();
    if view.rounds > 1 {
        status.push(format!("round {} of {}", view.round, view.rounds));
    }
    let inn: Vec<String> = (0..view.players)
        .filter(|&i| view.active[i])
        .map(|i| (i + 1).to_string())
        .collect();
    status.push(format!("in: {}", inn.join(" ")));
    if view.rules.has(Rule::VowelReverses) {
        status.push(format!(
            "order: {}",
            if view.forward {
                "1 → 2 → …"
            } else {
                "… → 2 → 1"
            }
        ));
    }
    if let Some(pot) = view.pot {
        status.push(format!("pot: {pot}"));
    }
    if !view.collections.is_empty() {
        let c: Vec<String> = view
            .collections
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{}:{}", i + 1, if v.is_empty() { "-" } else { v }))
            .collect();
        status.push(format!("vowels {}", c.join(" ")));
    }
    writeln!(out, "[{}]", status.join(" · "))?;
    match &view.phase {
        Phase::Proving {
            challenger,
            challenged,
            ..
        } => {
            writeln!(
                out,
                "{} challenged your play {}. Name a goal word containing it, or `concede`.",
                names[challenger.0],
                view.string.to_ascii_uppercase()
            )?;
            let _ = challenged;
        }
        Phase::ChoosingRule { .. } => {
            writeln!(
                out,
                "You won the round: switch one rule on or off for the next round (`rules` lists them), or `keep`."
            )?;
        }
        _ => {
            if let Some(board) = view.board.as_ref().filter(|b| b.lines.len() > 1) {
                writeln!(out, "The grid:")?;
                for row in board.render().lines() {
                    writeln!(out, "   {row}")?;
                }
                let list: Vec<String> = board
                    .lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        format!(
                            "{} {} {}",
                            i + 1,
                            l.letters.to_ascii_uppercase(),
                            if l.vertical { "(down)" } else { "(across)" }
                        )
                    })
                    .collect();
                writeln!(
                    out,
                    "Strings: {} — plays go to the last one.",
                    list.join(", ")
                )?;
            }
            if view.string.is_empty() {
                writeln!(out, "The string is empty: play any letter (e.g. `t`).")?;
            } else {
                writeln!(out, "{}", slots(&view.string))?;
                if let Some(LastPlay { by, from, to, .. }) = &view.last_play {
                    let _ = (from, to);
                    if *by != seat {
                        writeln!(out, "(last play by {})", names[by.0])?;
                    }
                }
                if view.max_letters == 2 {
                    writeln!(
                        out,
                        "Palindrome lock: add one or two letters; type the whole new string."
                    )?;
                }
            }
        }
    }
    Ok(())
}

pub(super) fn hint(state: &WordSprout, out: &mut impl Write) -> Result<()> {
    let moves = state.valid_plays();
    if moves.is_empty() {
        writeln!(
            out,
            "No valid play: you may bluff (if challenges are on) or `pass`."
        )?;
        return Ok(());
    }
    let judge = state.judge();
    let mut shown = Vec::new();
    for m in moves.iter().take(20) {
        let w = judge.goal_words(m);
        shown.push(format!(
            "{} ({})",
            m.to_ascii_uppercase(),
            w.first().copied().unwrap_or("?")
        ));
    }
    writeln!(
        out,
        "{} valid plays: {}{}",
        moves.len(),
        shown.join(", "),
        if moves.len() > 20 { ", …" } else { "" }
    )?;
    Ok(())
}

pub(super) fn print_events(events: &[Event], names: &[String], out: &mut impl Write) -> Result<()> {
    for e in events {
        if let Some(line) = describe(e, names) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// One line for an event (None for events shown otherwise).
pub fn describe(e: &Event, names: &[String]) -> Option<String> {
    let n = |s: &Seat| names.get(s.0).cloned().unwrap_or_else(|| s.to_string());
    Some(match e {
        Event::Played {
            seat,
            from,
            to,
            out_of_turn,
        } => format!(
            "{} plays {}{}{}",
            n(seat),
            to.to_ascii_uppercase(),
            if from.is_empty() {
                String::new()
            } else {
                format!(" (was {})", from.to_ascii_uppercase())
            },
            if *out_of_turn { " OUT OF TURN" } else { "" }
        ),
        Event::Reversed { forward } => format!(
            "The order of play reverses ({}).",
            if *forward {
                "1 → 2 → …"
            } else {
                "… → 2 → 1"
            }
        ),
        Event::Collected { seat, vowel } => {
            format!("{} collects {}.", n(seat), vowel.to_ascii_uppercase())
        }
        Event::LostVowel { seat, vowel } => format!(
            "{} loses {} from their collection.",
            n(seat),
            vowel.to_ascii_uppercase()
        ),
        Event::LastTile { seat, vowel } => {
            format!(
                "{} played the last {} tile: not collected.",
                n(seat),
                vowel.to_ascii_uppercase()
            )
        }
        Event::TurnedIn { seats } => {
            format!(
                "Collections turned in: {}.",
                seats.iter().map(n).collect::<Vec<_>>().join(", ")
            )
        }
        Event::Challenged {
            challenger,
            challenged,
            string,
        } => {
            format!(
                "{} challenges {}'s {}!",
                n(challenger),
                n(challenged),
                string.to_ascii_uppercase()
            )
        }
        Event::Proved { seat, word } => format!(
            "{} names {}: the play was valid.",
            n(seat),
            word.to_ascii_uppercase()
        ),
        Event::Called { caller, offender } => {
            format!("{} calls {}'s out-of-turn play.", n(caller), n(offender))
        }
        Event::Out { seat, reason } => format!(
            "{} is out ({}).",
            n(seat),
            match reason {
                OutReason::Conceded => "conceded",
                OutReason::FailedChallenge => "challenged a valid play",
                OutReason::LostChallenge => "could not justify the play",
                OutReason::OutOfTurn => "played out of turn",
                OutReason::InvalidWinningPlay => "the winning play was not valid, or not in turn",
                OutReason::Referee => "removed by the referee",
            }
        ),
        Event::Undone { seat, string } => format!(
            "{}'s play is undone: the string is {}.",
            n(seat),
            if string.is_empty() {
                "empty".to_string()
            } else {
                string.to_ascii_uppercase()
            }
        ),
        Event::ToMove { .. } => return None,
        Event::NewString { seat, line, index } => {
            format!(
                "{} starts a new string across letter {} of string {}.",
                n(seat),
                index + 1,
                line + 1
            )
        }
        Event::RoundWon {
            round,
            winners,
            reason,
        } => format!(
            "Round {round} goes to {} ({}).",
            winners.iter().map(n).collect::<Vec<_>>().join(" and "),
            match reason {
                WinReason::LastStanding => "last one in",
                WinReason::VowelCollection => "collected every vowel",
                WinReason::OpenChallenge => "caught an invalid play",
                WinReason::ClosedShape => "closed a shape around a hole",
            }
        ),
        Event::RuleChanged { seat, rule, on } => match rule {
            Some(r) => format!(
                "{} turns {} {}.",
                n(seat),
                r,
                if *on { "on" } else { "off" }
            ),
            None => format!("{} keeps the rules.", n(seat)),
        },
        Event::RoundStarted { round, first } => {
            if *round == 1 {
                return None;
            }
            format!("Round {round} starts; {} plays first.", n(first))
        }
        Event::MatchOver { .. } => return None,
    })
}

pub(super) fn describe_action(a: &Action) -> String {
    match a {
        Action::Play { string } => format!("plays {}", string.to_ascii_uppercase()),
        Action::Cross {
            line,
            index,
            letter,
            before,
        } => format!(
            "starts a new string across letter {} of string {} with {} {}",
            index + 1,
            line + 1,
            letter.to_ascii_uppercase(),
            if *before { "before it" } else { "after it" }
        ),
        Action::Challenge => "challenges".into(),
        Action::Prove { word } => format!("names {}", word.to_ascii_uppercase()),
        Action::Concede => "concedes".into(),
        Action::Call => "calls".into(),
        Action::ChooseRule { rule: Some(r) } => format!("switches {r}"),
        Action::ChooseRule { rule: None } => "keeps the rules".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_number_the_gaps() {
        assert_eq!(slots("oat"), "   O   A   T\n  0   1   2   3");
    }
}
