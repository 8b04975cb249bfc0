//! `parlor wordsprout play`: hot-seat humans and computer players at one
//! terminal, game records saved and replayed.
//!
//! Input is read line by line from stdin, so a game can be driven by a pipe.
//! Every line is answered; a line that is not understood, or a play the
//! rules refuse, gets one explanatory line and changes nothing.

use anyhow::{bail, Context, Result};
use parlor_core::{
    Actor, Agent, AgentContext, Budget, Game, Level, Match, Record, Seat, ToAct, Viewer,
};
use parlor_wordsprout::game::{LastPlay, OutReason, WinReason};
use parlor_wordsprout::rules::{Pot, Rule, RuleSet, Vowels};
use parlor_wordsprout::{Action, Config, Event, Phase, View, WordSprout};
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
    let mut lines = stdin.lock().lines();
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
        if let Some(done) = bystander_bots(&mut m, &mut bots, &names, budget, &mut out)? {
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
                budget,
            };
            let action = agent.choose(&ctx).unwrap_or(Action::Concede);
            match m.apply(Actor::Seat(seat), action.clone()) {
                Ok(events) => print_events(&events, &names, &mut out)?,
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
                    print_events(&events, &names, &mut out)?;
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
                Ok(events) => print_events(&events, &names, &mut out)?,
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
            budget,
        };
        if let Some(action) = agent.choose(&ctx) {
            if matches!(action, Action::Call | Action::Challenge) {
                if let Ok(events) = m.apply(Actor::Seat(seat), action) {
                    print_events(&events, names, out)?;
                    return Ok(Some(true));
                }
            }
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

fn rules_line(rules: &RuleSet) -> String {
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

fn scores_line(scores: &[i64]) -> String {
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

fn show(view: &View, seat: Seat, names: &[String], out: &mut impl Write) -> Result<()> {
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

fn help(view: &View, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "Commands:
  3 t  or  t3      put the letter t at insertion point 3 (the numbers under the string)
  OMAT             or type the whole new string
  challenge        challenge the previous play (its player must name a goal word)
  call             call an out-of-turn play (its player is out)
  pass / give up   you cannot (or will not) play: you are out
  WORD             when challenged: a goal word containing the string
  cross 1 3 t      2-D: start a new string across letter 3 of string 1, adding t after it (`... before` for before)
  keep / RULE      after winning a metamorphism round: keep the rules or switch RULE
  rules            list the rules in play
  hint             list valid plays (if the game was started with --hints)
  2: COMMAND       act as player 2 out of turn (an out-of-turn play, a call, an open challenge)
  help, quit"
    )?;
    let _ = view;
    Ok(())
}

fn hint(state: &WordSprout, out: &mut impl Write) -> Result<()> {
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
            w.first().map(String::as_str).unwrap_or("?")
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

enum Input {
    Empty,
    Help,
    Quit,
    Hint,
    Rules,
    Act(Action),
    Bad(String),
}

/// `2: call` → (Some(seat 2), "call").
fn split_actor(line: &str, players: usize) -> (Option<Seat>, &str) {
    let t = line.trim();
    let lower = t.to_ascii_lowercase();
    let rest = lower.strip_prefix('p').unwrap_or(&lower);
    if let Some((n, cmd)) = rest.split_once([':', '>']) {
        if let Ok(n) = n.trim().parse::<usize>() {
            if (1..=players).contains(&n) {
                let offset = t.len() - cmd.len();
                return (Some(Seat(n - 1)), t[offset..].trim());
            }
        }
    }
    (None, t)
}

fn parse(text: &str, view: &View, my_turn: bool) -> Input {
    let t = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    match t.as_str() {
        "" => return Input::Empty,
        "help" | "?" => return Input::Help,
        "quit" | "exit" => return Input::Quit,
        "hint" => return Input::Hint,
        "rules" => return Input::Rules,
        "challenge" => return Input::Act(Action::Challenge),
        "call" => return Input::Act(Action::Call),
        "pass" | "give up" | "giveup" | "concede" | "resign" | "out" => {
            return Input::Act(Action::Concede)
        }
        _ => {}
    }
    match &view.phase {
        Phase::ChoosingRule { .. } => {
            if matches!(t.as_str(), "keep" | "none" | "no change") {
                return Input::Act(Action::ChooseRule { rule: None });
            }
            return match t.parse::<Rule>() {
                Ok(rule) => Input::Act(Action::ChooseRule { rule: Some(rule) }),
                Err(e) => Input::Bad(format!("{e}; or `keep`")),
            };
        }
        Phase::Proving { .. } if my_turn => {
            if words.len() == 1 && t.bytes().all(|c| c.is_ascii_lowercase()) {
                return Input::Act(Action::Prove { word: t });
            }
            return Input::Bad("name one goal word (letters only), or `concede`".into());
        }
        _ => {}
    }
    if words.first() == Some(&"cross") {
        return parse_cross(&words[1..]);
    }
    let s = &view.string;
    // Position and letter, in either order, with or without a space.
    let compact: String = words.concat();
    let digits: String = compact.chars().filter(char::is_ascii_digit).collect();
    let letters: String = compact.chars().filter(char::is_ascii_alphabetic).collect();
    if !digits.is_empty() && letters.len() == 1 && digits.len() + 1 == compact.len() {
        let (starts_digit, ends_digit) = (
            compact.starts_with(|c: char| c.is_ascii_digit()),
            compact.ends_with(|c: char| c.is_ascii_digit()),
        );
        if starts_digit == ends_digit && compact.len() > 2 {
            return Input::Bad("write the position and the letter like `3 t` or `t3`".into());
        }
        let pos: usize = match digits.parse() {
            Ok(p) => p,
            Err(_) => return Input::Bad("that position is not a number".into()),
        };
        if pos > s.len() {
            return Input::Bad(format!(
                "there is no insertion point {pos}: they go from 0 (before the first letter) to {} (after the last)",
                s.len()
            ));
        }
        let mut next = s.clone();
        next.insert(pos, letters.chars().next().expect("one letter"));
        return Input::Act(Action::Play { string: next });
    }
    if !compact.is_empty() && compact.bytes().all(|c| c.is_ascii_lowercase()) && words.len() == 1 {
        if compact.len() == 1 && !s.is_empty() {
            return Input::Bad(format!(
                "where does {} go? Give the insertion point too, like `{} {}` (points 0 to {})",
                compact,
                s.len(),
                compact,
                s.len()
            ));
        }
        if compact.len() == 1 {
            return Input::Act(Action::Play { string: compact });
        }
        if compact.len() <= s.len() {
            return Input::Bad(format!(
                "{:?} is not longer than the string {:?}: type the whole new string, or `3 t`",
                compact, s
            ));
        }
        return Input::Act(Action::Play { string: compact });
    }
    Input::Bad(format!(
        "I did not understand {text:?}: type `help` for the commands"
    ))
}

/// `cross 2 5 t [before]`: a new 2-D string across letter 5 of string 2.
fn parse_cross(args: &[&str]) -> Input {
    let usage = "write `cross STRING LETTER-NUMBER NEW-LETTER [before]`, e.g. `cross 1 3 t` (numbers from 1)";
    let (Some(line), Some(index), Some(letter)) = (args.first(), args.get(1), args.get(2)) else {
        return Input::Bad(usage.into());
    };
    let (Ok(line), Ok(index)) = (line.parse::<usize>(), index.parse::<usize>()) else {
        return Input::Bad(usage.into());
    };
    let mut chars = letter.chars();
    let (Some(letter), None) = (chars.next(), chars.next()) else {
        return Input::Bad(usage.into());
    };
    if line == 0 || index == 0 || !letter.is_ascii_lowercase() {
        return Input::Bad(usage.into());
    }
    let before = match args.get(3) {
        None | Some(&"after") => false,
        Some(&"before") => true,
        Some(_) => return Input::Bad(usage.into()),
    };
    Input::Act(Action::Cross {
        line: line - 1,
        index: index - 1,
        letter,
        before,
    })
}

fn print_events(events: &[Event], names: &[String], out: &mut impl Write) -> Result<()> {
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

fn describe_action(a: &Action) -> String {
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

/// `--replay FILE`: prints the game step by step, checking every action.
fn replay(args: &PlayArgs, path: &PathBuf) -> Result<ExitCode> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_number_the_gaps() {
        assert_eq!(slots("oat"), "   O   A   T\n  0   1   2   3");
    }

    #[test]
    fn odd_input_is_answered_never_panics() {
        let (lex, _) = parlor_lexicon::Lexicon::from_words("t", ["oat"]).unwrap();
        let res = parlor_core::Resources::embedded().with_lexicon(std::sync::Arc::new(lex));
        let config = Config {
            lexicon: "t".into(),
            ..Config::default()
        };
        let mut m = Match::<WordSprout>::new(config, 0, &res).unwrap();
        m.apply(Actor::Seat(Seat(0)), Action::Play { string: "o".into() })
            .unwrap();
        let view = m.state().view(Viewer::Seat(Seat(1)));
        for line in [
            "",
            " ",
            "1",
            "a",
            "1 a",
            "a1",
            "1a1",
            "99999999999999999999 a",
            "é",
            "1 é",
            "ÉÉ",
            "2: ",
            "p2>",
            "cross",
            "cross 0 0 a",
            "cross 1 1 ab",
            "cross 1 1 a sideways",
            "oa t",
            "OA",
            "0 Q",
            "\u{0}",
            "give up",
        ] {
            let (_, text) = split_actor(line, 2);
            let _ = parse(text, &view, true);
        }
        assert!(
            matches!(parse("1 a", &view, true), Input::Act(Action::Play { ref string }) if string == "oa")
        );
        assert!(
            matches!(parse("a0", &view, true), Input::Act(Action::Play { ref string }) if string == "ao")
        );
        // A whole string is passed on; the rules answer if it adds too much.
        assert!(
            matches!(parse("OAT", &view, true), Input::Act(Action::Play { ref string }) if string == "oat")
        );
        assert!(matches!(parse("2 a", &view, true), Input::Bad(_)));
        assert!(matches!(
            parse("cross 1 2 t before", &view, true),
            Input::Act(Action::Cross {
                line: 0,
                index: 1,
                letter: 't',
                before: true
            })
        ));
    }

    #[test]
    fn actors_are_split_off() {
        assert_eq!(split_actor("2: call", 3), (Some(Seat(1)), "call"));
        assert_eq!(split_actor("p3> 1 t", 3), (Some(Seat(2)), "1 t"));
        assert_eq!(split_actor("4: call", 3), (None, "4: call"));
        assert_eq!(split_actor("3 t", 3), (None, "3 t"));
    }
}
