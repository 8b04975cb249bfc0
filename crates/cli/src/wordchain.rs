//! `parlor wordchain ...`: a word's score step by step, the best plays of a
//! hand, and a game at the terminal.

use crate::dict::DictArgs;
use anyhow::{bail, Context, Result};
use parlor_wordchain::best::{self, Limits, Play};
use parlor_wordchain::card::{parse_cards, Card, CardText};
use parlor_wordchain::scoring::{self, LinkBonus, ScoreRules, Scoring};
use serde_json::json;
use std::process::ExitCode;

/// WORDCHAIN commands.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Score one word given as cards in order (`Kh Nd Oc Ps`, Multicards
    /// named: `*Eh`), printing each step; the last line is `score: N`.
    Score(ScoreArgs),
    /// The best plays from a hand on a link card, by score and by tactical
    /// value: `best --hand Kh Nd *  Oc --link Ps`.
    Best(BestArgs),
    /// A full game at this terminal: hidden hands, computer players, every
    /// house rule selectable.
    Play(crate::wordchain_play::PlayArgs),
    /// Computer players against each other: win rates between two levels
    /// over many games (seats swapped every game).
    Selfplay(SelfplayArgs),
}

#[derive(clap::Args)]
struct SelfplayArgs {
    #[command(flatten)]
    common: crate::selfplay::Options,
    /// Dice: 0, 1 or 2.
    #[arg(long, default_value_t = 0)]
    dice: u8,
}

/// Scoring options shared by the commands.
#[derive(clap::Args, Clone, Debug)]
pub struct RuleArgs {
    /// Simple scoring: a point a card, no bonuses or penalties.
    #[arg(long)]
    pub simple: bool,
    /// Rule M's agreed number of cards (default 8).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub long_word: usize,
    /// Rule J, "a word that is on the link card": `same_letter` (a word
    /// that begins on the link card and ends on its letter; the default),
    /// `link_first` (every word that begins on the link card) or `off`.
    #[arg(long, value_name = "READING", value_parser = parse_link_bonus, conflicts_with = "no_link_bonus")]
    pub link_bonus: Option<LinkBonus>,
    /// No link bonus (rule J): `--link-bonus off`.
    #[arg(long)]
    pub no_link_bonus: bool,
}

fn parse_link_bonus(text: &str) -> Result<LinkBonus, String> {
    LinkBonus::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = LinkBonus::ALL.iter().map(|(_, n)| *n).collect();
        format!("{text:?}: one of {}", names.join(", "))
    })
}

impl RuleArgs {
    /// The scoring rules these options choose.
    pub fn rules(&self) -> Result<ScoreRules> {
        if !(2..=30).contains(&self.long_word) {
            bail!("--long-word {}: 2 to 30 cards", self.long_word);
        }
        Ok(ScoreRules {
            scoring: if self.simple {
                Scoring::Simple
            } else {
                Scoring::Standard
            },
            link_bonus: if self.no_link_bonus {
                LinkBonus::Off
            } else {
                self.link_bonus.unwrap_or_default()
            },
            long_word: self.long_word,
        })
    }
}

#[derive(clap::Args)]
struct ScoreArgs {
    /// The word's cards in order, the link card among them (`Kh Nd Oc Ps`;
    /// commas also separate).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = false)]
    cards: Vec<String>,
    /// Where the link card stands, from 0.
    #[arg(long, default_value_t = 0)]
    link_index: usize,
    /// Cards left in the player's hand after the play (0 earns the
    /// all-cards bonuses). Default: some left.
    #[arg(long, value_name = "N")]
    hand_left: Option<usize>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Print JSON: `{"score": N, "steps": [...]}`.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct BestArgs {
    /// The hand's cards (`Kh Nd * Oc`).
    #[arg(long, required = true, num_args = 1..)]
    hand: Vec<String>,
    /// The link card (`Ps`, or `*` for a Multicard the player names).
    #[arg(long)]
    link: String,
    /// How many plays of each ranking to print.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// The most cards the word may take from the hand (a dice throw).
    #[arg(long, value_name = "N")]
    max_from_hand: Option<usize>,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON: `{"by_score": [...], "by_tactical": [...], "plays": N}`.
    #[arg(long)]
    json: bool,
    /// Measure: run the search this many times and report the median
    /// time of one (wall and this thread's CPU), as `bench` commands do.
    #[arg(long, value_name = "N", default_value_t = 1)]
    repeat: u32,
}

/// This thread's CPU time in seconds (Linux), for measurements on a
/// shared machine where wall time is noise.
fn thread_cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec we own.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
    }
    0.0
}

/// Runs a WORDCHAIN command.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.cmd {
        Cmd::Score(a) => score(a),
        Cmd::Best(a) => best_plays(a),
        Cmd::Play(a) => crate::wordchain_play::run(a),
        Cmd::Selfplay(a) => selfplay(a),
    }
}

fn selfplay(a: SelfplayArgs) -> Result<ExitCode> {
    use crate::selfplay::{play_one, Tally};
    use parlor_wordchain::{Action, Config, WordChain};
    let (levels, resources, lexicon) = a.common.prepare()?;
    let config = Config {
        lexicon,
        dice: a.dice,
        ..Config::default()
    };
    config.check()?;
    let mut tally = Tally::default();
    for i in 0..a.common.games {
        let (seed, by_seat, swap) = a.common.game(i, levels);
        let m = play_one::<WordChain>(
            &config,
            seed,
            &resources,
            by_seat,
            &[Action::Pass, Action::Accept],
        )?;
        let s = m.state().scores();
        let (first, second) = if swap { (s[1], s[0]) } else { (s[0], s[1]) };
        tally.add(first, second);
    }
    if a.common.json {
        println!("{}", tally.json(levels));
    } else {
        println!("{}", tally.line(levels));
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads cards given as several arguments, each of which may hold several.
pub fn read_cards(args: &[String]) -> Result<Vec<CardText>> {
    if args.iter().map(String::len).sum::<usize>() > 2000 {
        bail!("too many cards: at most 2,000 characters of cards");
    }
    let mut out = Vec::new();
    for a in args {
        out.extend(parse_cards(a)?);
    }
    Ok(out)
}

fn score(a: ScoreArgs) -> Result<ExitCode> {
    let rules = a.rules.rules()?;
    let texts = read_cards(&a.cards)?;
    if texts.len() < 2 || texts.len() > parlor_wordchain::MAX_WORD_CARDS {
        bail!(
            "a word is 2 to {} cards (the link card and cards from the hand), not {}",
            parlor_wordchain::MAX_WORD_CARDS,
            texts.len()
        );
    }
    if a.link_index >= texts.len() {
        bail!(
            "--link-index {}: the word has {} cards, so 0 to {}",
            a.link_index,
            texts.len(),
            texts.len() - 1
        );
    }
    let cards = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.played().with_context(|| {
                format!(
                    "card {} is a Multicard: name its letter and suit, as *Eh",
                    i + 1
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let b = scoring::score(&cards, a.link_index, a.hand_left.unwrap_or(1), &rules);
    let word: String = cards.iter().map(|c| c.letter.upper()).collect();
    if a.json {
        println!(
            "{}",
            json!({"word": word, "cards": cards, "link_index": a.link_index, "score": b.score, "steps": b.steps})
        );
    } else {
        println!("{word}");
        for s in &b.steps {
            println!("  {} {:<60} {:>5}", s.rule, s.what, s.total);
        }
        println!("score: {}", b.score);
    }
    Ok(ExitCode::SUCCESS)
}

fn card_of(t: CardText, what: &str) -> Result<Card> {
    match t {
        CardText::Multi(Some(_)) => {
            bail!("{what}: a Multicard in hand is written * (it is named when played)")
        }
        t => Ok(t.card()),
    }
}

fn best_plays(a: BestArgs) -> Result<ExitCode> {
    let rules = a.rules.rules()?;
    let hand = read_cards(&a.hand)?
        .into_iter()
        .map(|t| card_of(t, "--hand"))
        .collect::<Result<Vec<_>>>()?;
    if hand.is_empty() || hand.len() > 60 {
        bail!("--hand: 1 to 60 cards, not {}", hand.len());
    }
    let link = match parse_cards(&a.link)?.as_slice() {
        [t] => card_of(*t, "--link")?,
        other => bail!("--link: one card, not {}", other.len()),
    };
    let lexicon = a.dict.load()?;
    let limits = Limits {
        max_from_hand: a.max_from_hand.unwrap_or(usize::MAX),
    };
    if !(1..=10_000).contains(&a.repeat) {
        bail!("--repeat {}: 1 to 10000", a.repeat);
    }
    let index = best::index(&lexicon);
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let mut result = None;
    for _ in 0..a.repeat {
        let (started, cpu) = (std::time::Instant::now(), thread_cpu_seconds());
        let found = best::search(&index, &hand, link, &rules, limits);
        let by_score: Vec<Play> = found.by_score(a.top);
        let by_tactical: Vec<Play> = found.by_tactical(a.top);
        cpus.push(thread_cpu_seconds() - cpu);
        walls.push(started.elapsed().as_secs_f64());
        result = Some((found.candidates.len(), by_score, by_tactical));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (seconds, cpu_seconds) = (median(&mut walls), median(&mut cpus));
    let Some((count, by_score, by_tactical)) = result else {
        bail!("nothing was searched");
    };
    if a.json {
        println!(
            "{}",
            json!({
                "plays": count,
                "by_score": by_score,
                "by_tactical": by_tactical,
                "seconds": seconds,
                "cpu_seconds": cpu_seconds,
                "repeat": a.repeat,
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    if count == 0 {
        println!("no word can be formed from this hand on {link}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{count} plays ({:.1} ms, {:.1} ms of CPU{})",
        seconds * 1000.0,
        cpu_seconds * 1000.0,
        if a.repeat > 1 { ", medians" } else { "" }
    );
    for (title, list) in [("by score", &by_score), ("by tactical value", &by_tactical)] {
        println!("{title}:");
        for p in list {
            let cards: Vec<String> = p.cards.iter().map(|c| c.to_string()).collect();
            println!(
                "  {:<14} {:>4} points  tactical {:>4}  {}{}",
                p.word.to_uppercase(),
                p.score,
                p.tactical,
                cards.join(" "),
                if p.link == 0 {
                    String::new()
                } else {
                    format!("  (link card {})", p.link + 1)
                }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
