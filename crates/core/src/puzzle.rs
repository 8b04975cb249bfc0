//! Puzzles: a position of a game with an answer its solver proves.
//!
//! A game that makes puzzles brings a [`PuzzleBook`] to the registry
//! ([`crate::Extras::puzzles`]): how to find one from a seed, how to prove a
//! stored one again, and how to judge a player's answer. Hosts know a
//! puzzle only as a [`Puzzle`]: the game record that leads to the position
//! (replayed, it is the match the puzzle is played in, like any game), the
//! seat that solves it, and the game's own proof, which they store and
//! show but never read.

use crate::Seed;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A puzzle as hosts keep it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The game's registered name.
    pub game: String,
    /// The kind of puzzle it is (one of [`PuzzleBook::kinds`]).
    pub kind: String,
    /// The seed it was found from: `find(kind, seed)` finds it again.
    pub seed: Seed,
    /// The game record (as [`crate::Registry::replay`] reads it) that
    /// leads to the puzzle's position: replayed, it is the match the
    /// puzzle is played in.
    pub record: Value,
    /// The seat whose move the puzzle asks for.
    pub seat: usize,
    /// What makes two puzzles the same (the position up to the game's
    /// equivalences): a set holds each key once.
    pub key: String,
    /// The solving moves, written as the game's players write them.
    pub answers: Vec<String>,
    /// What the puzzle teaches, in the game's words ("enclose a spot").
    pub themes: Vec<String>,
    /// How much the solver had to look at to prove it: a first measure of
    /// difficulty, before players' ratings say more.
    pub proof_size: u64,
    /// The game's proof: its verdict on every other move, with the reason
    /// each fails.
    pub proof: Value,
}

/// One kind of puzzle a game makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PuzzleKind {
    /// Its name, as `--kind` takes it (`normal-5`).
    pub name: &'static str,
    /// One line for people.
    pub about: &'static str,
    /// Which of the player's moves answer it.
    pub answer: Answer,
}

/// Which of the solving seat's moves a host judges, and when the puzzle
/// is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The first move is the answer; the puzzle ends there.
    FirstMove,
    /// The first move is the answer; a solver then wins the game out
    /// against perfect defence to complete the puzzle.
    FirstMoveThenWin,
    /// Every move until the game ends is a try (Gobble: each word of the
    /// round); the first that solves it counts.
    AnyMove,
}

/// A player's answer, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Judged {
    /// Whether it is a solving move.
    pub solved: bool,
    /// Why, in the game's words: for a wrong answer, the solver's
    /// refutation.
    pub why: String,
}

/// Finds a puzzle of a kind from a seed, or `None` where that seed gives
/// none; `Err` for a kind the game does not make.
pub type FindPuzzle =
    fn(kind: &str, seed: Seed, resources: &crate::Resources) -> Result<Option<Puzzle>, String>;
/// Proves a stored puzzle again, or says what does not hold.
pub type CheckPuzzle = fn(puzzle: &Puzzle, resources: &crate::Resources) -> Result<(), String>;
/// Judges a player's move (the game's action, as JSON) in the puzzle.
pub type JudgePuzzle =
    fn(puzzle: &Puzzle, action: &Value, resources: &crate::Resources) -> Result<Judged, String>;

/// What a game brings to make and judge puzzles.
#[derive(Clone, Copy)]
pub struct PuzzleBook {
    /// The kinds it makes.
    pub kinds: &'static [PuzzleKind],
    /// Finds one from a seed.
    pub find: FindPuzzle,
    /// Proves a stored one again.
    pub check: CheckPuzzle,
    /// Judges an answer.
    pub judge: JudgePuzzle,
}

impl Puzzle {
    /// The game's proof, read as `P`, and the match at the puzzle's
    /// position (its record replayed): where a game's `check` and `judge`
    /// start.
    pub fn open<G: crate::Game, P: serde::de::DeserializeOwned>(
        &self,
        resources: &crate::Resources,
    ) -> Result<(P, crate::Match<G>), String> {
        let title = G::INFO.title;
        let proof = serde_json::from_value(self.proof.clone())
            .map_err(|e| format!("not a {title} puzzle's proof: {e}"))?;
        let record: crate::Record<G> = serde_json::from_value(self.record.clone())
            .map_err(|e| format!("not a {title} record: {e}"))?;
        let table = crate::Match::replay(&record, resources).map_err(|e| e.to_string())?;
        Ok((proof, table))
    }
}

impl PuzzleBook {
    /// The kind called `name`, or a one-line error naming the kinds there are.
    pub fn kind(&self, name: &str) -> Result<&PuzzleKind, String> {
        self.kinds.iter().find(|k| k.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.kinds.iter().map(|k| k.name).collect();
            format!(
                "no puzzles of kind {name:?}; the kinds are {}",
                known.join(", ")
            )
        })
    }
}

/// How far the best answer must lead the next best for a "find the best"
/// puzzle (a word's score): by [`LEAD_POINTS`] and a fifth of the next's.
pub fn clear_lead(best: u32, next: u32) -> bool {
    best >= next.saturating_add(LEAD_POINTS) && u64::from(best) * 5 >= u64::from(next) * 6
}

/// The least lead of [`clear_lead`], in points.
pub const LEAD_POINTS: u32 = 5;

/// The day's puzzle of a set of `count` (its place in the set) on `day`,
/// counted in days since 1970-01-01 (UTC): the same on every machine and
/// after every restart. Each set is dealt in rounds of `count` days, in an
/// order drawn afresh for each round, so no puzzle comes back before all
/// the others have had their day.
pub fn of_the_day(day: i64, game: &str, kind: &str, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let n = count as i64;
    let (round, place) = (day.div_euclid(n), day.rem_euclid(n) as usize);
    // FNV-1a over the set's name and the round: a fixed, documented hash
    // (the standard library's may change between releases).
    let mut seed: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("parlor daily/{game}/{kind}/{round}").bytes() {
        seed ^= u64::from(b);
        seed = seed.wrapping_mul(0x0100_0000_01b3);
    }
    let mut order: Vec<usize> = (0..count).collect();
    crate::GameRng::from_seed(seed).shuffle(&mut order);
    Some(order[place])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_day_s_puzzle_is_fixed_and_none_comes_back_within_a_round() {
        assert_eq!(
            of_the_day(20_000, "sprouts", "normal-5", 100),
            of_the_day(20_000, "sprouts", "normal-5", 100)
        );
        assert_eq!(of_the_day(3, "gobble", "longest-4x4", 0), None);
        // The days of one round (days 20,000 to 20,099 form round 200) deal
        // every puzzle once.
        let round: std::collections::BTreeSet<usize> = (20_000..20_100)
            .map(|d| of_the_day(d, "sprouts", "normal-5", 100).unwrap())
            .collect();
        assert_eq!(round.len(), 100);
        // Another set, another order; days before 1970 too.
        let other: Vec<usize> = (20_000..20_010)
            .map(|d| of_the_day(d, "gobble", "longest-4x4", 100).unwrap())
            .collect();
        let this: Vec<usize> = (20_000..20_010)
            .map(|d| of_the_day(d, "sprouts", "normal-5", 100).unwrap())
            .collect();
        assert_ne!(other, this);
        assert!(of_the_day(-5, "sprouts", "normal-5", 7).unwrap() < 7);
        // Pinned: a change here would make servers of two releases
        // disagree on a day's puzzle, and change past days' histories.
        let days: Vec<usize> = (20_000..20_004)
            .map(|d| of_the_day(d, "sprouts", "normal-5", 100).unwrap())
            .collect();
        assert_eq!(days, [42, 57, 11, 90]);
    }

    #[test]
    fn a_lead_is_clear_by_five_points_and_a_fifth() {
        assert!(clear_lead(10, 5));
        assert!(!clear_lead(9, 5));
        assert!(clear_lead(60, 50));
        assert!(!clear_lead(59, 50));
        assert!(clear_lead(5, 0));
        assert!(!clear_lead(u32::MAX, u32::MAX));
    }
}
