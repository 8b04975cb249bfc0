//! What a player types: commands, plays as `3 t` or a whole string, and
//! `2: ...` to act as another seat.

use anyhow::Result;
use parlor_core::Seat;
use parlor_wordsprout::rules::Rule;
use parlor_wordsprout::{Action, Phase, View};
use std::io::Write;

/// The commands [`parse`] accepts, kept beside it so the two agree.
pub(super) fn help(view: &View, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "Plays:
  3 t  or  t3      put the letter t at insertion point 3 (the numbers under the string)
  OMAT             or type the whole new string
  WORD             when challenged: a goal word containing the string
Commands start with / (or :), so that no play or word is taken for one:
  /challenge       challenge the previous play (its player must name a goal word)
  /call            call an out-of-turn play (its player is out)
  /pass            you cannot (or will not) play: you are out (also /out, /give up)
  /cross 1 3 t     2-D: start a new string across letter 3 of string 1, adding t after it (`... before` for before)
  /keep, /RULE     after winning a metamorphism round: keep the rules or switch RULE
  /rules           list the rules in play
  /hint            list valid plays (if the game was started with --hints)
  2: COMMAND       act as player 2 out of turn (an out-of-turn play, a call, an open challenge)
  /help, /quit
A bare command word (pass, quit, ...) still works where it cannot be a play
or a goal word."
    )?;
    let _ = view;
    Ok(())
}

pub(super) enum Input {
    Empty,
    Help,
    Quit,
    Hint,
    Rules,
    Act(Action),
    Bad(String),
}

/// `2: call` → (Some(seat 2), "call").
pub(super) fn split_actor(line: &str, players: usize) -> (Option<Seat>, &str) {
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

pub(super) fn parse(text: &str, view: &View, my_turn: bool) -> Input {
    let t = text.trim().to_ascii_lowercase();
    // `/pass`, `:quit`: always a command.
    let (t, command) = match t.strip_prefix(['/', ':']) {
        Some(rest) => (rest.trim_start().to_string(), true),
        None => (t, false),
    };
    let words: Vec<&str> = t.split_whitespace().collect();
    // A bare word that reads as a play or as the answer to a challenge is
    // one, even when it spells a command: on "ou", "out" is a play; asked
    // to prove "pas", "pass" is a goal word.
    let one_word = words.len() == 1 && t.bytes().all(|c| c.is_ascii_lowercase());
    let answering = matches!(view.phase, Phase::Proving { .. }) && my_turn;
    let reads_as_play = matches!(view.phase, Phase::Playing)
        && one_word
        && t.len() > view.string.len()
        && is_subsequence(view.string.as_bytes(), t.as_bytes());
    if !command && one_word && (answering || reads_as_play) {
        return if answering {
            Input::Act(Action::Prove { word: t })
        } else {
            Input::Act(Action::Play { string: t })
        };
    }
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
            return Input::Bad("name one goal word (letters only), or `/pass`".into());
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

/// Whether `short` is `long` with letters taken out.
fn is_subsequence(short: &[u8], long: &[u8]) -> bool {
    let mut rest = long.iter();
    short.iter().all(|c| rest.any(|d| d == c))
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

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::{Actor, Game, Match, ToAct, Viewer};
    use parlor_wordsprout::{Config, WordSprout};

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

    /// A play or a goal word is never read as a command; `/` makes one.
    #[test]
    fn plays_and_words_are_not_commands() {
        let (lex, _) =
            parlor_lexicon::Lexicon::from_words("t", ["out", "pass", "quit", "passage"]).unwrap();
        let res = parlor_core::Resources::embedded().with_lexicon(std::sync::Arc::new(lex));
        let config = Config {
            lexicon: "t".into(),
            ..Config::default()
        };
        let mut m = Match::<WordSprout>::new(config, 0, &res).unwrap();
        for s in ["o", "ou"] {
            m.apply(m_seat(&m), Action::Play { string: s.into() })
                .unwrap();
        }
        let view = m.state().view(Viewer::Seat(Seat(0)));
        assert!(
            matches!(parse("out", &view, true), Input::Act(Action::Play { ref string }) if string == "out")
        );
        assert!(matches!(
            parse("/out", &view, true),
            Input::Act(Action::Concede)
        ));
        assert!(matches!(parse(":quit", &view, true), Input::Quit));
        // "quit" does not contain "ou" in order: still the command.
        assert!(matches!(parse("quit", &view, true), Input::Quit));
        assert!(matches!(parse("/help", &view, true), Input::Help));
        // Challenged on "pas", "pass" is the goal word.
        let mut m = Match::<WordSprout>::new(
            Config {
                lexicon: "t".into(),
                ..Config::default()
            },
            0,
            &res,
        )
        .unwrap();
        for s in ["p", "pa", "pas"] {
            m.apply(m_seat(&m), Action::Play { string: s.into() })
                .unwrap();
        }
        m.apply(m_seat(&m), Action::Challenge).unwrap();
        let ToAct::One(challenged) = m.state().to_act() else {
            panic!()
        };
        let view = m.state().view(Viewer::Seat(challenged));
        assert!(
            matches!(parse("pass", &view, true), Input::Act(Action::Prove { ref word }) if word == "pass")
        );
        assert!(matches!(
            parse("/pass", &view, true),
            Input::Act(Action::Concede)
        ));
    }

    fn m_seat(m: &Match<WordSprout>) -> Actor {
        match m.state().to_act() {
            ToAct::One(s) => Actor::Seat(s),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn actors_are_split_off() {
        assert_eq!(split_actor("2: call", 3), (Some(Seat(1)), "call"));
        assert_eq!(split_actor("p3> 1 t", 3), (Some(Seat(2)), "1 t"));
        assert_eq!(split_actor("4: call", 3), (None, "4: call"));
        assert_eq!(split_actor("3 t", 3), (None, "3 t"));
    }
}
