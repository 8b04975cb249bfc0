//! Computer players against each other: what the games' `selfplay`
//! commands share (the levels, one game played out, the tally).

use crate::dict::DictArgs;
use anyhow::{bail, Result};
use parlor_core::selfplay::{agents_for, play_out};
use parlor_core::{Game, Level, Match, Resources, Seed};

/// The options every `selfplay` command takes.
#[derive(clap::Args)]
pub struct Options {
    /// The two levels, as `best,medium`.
    #[arg(long, default_value = "best,medium")]
    pub levels: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// First seed (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub dict: DictArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

impl Options {
    /// The two levels, the resources with the chosen word list and its
    /// name, after checking the options.
    pub fn prepare(&self) -> Result<([Level; 2], Resources, String)> {
        let levels = levels(&self.levels)?;
        check_games(self.games)?;
        let (resources, lexicon) = self.dict.resources()?;
        Ok((levels, resources, lexicon))
    }

    /// Game `i`'s seed, its levels by seat (they swap seats every game),
    /// and whether they are swapped.
    pub fn game(&self, i: u64, levels: [Level; 2]) -> (Seed, [Level; 2], bool) {
        let swap = i % 2 == 1;
        let by_seat = if swap { [levels[1], levels[0]] } else { levels };
        (self.seed.wrapping_add(i), by_seat, swap)
    }
}

/// Two levels written `best,medium`.
fn levels(text: &str) -> Result<[Level; 2]> {
    let levels: Vec<Level> = text
        .split(',')
        .map(|l| l.trim().parse().map_err(anyhow::Error::msg))
        .collect::<Result<_>>()?;
    match levels[..] {
        [a, b] => Ok([a, b]),
        _ => bail!("--levels {text:?}: two levels, as best,medium"),
    }
}

/// Checks a number of games.
fn check_games(games: u64) -> Result<()> {
    if games == 0 || games > 100_000 {
        bail!("--games {games}: 1 to 100000");
    }
    Ok(())
}

/// Plays one two-seat game to its end with `by_seat[s]`'s agent in seat
/// `s`. An action the game refuses is replaced by the first of `fallback`
/// it accepts (a bot's choice should never be refused; if it is, the game
/// still ends).
pub fn play_one<G: Game>(
    config: &G::Config,
    seed: Seed,
    resources: &Resources,
    by_seat: [Level; 2],
    fallback: &[G::Action],
) -> Result<Match<G>> {
    let mut m: Match<G> = Match::new(config.clone(), seed, resources)?;
    let mut agents = agents_for(&m, &by_seat, seed, resources)?;
    play_out(&mut m, &mut agents, fallback, |_| {
        std::ops::ControlFlow::Continue(())
    })
    .map_err(|e| anyhow::anyhow!("seed {seed}: {e}"))?;
    Ok(m)
}

/// Wins, ties and points of two levels over many games.
#[derive(Default)]
pub struct Tally {
    /// Games won by each level.
    pub wins: [u64; 2],
    /// Games tied.
    pub ties: u64,
    /// Points scored by each level in all.
    pub points: [i64; 2],
    /// Games counted.
    pub games: u64,
}

impl Tally {
    /// Counts one game in which the levels scored `a` and `b`.
    pub fn add(&mut self, a: i64, b: i64) {
        self.games += 1;
        self.points[0] += a;
        self.points[1] += b;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => self.wins[0] += 1,
            std::cmp::Ordering::Less => self.wins[1] += 1,
            std::cmp::Ordering::Equal => self.ties += 1,
        }
    }

    /// One line: `100 games: Best won 60 (60.0%), ...`.
    pub fn line(&self, levels: [Level; 2]) -> String {
        let n = self.games.max(1) as f64;
        format!(
            "{} games: {:?} won {} ({:.1}%), {:?} won {} ({:.1}%), {} tied; mean points {:.0} to {:.0}",
            self.games,
            levels[0],
            self.wins[0],
            100.0 * self.wins[0] as f64 / n,
            levels[1],
            self.wins[1],
            100.0 * self.wins[1] as f64 / n,
            self.ties,
            self.points[0] as f64 / n,
            self.points[1] as f64 / n
        )
    }

    /// As JSON.
    pub fn json(&self, levels: [Level; 2]) -> serde_json::Value {
        let n = self.games.max(1) as f64;
        serde_json::json!({
            "games": self.games,
            "levels": [format!("{:?}", levels[0]).to_lowercase(), format!("{:?}", levels[1]).to_lowercase()],
            "wins": self.wins,
            "ties": self.ties,
            "mean_points": [self.points[0] as f64 / n, self.points[1] as f64 / n],
        })
    }
}
