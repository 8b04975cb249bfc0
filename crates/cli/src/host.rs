//! The one terminal host: any registered game played at this terminal by
//! people and computer players, over the registry's type-erased match and
//! agents ([`DynMatch`], [`DynAgent`]), as the play server hosts them.
//!
//! The loop ([`play`]) is written once: whose turn it is, the computer
//! players (each kept for the whole game and shown what its seat sees,
//! through [`DynAgent::choose`]), a clock the game asks for
//! ([`DynMatch::deadline_json`]: Gobble's round), the end of the game, the
//! end of input and the record. A game brings only its [`Screen`]: how its
//! table is drawn and how a typed line becomes its action.
//!
//! Time is the host's: a computer player paced by its screen acts when its
//! moment comes, and once no person is left to act the loop skips ahead to
//! the next moment instead of waiting it out (nobody is watching the clock).

use anyhow::{bail, Context, Result};
use parlor_core::{ActionError, Actor, Budget, DynAgent, DynMatch, Game, Match, Seat, ToAct};
use serde_json::Value;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What the loop tells a screen about the table.
pub struct At<'a> {
    /// The game.
    pub game: &'a dyn DynMatch,
    /// Which seats people play (the others: computer players).
    pub people: &'a [bool],
    /// Time left on the game's clock, where it keeps one.
    pub left: Option<Duration>,
}

impl At<'_> {
    /// The game as the concrete match it is: a screen is only ever given
    /// its own game.
    pub fn typed<G: Game>(&self) -> &Match<G> {
        typed(self.game)
    }
}

/// `game` as the concrete match of `G`.
fn typed<G: Game>(game: &dyn DynMatch) -> &Match<G> {
    match game.as_any().downcast_ref::<Match<G>>() {
        Some(m) => m,
        None => unreachable!("a screen is given its own game only"),
    }
}

/// What a typed line means.
pub enum Typed {
    /// An action (as JSON) for a seat.
    Act(Seat, Value),
    /// A line to print; nothing changes.
    Say(String),
    /// A line to print, then the table drawn again.
    SayAndShow(String),
    /// Draw the table again.
    Show,
    /// Nothing at all (an empty line).
    Nothing,
    /// Stop the game here.
    Quit,
}

impl Typed {
    /// `action` for `seat`.
    pub fn act<A: serde::Serialize>(seat: Seat, action: &A) -> Typed {
        Typed::Act(
            seat,
            serde_json::to_value(action).unwrap_or(serde_json::Value::Null),
        )
    }
}

/// How a game ended at the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The game is over.
    Over,
    /// A person stopped it.
    Quit,
    /// The input ran out before the end.
    InputEnded,
}

/// How one game looks and reads at the terminal. Everything else is the
/// loop's. Output goes to `out`; a method that prints says so by
/// returning `true`, so that the prompt is written again below it.
pub trait Screen {
    /// What seat `seat` is called (`Player 2`, `the computer`).
    fn name(&self, at: &At<'_>, seat: Seat) -> String;
    /// Printed once, before the first turn.
    fn intro(&mut self, at: &At<'_>, out: &mut dyn Write) -> Result<()>;
    /// The table changed and `seat` is to act: shown to its person (or,
    /// for a computer player's turn, to everyone). Returns whether it
    /// printed.
    fn turn(&mut self, at: &At<'_>, seat: Seat, person: bool, out: &mut dyn Write) -> Result<bool>;
    /// The prompt before a person types.
    fn prompt(&self, at: &At<'_>, seat: Seat) -> String {
        format!("{}> ", self.name(at, seat))
    }
    /// What the line a person typed for `seat` means.
    fn read(&mut self, at: &At<'_>, seat: Seat, line: &str) -> Typed;
    /// What the end of input means for `seat`'s person: an action (Gobble:
    /// the search is over), or `None` to stop the game there.
    fn at_end_of_input(&self, at: &At<'_>, seat: Seat) -> Option<Value> {
        let _ = (at, seat);
        None
    }
    /// Prints what the table saw of the actions from history entry `from`
    /// on, the last one by `actor`. Returns whether it printed.
    fn events(
        &mut self,
        at: &At<'_>,
        actor: Actor,
        from: usize,
        out: &mut dyn Write,
    ) -> Result<bool>;
    /// Whether the table is drawn again after a refusal, as before every
    /// move (Twin Grids, WORDCHAIN); the default: no.
    fn redraws_after_refusal(&self) -> bool {
        false
    }
    /// A person's action was refused (nothing changed). Returns whether
    /// to draw the table again before the next line.
    fn refused(
        &mut self,
        at: &At<'_>,
        seat: Seat,
        e: &ActionError,
        out: &mut dyn Write,
    ) -> Result<bool> {
        let _ = (at, seat);
        writeln!(out, "{e}")?;
        Ok(self.redraws_after_refusal())
    }
    /// What a computer player whose turn it is does when its own choice is
    /// refused or it has none (WORDCHAIN: pass), in order of preference.
    /// Empty (the default): such a game cannot go on.
    fn fallback(&self, at: &At<'_>, seat: Seat) -> Vec<Value> {
        let _ = (at, seat);
        Vec::new()
    }
    /// Whether the computer player at `seat`, not to act now, may still act
    /// (Word Sprout's call of an out-of-turn play), with an action
    /// [`Screen::out_of_turn_action`] accepts.
    fn out_of_turn(&self, at: &At<'_>, seat: Seat) -> bool {
        let _ = (at, seat);
        false
    }
    /// Whether a computer player may take `action` out of turn.
    fn out_of_turn_action(&self, action: &Value) -> bool {
        let _ = action;
        false
    }
    /// How long the computer player at `seat` takes between its actions
    /// while people play against the game's clock (Gobble's finds). Zero
    /// (the default): it acts as soon as it may.
    fn pace(&self, at: &At<'_>, seat: Seat) -> Duration {
        let _ = (at, seat);
        Duration::ZERO
    }
    /// The game's clock shows another second while `seat`'s person is
    /// typing. Returns nothing: a screen that shows the clock keeps the
    /// prompt in place itself.
    fn clock(&mut self, at: &At<'_>, seat: Seat, out: &mut dyn Write) -> Result<()> {
        let _ = (at, seat, out);
        Ok(())
    }
    /// Whether, with several people at the keyboard, each must take it in
    /// turn before their seat's table is shown (hidden hands).
    fn hands_hidden(&self) -> bool {
        false
    }
    /// The game ended (or stopped): the result, in the game's words.
    fn end(&mut self, at: &At<'_>, how: End, out: &mut dyn Write) -> Result<()>;
}

/// A line of input as the loop receives it.
pub enum Line {
    /// A line, without its line break.
    Text(String),
    /// Longer than [`MAX_LINE`]: skipped unread.
    TooLong,
    /// No more input.
    Eof,
    /// Nothing came in the time given.
    Timeout,
}

/// Where people's lines come from.
pub trait Input {
    /// The next line, waiting at most `wait` (`None`: as long as it takes).
    fn next(&mut self, wait: Option<Duration>) -> Line;
}

/// The longest line read: a move or a word of any game is far shorter;
/// anything longer is refused unread.
pub const MAX_LINE: usize = 512;

/// Standard input, read on a thread of its own so that the loop can wait
/// for a line and for the game's clock at once. Bytes, not UTF-8 lines: a
/// stray byte is a line not understood, never the end of the game.
pub struct Stdin {
    lines: mpsc::Receiver<Line>,
}

impl Stdin {
    /// Starts reading standard input.
    pub fn start() -> Stdin {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                let line = read_line(&mut input);
                let eof = matches!(line, Line::Eof);
                if tx.send(line).is_err() || eof {
                    return;
                }
            }
        });
        Stdin { lines: rx }
    }
}

impl Input for Stdin {
    fn next(&mut self, wait: Option<Duration>) -> Line {
        match wait {
            None => self.lines.recv().unwrap_or(Line::Eof),
            Some(w) => match self.lines.recv_timeout(w) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => Line::Timeout,
                Err(mpsc::RecvTimeoutError::Disconnected) => Line::Eof,
            },
        }
    }
}

/// One line of input, bounded before it is held whole.
fn read_line(input: &mut impl BufRead) -> Line {
    let mut buf = Vec::new();
    let mut limited = <&mut _ as std::io::Read>::take(&mut *input, MAX_LINE as u64 + 1);
    match limited.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => return Line::Eof,
        Ok(_) => {}
    }
    if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
        // Skip the rest of the over-long line, a chunk at a time.
        while let Ok(chunk) = input.fill_buf() {
            if chunk.is_empty() {
                break;
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    input.consume(i + 1);
                    break;
                }
                None => {
                    let len = chunk.len();
                    input.consume(len);
                }
            }
        }
        return Line::TooLong;
    }
    if buf.ends_with(b"\n") {
        buf.pop();
    }
    if buf.ends_with(b"\r") {
        buf.pop();
    }
    Line::Text(String::from_utf8_lossy(&buf).into_owned())
}

/// The host's time since the game started: the wall clock, plus what the
/// loop skipped while nobody was left to watch it.
pub struct Clock {
    started: Option<Instant>,
    skipped: Duration,
}

impl Clock {
    /// The wall clock.
    pub fn real() -> Clock {
        Clock {
            started: Some(Instant::now()),
            skipped: Duration::ZERO,
        }
    }

    /// A clock that moves only when the loop skips ahead: a game played
    /// by computer players alone, the same on any machine.
    #[cfg(test)]
    pub fn still() -> Clock {
        Clock {
            started: None,
            skipped: Duration::ZERO,
        }
    }

    fn now(&self) -> Duration {
        self.started.map(|s| s.elapsed()).unwrap_or_default() + self.skipped
    }
}

/// How a game is hosted.
pub struct Options {
    /// What a computer player may spend on one decision.
    pub budget: Budget,
    /// Where the record is written when the game ends or stops.
    pub record: Option<PathBuf>,
}

/// The clock a game asked for, as the loop keeps it.
struct Deadline {
    key: String,
    at: Duration,
    action: Value,
}

/// [`play`] at the terminal: lines typed on standard input, the real
/// clock, the table written to `out`; the command's exit code.
pub fn play_at_terminal(
    game: &mut dyn DynMatch,
    agents: Vec<Option<Box<dyn DynAgent>>>,
    screen: &mut dyn Screen,
    out: &mut dyn Write,
    options: &Options,
) -> Result<std::process::ExitCode> {
    play(
        game,
        agents,
        screen,
        &mut Stdin::start(),
        out,
        &mut Clock::real(),
        options,
    )?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// Plays `game` at the terminal to its end (or until a person stops or
/// the input runs out): `agents[s]` plays seat `s`, a person where `None`.
pub fn play(
    game: &mut dyn DynMatch,
    mut agents: Vec<Option<Box<dyn DynAgent>>>,
    screen: &mut dyn Screen,
    input: &mut dyn Input,
    out: &mut dyn Write,
    clock: &mut Clock,
    options: &Options,
) -> Result<End> {
    let seats = game.seats();
    agents.resize_with(seats, || None);
    let people: Vec<bool> = agents.iter().map(Option::is_none).collect();
    let persons = people.iter().filter(|p| **p).count();
    fn at<'a>(game: &'a dyn DynMatch, people: &'a [bool], left: Option<Duration>) -> At<'a> {
        At { game, people, left }
    }
    screen.intro(&at(game, &people, None), out)?;
    // The (actions, to act) the table was last shown at.
    let mut shown: Option<(usize, ToAct)> = None;
    // Who has the keyboard, where hands are hidden.
    let mut holder: Option<Seat> = None;
    let mut deadline: Option<Deadline> = None;
    // When each computer player may act next, and those who passed at
    // this number of actions (not asked again until something changes).
    let mut next_at = vec![Duration::ZERO; seats];
    let mut passed: Vec<(Seat, usize)> = Vec::new();
    let mut prompt_due = true;
    let mut second_shown: Option<u64> = None;
    let how = loop {
        let to_act = game.to_act();
        if to_act == ToAct::Over {
            break End::Over;
        }
        if to_act == ToAct::Chance {
            // Matches resolve chance themselves; a game left there is stuck.
            bail!("the game waits on chance, which its match should have resolved");
        }
        let now = clock.now();
        match game.deadline_json() {
            Some(d) if deadline.as_ref().is_some_and(|k| k.key == d.key) => {}
            Some(d) => {
                deadline = Some(Deadline {
                    key: d.key,
                    at: now + Duration::from_secs_f64(d.seconds.clamp(0.0, 1e9)),
                    action: d.action,
                })
            }
            None => deadline = None,
        }
        let left = deadline.as_ref().map(|d| d.at.saturating_sub(now));
        if let Some(d) = deadline.as_ref().filter(|d| now >= d.at) {
            let from = game.actions_len() + 1;
            let action = d.action.clone();
            game.apply_json(Actor::Referee, &action)
                .map_err(|e| anyhow::anyhow!("the game refused its own clock's action: {e}"))?;
            prompt_due |= screen.events(&at(game, &people, left), Actor::Referee, from, out)?;
            continue;
        }
        let seq = game.actions_len();
        passed.retain(|&(_, when)| when == seq);
        // The computer players that may act now, whenever their moment
        // comes: those not to act first (a call out of turn comes before
        // the turn), then those to act.
        let askable: Vec<usize> = (0..seats)
            .filter(|&s| !to_act.includes(Seat(s)))
            .chain((0..seats).filter(|&s| to_act.includes(Seat(s))))
            .filter(|&s| {
                agents[s].is_some()
                    && !passed.iter().any(|(p, _)| p.0 == s)
                    && (to_act.includes(Seat(s))
                        || screen.out_of_turn(&at(game, &people, left), Seat(s)))
            })
            .collect();
        let due = askable.iter().copied().find(|&s| next_at[s] <= now);
        if let Some(s) = due {
            let seat = Seat(s);
            let in_turn = to_act.includes(seat);
            if in_turn && shown.as_ref() != Some(&(seq, to_act.clone())) {
                shown = Some((seq, to_act.clone()));
                prompt_due |= screen.turn(&at(game, &people, left), seat, false, out)?;
            }
            let choice = match agents[s].as_mut() {
                Some(agent) => agent.choose(game, options.budget.clone()),
                None => None,
            };
            next_at[s] = now + screen.pace(&at(game, &people, left), seat);
            let choice = choice.filter(|a| in_turn || screen.out_of_turn_action(a));
            let refused = match choice {
                Some(action) => match game.apply_json(Actor::Seat(seat), &action) {
                    Ok(_) => {
                        prompt_due |= screen.events(
                            &at(game, &people, left),
                            Actor::Seat(seat),
                            seq + 1,
                            out,
                        )?;
                        continue;
                    }
                    Err(e) => Some(e.message),
                },
                None => None,
            };
            if !in_turn || matches!(to_act, ToAct::Simultaneous(_)) {
                // Nothing (accepted) to do out of turn, or in a phase
                // everyone plays at once, where the others go on: asked
                // again once something changes.
                passed.push((seat, seq));
                continue;
            }
            let name = screen.name(&at(game, &people, left), seat);
            if let Some(e) = &refused {
                writeln!(out, "{name} could not play ({e}).")?;
            }
            let fallback = screen.fallback(&at(game, &people, left), seat);
            if !fallback
                .iter()
                .any(|a| game.apply_json(Actor::Seat(seat), a).is_ok())
            {
                bail!("{name} has no move the game accepts");
            }
            prompt_due |=
                screen.events(&at(game, &people, left), Actor::Seat(seat), seq + 1, out)?;
            continue;
        }
        // When something happens next without a person: the game's clock
        // or a computer player's moment.
        let wake = askable
            .iter()
            .map(|&s| next_at[s])
            .chain(deadline.as_ref().map(|d| d.at))
            .min();
        let Some(seat) = to_act.seats().into_iter().find(|s| people[s.0]) else {
            match wake {
                // Nobody is watching: skip ahead.
                Some(t) => clock.skipped += t.saturating_sub(now),
                None => bail!("no seat can act: the game cannot go on"),
            }
            continue;
        };
        let key = (seq, to_act.clone());
        if shown.as_ref() != Some(&key) {
            if screen.hands_hidden() && persons > 1 && holder != Some(seat) {
                write!(
                    out,
                    "\n{}: take the keyboard and press Enter (the others look away) ",
                    screen.name(&at(game, &people, left), seat)
                )?;
                out.flush()?;
                match input.next(None) {
                    Line::Eof => {
                        writeln!(out)?;
                        break End::InputEnded;
                    }
                    _ => holder = Some(seat),
                }
            }
            shown = Some(key);
            prompt_due |= screen.turn(&at(game, &people, left), seat, true, out)?;
        }
        if let Some(l) = left {
            let second = l.as_secs() + u64::from(l.subsec_nanos() > 0);
            if second_shown != Some(second) {
                second_shown = Some(second);
                screen.clock(&at(game, &people, left), seat, out)?;
            }
        }
        if prompt_due {
            write!(out, "{}", screen.prompt(&at(game, &people, left), seat))?;
            out.flush()?;
            prompt_due = false;
        }
        // Wait for a line until something else happens (and a clock shown
        // ticks at least every 200 ms).
        let wait = match (wake, left) {
            (Some(t), _) => Some(t.saturating_sub(now).min(Duration::from_millis(200))),
            (None, Some(_)) => Some(Duration::from_millis(200)),
            (None, None) => None,
        };
        let line = match input.next(wait) {
            Line::Timeout => continue,
            Line::TooLong => {
                writeln!(
                    out,
                    "That line is over {MAX_LINE} characters: type one move."
                )?;
                prompt_due = true;
                continue;
            }
            Line::Eof => {
                let a = at(game, &people, left);
                let stop = match screen.at_end_of_input(&a, seat) {
                    Some(action) => game.apply_json(Actor::Seat(seat), &action).is_err(),
                    None => true,
                };
                if stop {
                    writeln!(out)?;
                    break End::InputEnded;
                }
                prompt_due |=
                    screen.events(&at(game, &people, left), Actor::Seat(seat), seq + 1, out)?;
                continue;
            }
            Line::Text(line) => line,
        };
        prompt_due = true;
        let left = deadline.as_ref().map(|d| d.at.saturating_sub(clock.now()));
        match screen.read(&at(game, &people, left), seat, &line) {
            Typed::Nothing => {}
            Typed::Quit => break End::Quit,
            Typed::Show => shown = None,
            Typed::Say(text) => writeln!(out, "{text}")?,
            Typed::SayAndShow(text) => {
                writeln!(out, "{text}")?;
                shown = None;
            }
            Typed::Act(actor, action) => match game.apply_json(Actor::Seat(actor), &action) {
                Ok(_) => {
                    screen.events(&at(game, &people, left), Actor::Seat(actor), seq + 1, out)?;
                }
                Err(e) => {
                    if screen.refused(&at(game, &people, left), actor, &e, out)? {
                        shown = None;
                    }
                }
            },
        }
    };
    screen.end(&at(game, &people, None), how, out)?;
    if let Some(path) = &options.record {
        let record = serde_json::to_string_pretty(&game.record_json())?;
        std::fs::write(path, record)
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
        writeln!(
            out,
            "record written to {} ({} actions)",
            path.display(),
            game.actions_len()
        )?;
    }
    out.flush()?;
    Ok(how)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::{Level, Resources};
    use serde_json::json;

    /// No person at the table: nothing is read.
    struct NoInput;

    impl Input for NoInput {
        fn next(&mut self, _: Option<Duration>) -> Line {
            Line::Eof
        }
    }

    /// Lines typed, then the end of input.
    struct Typing(std::collections::VecDeque<&'static str>);

    impl Input for Typing {
        fn next(&mut self, _: Option<Duration>) -> Line {
            match self.0.pop_front() {
                Some(l) => Line::Text(l.to_string()),
                None => Line::Eof,
            }
        }
    }

    fn play_typed(
        name: &str,
        config: Value,
        screen: &mut dyn Screen,
        people: usize,
        lines: &[&'static str],
    ) -> (End, String, Box<dyn DynMatch>) {
        let registry = crate::games::registry();
        let resources = Resources::embedded();
        let mut game = registry
            .get(name)
            .unwrap()
            .new_match(&config, 5, &resources)
            .unwrap();
        let agents = (0..game.seats())
            .map(|s| {
                (s >= people).then(|| game.agent(Seat(s), Level::Easy, 9, &resources).unwrap())
            })
            .collect();
        let mut out = Vec::new();
        let how = play(
            &mut *game,
            agents,
            screen,
            &mut Typing(lines.iter().copied().collect()),
            &mut out,
            &mut Clock::still(),
            &Options {
                budget: Budget::nodes(20_000),
                record: None,
            },
        )
        .unwrap();
        (how, String::from_utf8_lossy(&out).into_owned(), game)
    }

    /// Against the round's clock: a refused word is answered, the end of
    /// input ends the person's search, and the computer players, alone,
    /// find their words in the time left (skipped ahead) until the round
    /// ends.
    #[test]
    fn a_gobble_round_ends_when_the_person_stops_and_the_clock_runs_out() {
        let mut screen = crate::gobble::PlayScreen {
            names: vec!["you".into(), "bot 1".into()],
            level: Level::Easy,
            tty: false,
            status_shown: false,
        };
        let config = json!({"seats": 2, "seconds": 30, "keyphrase": "abacus abdomen abide zoom"});
        let (how, out, game) = play_typed("gobble", config, &mut screen, 1, &["zzzq"]);
        assert_eq!(how, End::Over, "{out}");
        assert!(out.contains("✗"), "{out}");
        assert!(out.contains("You stopped searching."), "{out}");
        assert!(out.contains("Round over."), "{out}");
        let record = game.record_json();
        assert!(
            record["actions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["actor"] != json!("referee") && a["action"]["type"] == "enter"),
            "the computer player entered words: {record}"
        );
    }

    /// Two people at a table with hidden hands: each takes the keyboard
    /// before their hand is shown; /quit stops the game.
    #[test]
    fn hidden_hands_wait_for_their_player() {
        let mut screen = crate::wordchain_play::Screen { humans: 2 };
        let (how, out, _) = play_typed(
            "wordchain",
            json!({"hand": 7, "consonants": 4}),
            &mut screen,
            2,
            &["", "/quit"],
        );
        assert_eq!(how, End::Quit, "{out}");
        assert!(out.contains("take the keyboard and press Enter"), "{out}");
    }

    /// Each game's screen, for computer players only, and small rules.
    fn table(name: &str, seats: usize) -> (Box<dyn Screen>, Value) {
        let names: Vec<String> = (0..seats).map(|s| format!("bot {}", s + 1)).collect();
        match name {
            "sprouts" => (
                Box::new(crate::sprouts_play::Screen {
                    spots: 3,
                    misere: false,
                    against: None,
                }),
                json!({"spots": 3}),
            ),
            "twingrid" => (
                Box::new(crate::twingrid::Screen {
                    human: None,
                    printed: 0,
                }),
                json!({"turns": 3}),
            ),
            "wordchain" => (
                Box::new(crate::wordchain_play::Screen { humans: 0 }),
                json!({"hand": 7, "consonants": 4, "target": 100}),
            ),
            "wordsprout" => (
                Box::new(crate::wordsprout::play::Screen {
                    names,
                    hints: false,
                }),
                json!({}),
            ),
            "gobble" => (
                Box::new(crate::gobble::PlayScreen {
                    names,
                    level: Level::Easy,
                    tty: false,
                    status_shown: false,
                }),
                json!({"seats": 2, "seconds": 60, "keyphrase": "abacus abdomen abide zoom"}),
            ),
            other => panic!("{other} has no terminal screen: give it one here"),
        }
    }

    /// Every registered game, computer players in every seat, through the
    /// one loop to its end: turns, Gobble's simultaneous round and its
    /// clock (skipped ahead, nobody being at the table), the end and the
    /// record, which replays.
    #[test]
    fn every_registered_game_plays_to_its_end_with_computer_players() {
        let registry = crate::games::registry();
        let resources = Resources::embedded();
        let dir = std::env::temp_dir().join(format!("parlor-host-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in registry.names() {
            let entry = registry.get(name).unwrap();
            let (_, config) = table(name, 2);
            let mut config_all = entry.default_config();
            for (k, v) in config.as_object().unwrap() {
                config_all[k] = v.clone();
            }
            let mut game = entry.new_match(&config_all, 5, &resources).unwrap();
            let seats = game.seats();
            let (mut screen, _) = table(name, seats);
            let agents = (0..seats)
                .map(|s| {
                    Some(
                        game.agent(Seat(s), Level::Easy, 9 + s as u64, &resources)
                            .unwrap(),
                    )
                })
                .collect();
            let record = dir.join(format!("{name}.json"));
            let mut out = Vec::new();
            let how = play(
                &mut *game,
                agents,
                &mut *screen,
                &mut NoInput,
                &mut out,
                &mut Clock::still(),
                &Options {
                    budget: Budget::nodes(20_000),
                    record: Some(record.clone()),
                },
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            let text = String::from_utf8_lossy(&out);
            assert_eq!(how, End::Over, "{name}: {text}");
            assert!(game.outcome().is_some(), "{name}");
            assert!(game.actions_len() > 0, "{name}");
            assert!(text.contains("record written to"), "{name}: {text}");
            let saved: Value =
                serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
            let again = registry.replay(&saved, &resources).unwrap();
            assert_eq!(again.actions_len(), game.actions_len(), "{name}");
            assert_eq!(again.outcome(), game.outcome(), "{name}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
