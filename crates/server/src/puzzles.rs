//! The puzzles the server offers and the day's challenges among them.
//!
//! The server is given its puzzle sets at start (the `parlor` binary
//! embeds the sets under `data/puzzles/`). A set is a game's kind of
//! puzzle (`sprouts/normal-5`), in the order its file lists them: the
//! day's challenge of a set is its place [`parlor_core::of_the_day`] draws
//! for the day's date in UTC, so every process with the same sets, and
//! every restart, offers the same challenge. The operator may replace a
//! day's choice ([`Puzzles::replace_day`], `parlor serve --daily-choice`).
//!
//! A puzzle is played as a game: the hub stores a game made from the
//! puzzle's record (the position), the solver's seat for the player and
//! the game's best computer player in every other seat, and the player
//! answers by moving there. The verdict is worked out from that game's
//! stored moves (see `crate::http_puzzles`), so a page never judges one.

use parlor_core::{Puzzle, PuzzleKind, Registry};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The sets whose puzzles make the daily challenge, when they are given:
/// Gobble's boards of both sizes and one set of every other game.
pub const DAILY_SETS: &[&str] = &[
    "gobble/longest-4x4",
    "gobble/longest-5x5",
    "wordsprout/keep-the-win",
    "sprouts/normal-5",
    "wordchain/best-score",
    "twingrid/best-word",
];

/// A puzzle as the server offers it: with its id.
#[derive(Clone, Debug)]
pub(crate) struct Offered {
    /// Its id in URLs: a hash of its game, kind and key, so it stays the
    /// same while the sets are made again around it.
    pub id: String,
    pub puzzle: Puzzle,
    /// Its kind, as its game declares it.
    pub kind: PuzzleKind,
}

/// One set: a game's kind of puzzle.
#[derive(Clone, Debug)]
pub(crate) struct Set {
    /// `game/kind`.
    pub name: String,
    pub game: String,
    pub kind: PuzzleKind,
    /// Its puzzles (places in [`Puzzles`]' list), in the order given.
    pub members: Vec<usize>,
    /// Whether it has a daily challenge.
    pub daily: bool,
    /// The median of its puzzles' proof sizes (see [`first_rating`]).
    pub median_proof: u64,
}

/// The server's puzzles (cheap to clone: shared).
#[derive(Clone, Default)]
pub struct Puzzles {
    inner: Arc<Inner>,
}

#[derive(Clone, Default)]
struct Inner {
    all: Vec<Offered>,
    by_id: HashMap<String, usize>,
    sets: Vec<Set>,
    /// The operator's choices: (day, set) -> place in `all`.
    replaced: BTreeMap<(i64, String), usize>,
}

impl std::fmt::Debug for Puzzles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Puzzles({} in {} sets)",
            self.inner.all.len(),
            self.inner.sets.len()
        )
    }
}

/// A day's challenge of one set.
pub(crate) struct Challenge<'a> {
    pub puzzle: &'a Offered,
    /// Chosen by the operator rather than drawn.
    pub replaced: bool,
}

/// The id of a puzzle: FNV-1a over its game, kind and key (a fixed,
/// documented hash, as the daily draw's), in 16 hex digits.
pub fn puzzle_id(puzzle: &Puzzle) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{}/{}/{}", puzzle.game, puzzle.kind, puzzle.key).bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Reads a set's file: one puzzle (JSON) per line, blank lines skipped.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).map_err(|e| format!("line {}: not a puzzle: {e}", n + 1))
        })
        .collect()
}

/// A date as `YYYY-MM-DD` (UTC), as days since 1970-01-01.
pub fn day_of(date: &str) -> Result<i64, String> {
    let shown: String = date.chars().take(20).collect();
    let bad = || format!("{shown:?} is not a date: write it YYYY-MM-DD, as 2026-11-29");
    let mut parts = date.split('-');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return Err(bad());
    }
    let (y, m, d): (i32, u8, u8) = (
        y.parse().map_err(|_| bad())?,
        m.parse().map_err(|_| bad())?,
        d.parse().map_err(|_| bad())?,
    );
    let month = time::Month::try_from(m).map_err(|_| bad())?;
    let date = time::Date::from_calendar_date(y, month, d).map_err(|_| bad())?;
    Ok(i64::from(date.to_julian_day()) - UNIX_EPOCH_JULIAN_DAY)
}

/// `day` (days since 1970-01-01) as `YYYY-MM-DD`.
pub fn date_of(day: i64) -> String {
    i32::try_from(day + UNIX_EPOCH_JULIAN_DAY)
        .ok()
        .and_then(|jd| time::Date::from_julian_day(jd).ok())
        .map(|d| d.to_string())
        .unwrap_or_else(|| format!("day {day}"))
}

/// The day (since 1970-01-01, UTC) of a time in ms since the epoch.
pub fn day_at(ms: i64) -> i64 {
    ms.div_euclid(86_400_000)
}

const UNIX_EPOCH_JULIAN_DAY: i64 = 2_440_588;

impl Puzzles {
    /// The puzzles given, in sets by game and kind (each set in the order
    /// given). Every puzzle must be of a game of `registry` that makes
    /// puzzles, of one of its kinds; a puzzle given twice is kept once.
    pub fn new(registry: &Registry, puzzles: Vec<Puzzle>) -> Result<Puzzles, String> {
        let mut inner = Inner::default();
        let mut set_of: HashMap<String, usize> = HashMap::new();
        for puzzle in puzzles {
            let entry = registry.get(&puzzle.game).map_err(|e| e.to_string())?;
            let book = entry
                .puzzles()
                .ok_or_else(|| format!("{} makes no puzzles", entry.info().title))?;
            let kind = book.kind(&puzzle.kind)?.clone();
            let id = puzzle_id(&puzzle);
            if inner.by_id.contains_key(&id) {
                continue;
            }
            let name = format!("{}/{}", puzzle.game, puzzle.kind);
            let set = *set_of.entry(name.clone()).or_insert_with(|| {
                inner.sets.push(Set {
                    daily: DAILY_SETS.contains(&name.as_str()),
                    name,
                    game: puzzle.game.clone(),
                    kind: kind.clone(),
                    members: Vec::new(),
                    median_proof: 0,
                });
                inner.sets.len() - 1
            });
            inner.sets[set].members.push(inner.all.len());
            inner.by_id.insert(id.clone(), inner.all.len());
            inner.all.push(Offered { id, puzzle, kind });
        }
        for set in &mut inner.sets {
            let mut sizes: Vec<u64> = set
                .members
                .iter()
                .map(|&p| inner.all[p].puzzle.proof_size)
                .collect();
            sizes.sort_unstable();
            set.median_proof = sizes.get(sizes.len() / 2).copied().unwrap_or(1);
        }
        Ok(Puzzles {
            inner: Arc::new(inner),
        })
    }

    /// Replaces the challenge of `set` (`game/kind`) on `date`
    /// (`YYYY-MM-DD`) with the puzzle `id` of that set.
    pub fn replace_day(&mut self, date: &str, set: &str, id: &str) -> Result<(), String> {
        let day = day_of(date)?;
        let inner = Arc::make_mut(&mut self.inner);
        let Some(s) = inner.sets.iter().find(|s| s.name == set) else {
            let names: Vec<&str> = inner.sets.iter().map(|s| s.name.as_str()).collect();
            return Err(format!(
                "no puzzle set {set:?}; the sets are {}",
                names.join(", ")
            ));
        };
        if !s.daily {
            return Err(format!(
                "{set} has no daily challenge; the daily sets are {}",
                DAILY_SETS.join(", ")
            ));
        }
        let place = *inner
            .by_id
            .get(id)
            .filter(|&&p| s.members.contains(&p))
            .ok_or_else(|| format!("no puzzle {id:?} in the set {set}"))?;
        inner.replaced.insert((day, set.to_string()), place);
        Ok(())
    }

    /// How many puzzles there are.
    pub fn len(&self) -> usize {
        self.inner.all.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.inner.all.is_empty()
    }

    pub(crate) fn sets(&self) -> &[Set] {
        &self.inner.sets
    }

    /// A puzzle's rating before anyone played it (see [`first_rating`]).
    pub(crate) fn first_rating_of(&self, o: &Offered) -> crate::ratings::Rating {
        let median = self
            .inner
            .sets
            .iter()
            .find(|s| s.game == o.puzzle.game && s.kind.name == o.kind.name)
            .map_or(1, |s| s.median_proof);
        first_rating(o.puzzle.proof_size, median)
    }

    /// Whether `id` is one of the day's challenges.
    pub(crate) fn is_daily(&self, day: i64, id: &str) -> bool {
        self.daily(day).iter().any(|c| c.puzzle.id == id)
    }

    pub(crate) fn get(&self, id: &str) -> Option<&Offered> {
        self.inner.by_id.get(id).map(|&p| &self.inner.all[p])
    }

    /// A puzzle of `set` (or of any set), drawn at random, other than
    /// `not` where the set has another.
    pub(crate) fn any(&self, set: Option<&str>, not: Option<&str>) -> Option<&Offered> {
        use rand::seq::SliceRandom;
        let pool: Vec<usize> = match set {
            Some(name) => self
                .inner
                .sets
                .iter()
                .find(|s| s.name == name)?
                .members
                .clone(),
            None => (0..self.inner.all.len()).collect(),
        };
        let mut rng = rand::thread_rng();
        let fresh: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&p| Some(self.inner.all[p].id.as_str()) != not)
            .collect();
        let from = if fresh.is_empty() { &pool } else { &fresh };
        from.choose(&mut rng).map(|&p| &self.inner.all[p])
    }

    /// The day's challenge of every daily set.
    pub(crate) fn daily(&self, day: i64) -> Vec<Challenge<'_>> {
        self.inner
            .sets
            .iter()
            .filter(|s| s.daily)
            .filter_map(|set| {
                let replaced = self.inner.replaced.get(&(day, set.name.clone()));
                let place = match replaced {
                    Some(&p) => p,
                    None => {
                        let n = parlor_core::of_the_day(
                            day,
                            &set.game,
                            set.kind.name,
                            set.members.len(),
                        )?;
                        set.members[n]
                    }
                };
                Some(Challenge {
                    puzzle: &self.inner.all[place],
                    replaced: replaced.is_some(),
                })
            })
            .collect()
    }
}

/// A puzzle's rating before anyone has played it, from how much its
/// solver had to look at against the middle of its set: 1500 at the
/// median, 150 points for each doubling (or halving), kept within 900 to
/// 2100, with a new player's deviation, so that the first plays move it
/// fast. Players' results take over from there.
pub fn first_rating(proof_size: u64, set_median: u64) -> crate::ratings::Rating {
    let ratio = (proof_size.max(1) as f64) / (set_median.max(1) as f64);
    crate::ratings::Rating {
        rating: (crate::ratings::INITIAL_RATING + 150.0 * ratio.log2()).clamp(900.0, 2100.0),
        ..crate::ratings::Rating::default()
    }
}

/// The player's and the puzzle's ratings after a try: a game between the
/// two, won by the player if `solved`, else by the puzzle.
pub fn after_try(
    player: crate::ratings::Rating,
    puzzle: crate::ratings::Rating,
    solved: bool,
) -> (crate::ratings::Rating, crate::ratings::Rating) {
    let (p, q) = if solved { (0, 1) } else { (1, 0) };
    let after = crate::ratings::after_game(&[(p, player), (q, puzzle)]);
    (after[0], after[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_starts_rated_by_its_proof_and_moves_with_each_try() {
        assert_eq!(first_rating(40, 40).rating, 1500.0);
        assert_eq!(first_rating(160, 40).rating, 1800.0);
        assert_eq!(first_rating(10, 40).rating, 1200.0);
        assert_eq!(first_rating(1 << 30, 40).rating, 2100.0);
        assert_eq!(first_rating(0, 0).rating, 1500.0);
        let player = crate::ratings::Rating::default();
        let hard = first_rating(160, 40);
        // Solving a hard puzzle gains more than solving an easy one.
        let (up_hard, hard_after) = after_try(player, hard, true);
        let (up_easy, _) = after_try(player, first_rating(10, 40), true);
        assert!(up_hard.rating > up_easy.rating && up_easy.rating > 1500.0);
        assert!(
            hard_after.rating < hard.rating,
            "a solved puzzle looks easier"
        );
        // Failing it loses rating, and the puzzle gains.
        let (down, harder) = after_try(player, hard, false);
        assert!(down.rating < 1500.0 && harder.rating > hard.rating);
    }

    #[test]
    fn dates_read_and_write_as_days_since_1970() {
        assert_eq!(day_of("1970-01-01"), Ok(0));
        assert_eq!(day_of("2026-11-29"), Ok(20_786));
        assert_eq!(date_of(20_786), "2026-11-29");
        assert_eq!(
            date_of(day_at(1_764_374_400_000 + 86_399_999)),
            "2025-11-29"
        );
        for bad in [
            "2026-13-01",
            "2026-02-30",
            "26-11-29",
            "2026/11/29",
            "",
            "2026-11-29-1",
        ] {
            let e = day_of(bad).unwrap_err();
            assert!(e.contains("YYYY-MM-DD"), "{e}");
        }
    }
}
