//! `parlor wordchain play`: a game at the terminal. Hands are hidden: with
//! more than one person at the keyboard, each turn waits for its player
//! to take the keyboard before the hand is shown.

use crate::dict::DictArgs;
use crate::host::{self, At, End, Typed};
use crate::wordchain::{read_cards, RuleArgs};
use anyhow::{bail, Context, Result};
use parlor_core::{
    events_seen_by, Actor, Budget, DynAgent, DynMatch, Game, Level, Match, Seat, Viewer,
};
use parlor_wordchain::best;
use parlor_wordchain::card::{Card, CardText};
use parlor_wordchain::config::Discards;
use parlor_wordchain::{Action, Config, Event, LogEntry, View, WordCards, WordChain};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `wordchain play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// Players at the table, 2 to 8.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// How many of them the computer plays (the last seats).
    #[arg(long, default_value_t = 1)]
    bots: usize,
    /// The computer's level: easy, medium, hard or best.
    #[arg(long, default_value = "best")]
    level: String,
    /// Cards dealt to each player.
    #[arg(long, default_value_t = 12)]
    hand: usize,
    /// Of those, how many from the consonant deck.
    #[arg(long, default_value_t = 6)]
    consonants: usize,
    /// One combined deck.
    #[arg(long)]
    one_deck: bool,
    /// A house pack file (the format of data/wordchain/deck.txt).
    #[arg(long, value_name = "FILE")]
    deck: Option<std::path::PathBuf>,
    /// Dice: 0, 1 or 2.
    #[arg(long, default_value_t = 0)]
    dice: u8,
    /// No challenges (and no bluffing): words are checked as they are played.
    #[arg(long)]
    no_challenges: bool,
    /// Each word may be played once.
    #[arg(long)]
    once_only: bool,
    /// Two-word names allowed (typed with a space: vice versa).
    #[arg(long)]
    two_word_names: bool,
    /// The agreed score that ends the game; 0 for none.
    #[arg(long, default_value_t = 1000)]
    target: u32,
    /// The game ends after this many turns in all.
    #[arg(long, default_value_t = 400)]
    turn_limit: u32,
    /// Deals (rounds); the deal moves to the left.
    #[arg(long, default_value_t = 1)]
    deals: u32,
    /// Shuffle played cards back when a deck runs out.
    #[arg(long)]
    reshuffle: bool,
    /// Suit seniority at the cut.
    #[arg(long)]
    seniority: bool,
    /// Cards left in hand at the end count against their holder.
    #[arg(long)]
    count_hand: bool,
    /// Teams as seat lists from 1: `1,3/2,4`.
    #[arg(long)]
    teams: Option<String>,
    /// House rule: a full round of passes ends the deal (without it the
    /// deal ends for want of words only when no hand can form one).
    #[arg(long)]
    passes_end: bool,
    /// The whole table's rules as JSON, as `parlor games` and the API show
    /// them (`{"players": 3, "dice": 2, "target": 500}`; fields left out
    /// take their defaults); replaces the rule options above.
    #[arg(long, value_name = "JSON")]
    rules_json: Option<String>,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    dict: DictArgs,
    /// Seed of the shuffles and dice (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the game's record here at the end (for `parlor replay`).
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
}

fn parse_teams(text: &str, players: usize) -> Result<Vec<Vec<usize>>> {
    text.split('/')
        .map(|team| {
            team.split(',')
                .map(|s| {
                    let n: usize = s.trim().parse().with_context(|| {
                        format!("--teams {text:?}: seats from 1 to {players}, as 1,3/2,4")
                    })?;
                    if n == 0 || n > players {
                        bail!("--teams {text:?}: seats from 1 to {players}, as 1,3/2,4");
                    }
                    Ok(n - 1)
                })
                .collect()
        })
        .collect()
}

/// Plays a game at the terminal.
pub fn run(a: PlayArgs) -> Result<ExitCode> {
    if a.bots > a.players {
        bail!("--bots {}: at most the {} players", a.bots, a.players);
    }
    let level: Level = a.level.parse().map_err(anyhow::Error::msg)?;
    let (resources, lexicon) = a.dict.resources()?;
    let rules = a.rules.rules()?;
    let deck = match &a.deck {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .with_context(|| format!("cannot read the pack {}", p.display()))?,
        ),
        None => None,
    };
    let config = Config {
        players: a.players,
        lexicon,
        deck,
        one_deck: a.one_deck,
        hand: a.hand,
        consonants: a.consonants,
        scoring: rules.scoring,
        link_bonus: rules.link_bonus,
        long_word: rules.long_word,
        dice: a.dice,
        challenges: !a.no_challenges,
        once_only: a.once_only,
        two_word_names: a.two_word_names,
        target: (a.target > 0).then_some(a.target),
        turn_limit: a.turn_limit,
        minutes: None,
        deals: a.deals,
        discards: if a.reshuffle {
            Discards::Reshuffle
        } else {
            Discards::Aside
        },
        seniority: a.seniority,
        count_hand: a.count_hand,
        teams: match &a.teams {
            Some(t) => parse_teams(t, a.players)?,
            None => Vec::new(),
        },
        passes_end: a.passes_end,
    };
    let config = match &a.rules_json {
        None => config,
        Some(text) => {
            if text.len() > 10_000 {
                bail!("--rules-json: at most 10,000 characters");
            }
            let mut c: Config = serde_json::from_str(text).map_err(|e| {
                anyhow::anyhow!("--rules-json: {e}; the fields are those of `parlor games`")
            })?;
            if a.dict.dict.is_some() || a.dict.lexicon.is_some() {
                c.lexicon = config.lexicon;
            }
            if a.bots > c.players {
                bail!(
                    "--bots {}: at most the table's {} players",
                    a.bots,
                    c.players
                );
            }
            c
        }
    };
    let a = PlayArgs {
        players: config.players,
        ..a
    };
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
            ^ u64::from(std::process::id()).rotate_left(32)
    });
    let mut game: Match<WordChain> = Match::new(config.clone(), seed, &resources)?;
    let humans = a.players - a.bots;
    let agents: Vec<Option<Box<dyn DynAgent>>> = (0..a.players)
        .map(|s| {
            (s >= humans)
                .then(|| game.agent(Seat(s), level, seed.wrapping_add(s as u64), &resources))
                .transpose()
        })
        .collect::<Result<_, _>>()?;
    let mut screen = Screen { humans };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "WORDCHAIN: {} players, {} of them the computer ({level:?}).",
        a.players, a.bots
    )?;
    host::play_at_terminal(
        &mut game,
        agents,
        &mut screen,
        &mut out,
        &host::Options {
            budget: Budget::time(Duration::from_secs(2)),
            record: a.record.clone(),
        },
    )
}

/// WORDCHAIN at the terminal: the table as the seat to act sees it, words
/// typed (the cards chosen for the best score) or cards themselves.
pub struct Screen {
    /// The first `humans` seats are people's.
    pub(crate) humans: usize,
}

impl Screen {
    fn who(&self, s: usize) -> String {
        if s >= self.humans {
            format!("Computer {}", s + 1)
        } else if self.humans == 1 {
            format!("Player {} (you)", s + 1)
        } else {
            format!("Player {}", s + 1)
        }
    }
}

impl host::Screen for Screen {
    fn name(&self, _: &At<'_>, seat: Seat) -> String {
        self.who(seat.0)
    }

    fn intro(&mut self, at: &At<'_>, out: &mut dyn Write) -> Result<()> {
        writeln!(
            out,
            "On your turn type a word (cat) and the cards are chosen for the best score, \
             or the cards themselves (Ch *Ah Tc); add a number to draw that many consonants (cat 2); \
             two words on a double: cat + cow. /pass, /five [N], /display, /hint, /log, /quit; /help."
        )?;
        print_events(at.typed::<WordChain>(), 0, &|s| self.who(s), out)?;
        Ok(())
    }

    fn turn(&mut self, at: &At<'_>, seat: Seat, person: bool, out: &mut dyn Write) -> Result<bool> {
        if !person {
            return Ok(false);
        }
        let view = at.typed::<WordChain>().state().view(Viewer::Seat(seat));
        show(&view, seat.0, &|s| self.who(s), out)?;
        Ok(true)
    }

    fn read(&mut self, at: &At<'_>, seat: Seat, line: &str) -> Typed {
        let state = at.typed::<WordChain>().state();
        let view = state.view(Viewer::Seat(seat));
        match read_action(line, &view, state) {
            Ok(Input::Action(act)) => Typed::act(seat, &act),
            Ok(Input::Quit) => Typed::Quit,
            Ok(Input::Say(text)) => Typed::Say(text),
            Err(e) => Typed::Say(e.to_string()),
        }
    }

    fn events(&mut self, at: &At<'_>, _: Actor, from: usize, out: &mut dyn Write) -> Result<bool> {
        print_events(at.typed::<WordChain>(), from, &|s| self.who(s), out)?;
        Ok(true)
    }

    fn fallback(&self, _: &At<'_>, _: Seat) -> Vec<serde_json::Value> {
        [Action::Pass, Action::Accept]
            .iter()
            .filter_map(|a| serde_json::to_value(a).ok())
            .collect()
    }

    fn hands_hidden(&self) -> bool {
        true
    }

    /// The table again after a refusal, as before every move.
    fn redraws_after_refusal(&self) -> bool {
        true
    }

    fn end(&mut self, at: &At<'_>, how: End, out: &mut dyn Write) -> Result<()> {
        if how != End::Over {
            return Ok(());
        }
        let s = at.typed::<WordChain>().state();
        writeln!(
            out,
            "\nGame over: {}",
            s.view(Viewer::Spectator).over.unwrap_or_default()
        )?;
        if let Some(o) = s.outcome() {
            for (place, seats) in o.ranking.iter().enumerate() {
                for seat in seats {
                    writeln!(
                        out,
                        "  {}. {:<12} {:>6}",
                        place + 1,
                        self.who(seat.0),
                        s.scores()[seat.0]
                    )?;
                }
            }
        }
        Ok(())
    }
}

enum Input {
    Action(Action),
    Say(String),
    Quit,
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn show(
    view: &View,
    seat: usize,
    name: &dyn Fn(usize) -> String,
    out: &mut dyn Write,
) -> Result<()> {
    writeln!(out)?;
    for (s, sv) in view.seats.iter().enumerate() {
        let hand = match (&sv.hand, s == seat) {
            (Some(h), _) => cards_text(h),
            (None, _) => format!("{} cards, hidden", sv.cards),
        };
        writeln!(out, "  {:<12} {:>6} points  {hand}", name(s), sv.score)?;
    }
    writeln!(
        out,
        "  decks: {} consonants, {} vowels   link card: {}",
        view.decks[0],
        view.decks[1],
        view.link.map(|c| c.to_string()).unwrap_or("-".into())
    )?;
    if let Some(d) = &view.dice {
        writeln!(
            out,
            "  dice: {:?}: up to {} cards from your hand{}",
            d,
            view.max_from_hand.unwrap_or(0),
            if view.double {
                " (a double: two words allowed, each up to one die)"
            } else {
                ""
            }
        )?;
    }
    if let Some(p) = &view.pending {
        let words: Vec<String> = p.words.iter().map(|w| w.word.to_uppercase()).collect();
        writeln!(
            out,
            "  {} played {} for {} points: /accept or /challenge",
            name(p.seat),
            words.join(" + "),
            p.score
        )?;
    }
    Ok(())
}

fn read_action(line: &str, view: &View, state: &WordChain) -> Result<Input> {
    let line = line.trim();
    if line.len() > 500 {
        bail!("that line is too long: a word or a command");
    }
    let mut parts = line.split_whitespace();
    let head = parts.next().unwrap_or("");
    let num = |p: Option<&str>| -> Result<Option<usize>> {
        p.map(|n| {
            n.parse::<usize>()
                .with_context(|| format!("{n:?} is not a number of cards"))
        })
        .transpose()
    };
    match head {
        "" => return Ok(Input::Say(String::new())),
        "/quit" => return Ok(Input::Quit),
        "/help" => {
            return Ok(Input::Say(
                "a word (cat), or cards (Ch *Ah Tc: the link card where it stands), then optionally the \
                 number of cards to draw from the consonant deck; two words on a double: cat + cow. \
                 /pass, /five [N] (once a game), /accept, /challenge, /display, /hint, /log, /quit"
                    .into(),
            ))
        }
        "/pass" => return Ok(Input::Action(Action::Pass)),
        "/five" => {
            return Ok(Input::Action(Action::FiveCards {
                consonants: num(parts.next())?,
            }))
        }
        "/accept" => return Ok(Input::Action(Action::Accept)),
        "/challenge" => return Ok(Input::Action(Action::Challenge)),
        "/display" => return Ok(Input::Action(Action::Display)),
        "/log" => {
            let mut out = String::new();
            for (i, e) in view.log.iter().enumerate() {
                out.push_str(&format!("{:>4}. {}\n", i + 1, log_line(e)));
            }
            return Ok(Input::Say(out));
        }
        "/hint" => {
            let (Some(hand), Some(link)) = (&view.hand, view.link) else {
                bail!("no hand to look at");
            };
            let limits = best::Limits {
                max_from_hand: view.max_from_hand.unwrap_or(usize::MAX),
            };
            let found = best::search(state.word_index(), hand, link, state.score_rules(), limits);
            let top: Vec<String> = found
                .by_score(5)
                .iter()
                .map(|p| format!("{} ({})", p.word.to_uppercase(), p.score))
                .collect();
            return Ok(Input::Say(format!("best: {}", top.join(", "))));
        }
        h if h.starts_with('/') => bail!("{h:?} is not a command: /help lists them"),
        _ => {}
    }
    if view.phase == "challenge" {
        bail!("a play is on the table: /accept or /challenge");
    }
    let (Some(hand), Some(link)) = (&view.hand, view.link) else {
        bail!("it is not your turn");
    };
    // "word [N]" or "word + word [N]", or the cards themselves.
    let mut draw = None;
    let mut words_text: Vec<String> = line.split('+').map(|s| s.trim().to_string()).collect();
    if let Some(last) = words_text.last_mut() {
        let mut tokens: Vec<&str> = last.split_whitespace().collect();
        if tokens.len() > 1 {
            if let Ok(n) = tokens[tokens.len() - 1].parse::<usize>() {
                draw = Some(n);
                tokens.pop();
                *last = tokens.join(" ");
            }
        }
    }
    let mut words = Vec::new();
    let mut left = hand.clone();
    for text in &words_text {
        let is_cards =
            text.split_whitespace().count() > 1 || CardText::parse(text).is_ok() && text.len() <= 3;
        if is_cards && text.split_whitespace().all(|t| CardText::parse(t).is_ok()) {
            let cards = read_cards(std::slice::from_ref(text))?;
            let at = cards
                .iter()
                .position(|c| c.card() == link)
                .with_context(|| format!("the cards must include the link card {link}"))?;
            words.push(WordCards {
                cards,
                link: at,
                space: None,
            });
        } else {
            // A two-word name (where agreed): spelt as one, split after its first word.
            let space = text
                .find(' ')
                .filter(|_| state.rules_config().two_word_names);
            let joined: String = text.split_whitespace().collect();
            let text = &joined;
            let play =
                best::for_word(text, &left, link, state.score_rules()).with_context(|| {
                    format!("{text:?} cannot be spelt from your hand and the link card {link}")
                })?;
            for (i, c) in play.cards.iter().enumerate() {
                if i != play.link {
                    if let Some(k) = left.iter().position(|h| *h == c.card) {
                        left.remove(k);
                    }
                }
            }
            words.push(WordCards {
                cards: play.cards.iter().map(|c| c.text()).collect(),
                link: play.link,
                space,
            });
        }
    }
    Ok(Input::Action(Action::Play {
        words,
        consonants: draw,
    }))
}

fn log_line(e: &LogEntry) -> String {
    match e {
        LogEntry::Play {
            seat,
            words,
            score,
            challenge,
            ..
        } => {
            let w: Vec<String> = words.iter().map(|w| w.word.to_uppercase()).collect();
            let c = match challenge {
                Some((by, true)) => format!(", challenged by player {} and taken back", by + 1),
                Some((by, false)) => format!(", challenged by player {} in vain", by + 1),
                None => String::new(),
            };
            format!("player {}: {} for {score}{c}", seat + 1, w.join(" + "))
        }
        LogEntry::Pass { seat } => format!("player {} passed", seat + 1),
        LogEntry::FiveCards { seat } => format!("player {} took five cards", seat + 1),
    }
}

/// Prints what everyone at the table may see of the events since `from`.
fn print_events(
    game: &Match<WordChain>,
    from: usize,
    name: &dyn Fn(usize) -> String,
    out: &mut dyn Write,
) -> Result<()> {
    for step in game.history().get(from..).unwrap_or_default() {
        for e in events_seen_by::<WordChain>(step, Viewer::Spectator) {
            let line = match e {
                Event::Cut { dealer, .. } => {
                    format!("{} cut closest to A and deals.", name(dealer))
                }
                Event::NewDeal { deal, dealer } => {
                    format!("Deal {deal}, dealer: {}.", name(dealer))
                }
                Event::LinkTurned { card } => format!("The first link card: {card}."),
                Event::Thrown { seat, dice } => format!("Dice for {}: {dice:?}.", name(seat)),
                Event::Played {
                    seat,
                    words,
                    score,
                    pending,
                } => {
                    let mut s = String::new();
                    for w in &words {
                        let cards: Vec<String> = w.cards.iter().map(|c| c.to_string()).collect();
                        s.push_str(&format!(
                            "{} plays {} ({}):\n",
                            name(seat),
                            w.word.to_uppercase(),
                            cards.join(" ")
                        ));
                        for st in &w.breakdown.steps {
                            s.push_str(&format!(
                                "    {} {:<58} {:>5}\n",
                                st.rule, st.what, st.total
                            ));
                        }
                    }
                    s.push_str(&format!(
                        "  {score} points{}",
                        if pending {
                            ", if nobody challenges"
                        } else {
                            ""
                        }
                    ));
                    s
                }
                Event::Accepted { .. } => continue,
                Event::Challenged {
                    by,
                    seat,
                    upheld,
                    invalid,
                    score,
                } => {
                    if upheld {
                        format!(
                            "{} challenges: {} not in the dictionary; {} gains {score}, {} takes the cards back.",
                            name(by),
                            invalid.join(", "),
                            name(by),
                            name(seat)
                        )
                    } else {
                        format!(
                            "{} challenges in vain: {} loses {score}, {} scores it again.",
                            name(by),
                            name(by),
                            name(seat)
                        )
                    }
                }
                Event::Scored { .. } | Event::Dealt { .. } => continue,
                Event::Link { card } => format!("New link card: {card}."),
                Event::Drew {
                    seat,
                    consonants,
                    vowels,
                    ..
                } => {
                    format!(
                        "{} draws {consonants} consonant(s), {vowels} vowel-deck card(s).",
                        name(seat)
                    )
                }
                Event::Reshuffled { deck, count } => {
                    format!("The {deck} deck is empty: {count} played cards shuffled back.")
                }
                Event::FiveCards { seat } => format!("{} takes five extra cards.", name(seat)),
                Event::Passed { seat } => format!("{} passes.", name(seat)),
                Event::Displayed { seat, cards } => format!(
                    "{} lays their hand down: {}.",
                    name(seat),
                    cards_text(&cards)
                ),
                Event::DealOver { reason } => format!("The deal is over: {reason}."),
                Event::GameOver { reason } => format!("The game is over: {reason}."),
            };
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
