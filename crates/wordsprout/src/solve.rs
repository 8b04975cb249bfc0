//! Perfect play: who wins from every position.
//!
//! # Two players
//!
//! [`Solution::solve`] solves the two-player game from the empty string:
//! a position is a valid string; the player to move at `s` wins iff some
//! legal play leads to a string where the player to move loses. A player who
//! cannot play is out, so with two players a string with no legal play is a
//! loss for the player to move. The solver labels *every* valid string of
//! the [`Language`] (not only the reachable ones, so that a table standing
//! on an unreachable string after a bluff still gets an answer), and counts
//! [`positions`](Solution::positions) as the valid strings reachable from
//! the empty string, counting the empty start.
//!
//! How: strings are processed by length, longest first. A string nobody
//! has marked yet is a loss for the player to move; then every string one
//! legal deletion away (two under palindrome lock) is marked a win, since
//! the player there can move into the loss. Each losing string costs one
//! hash lookup per distinct deletion, so the whole solve is linear in the
//! number of valid strings times their length.
//!
//! # Three or more players
//!
//! [`solve_players`] uses max^n with a stated tie-break (see there).

use crate::language::{each_child, Flags, Language, Levels, REACH, VALID};
use std::sync::Arc;

/// The two-player solution of a language.
pub struct Solution {
    levels: Arc<Levels>,
    /// `win[len][slot]`: 1 if the player to move at that string wins.
    win: Vec<Vec<u8>>,
    positions: usize,
}

impl parlor_core::Derived for Solution {
    /// A byte a valid string (the strings themselves are the language's).
    fn bytes(&self) -> usize {
        std::mem::size_of::<Solution>() + self.win.iter().map(|l| l.capacity() + 24).sum::<usize>()
    }
}

impl parlor_core::Derived for PlayersSolution {
    /// A byte a valid string (the strings themselves are the language's).
    fn bytes(&self) -> usize {
        std::mem::size_of::<PlayersSolution>()
            + self.winner.iter().map(|l| l.capacity() + 24).sum::<usize>()
    }
}

impl std::fmt::Debug for Solution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solution")
            .field("positions", &self.positions)
            .field("first_player_wins", &self.first_player_wins())
            .field("winning_openers", &self.winning_openers())
            .finish()
    }
}

/// Labels every valid string: 1 where the player to move wins.
fn solve_two(levels: &Levels, f: &Flags) -> Vec<Vec<u8>> {
    let levels = &levels.levels;
    let mut win: Vec<Vec<u8>> = levels.iter().map(|l| vec![0u8; l.slots()]).collect();
    let max = levels.len();
    let mut t = vec![0u8; max + 1];
    let mut buf = vec![0u8; max + 1];
    for len in (1..max).rev() {
        let level = &levels[len];
        let (below, here) = win.split_at_mut(len);
        let here = &here[0];
        let l1 = &levels[len - 1];
        if !f.pal_lock
            && !f.no_front
            && crate::language::table::mark_parents_packed(level, here, l1, &mut below[len - 1])
        {
            continue;
        }
        for (slot, (&flags, &won)) in level.flags.iter().zip(here.iter()).enumerate() {
            if flags & VALID == 0 || won != 0 {
                continue;
            }
            level.get(slot, &mut t);
            let t = &t[..len];
            // A loss for the player to move: every parent wins.
            let w1 = &mut below[len - 1];
            f.parents1(t, &mut buf, |s, legal| {
                if legal {
                    if let Some(ps) = l1.find(s) {
                        w1[ps] = 1;
                    }
                }
            });
            if f.pal_lock && len >= 5 {
                let l2 = &levels[len - 2];
                let w2 = &mut below[len - 2];
                f.parents2(t, &mut buf, |s| {
                    if let Some(ps) = l2.find(s) {
                        w2[ps] = 1;
                    }
                });
            }
        }
    }
    win
}

impl Solution {
    /// Solves the two-player game of `language` from the empty string.
    ///
    /// ```
    /// use parlor_lexicon::Lexicon;
    /// use parlor_wordsprout::{Language, Solution, RuleSet, Pot, Vowels};
    /// let (lex, _) = Lexicon::from_words("t", ["ab"]).unwrap();
    /// let lang = Language::new(&lex, &RuleSet::core(), &Pot::STANDARD, &Vowels::default());
    /// let sol = Solution::solve(&lang);
    /// // "", a, b, ab: whoever opens leaves a string one letter from "ab".
    /// assert_eq!(sol.positions(), 4);
    /// assert!(!sol.first_player_wins());
    /// assert_eq!(sol.winning_openers(), "");
    /// assert_eq!(sol.wins("a"), Some(true));
    /// assert_eq!(sol.wins("ba"), None);
    /// ```
    pub fn solve(language: &Language) -> Solution {
        let win = solve_two(language.levels(), &language.flags);
        Solution {
            levels: Arc::clone(language.levels()),
            win,
            positions: language.reachable_count(),
        }
    }

    /// Distinct valid strings reachable from the empty string, counting it.
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// Whether the first player wins with perfect play.
    pub fn first_player_wins(&self) -> bool {
        self.win[0][0] != 0
    }

    /// The opening letters that win for the first player, sorted (empty if
    /// the first player loses).
    pub fn winning_openers(&self) -> String {
        (b'a'..=b'z')
            .filter(|&c| self.wins_bytes(&[c]) == Some(false))
            .map(char::from)
            .collect()
    }

    fn wins_bytes(&self, s: &[u8]) -> Option<bool> {
        let level = self.levels.levels.get(s.len())?;
        let slot = level.find(s)?;
        (level.flags[slot] & VALID != 0).then(|| self.win[s.len()][slot] != 0)
    }

    /// Whether the player TO MOVE at `s` wins with perfect play; `None` if
    /// `s` is not a valid string (case-insensitive).
    pub fn wins(&self, s: &str) -> Option<bool> {
        self.wins_bytes(&crate::language::normalise(s)?)
    }

    /// Whether `s` is a valid string reachable from the empty string.
    pub fn is_position(&self, s: &str) -> bool {
        crate::language::normalise(s).is_some_and(|s| self.levels.flags(&s) & REACH != 0)
    }
}

/// The solution of the game for three or more players.
///
/// # Solution concept: max^n with a first-move tie-break
///
/// A state is a valid string and the number `k` of players still in; the
/// player to move is seat 0 of the remaining order, the others follow as
/// 1..k-1. Each player's payoff is 1 if they win and 0 otherwise (max^n with
/// win/lose payoffs). The player to move picks a play after which they win,
/// if one exists; otherwise every play gives them 0 and the tie is broken
/// by taking the first play in the order of [`Language::moves`] (leftmost
/// position, then alphabetical letter). A player with no legal play is out,
/// and the next player moves from the same string with `k - 1` players; so
/// from a string with no play at all, each player in turn drops out and the
/// player who made that string (the last of the order) wins. With two
/// players this is exactly [`Solution`].
///
/// The solver computes `k = 2` with [`Solution`]'s method; then it finds
/// each string's first play once (trying insertions in order until one is
/// legal), and for each larger `k` makes one pass longest first: a string
/// won by the player who made it marks its parents "the mover wins", and
/// an unmarked string takes the outcome of its first play.
pub struct PlayersSolution {
    levels: Arc<Levels>,
    players: usize,
    /// `winner[len][slot]`: the winner's seat relative to the player to
    /// move at that string, with all `players` still in.
    winner: Vec<Vec<u8>>,
    positions: usize,
}

/// Solves the game for `players` players (at least 2, at most 255) from the
/// empty string; see [`PlayersSolution`] for the solution concept.
///
/// # Panics
///
/// If `players` is below 2 or above 255.
pub fn solve_players(language: &Language, players: usize) -> PlayersSolution {
    assert!((2..=255).contains(&players), "2 to 255 players");
    let levels = language.levels();
    let f = &language.flags;
    let two = solve_two(levels, f);
    // k = 2: the player to move wins (0) or the other one does (1).
    let mut winner: Vec<Vec<u8>> = two
        .iter()
        .map(|l| l.iter().map(|&w| if w != 0 { 0 } else { 1 }).collect())
        .collect();
    let max = levels.levels.len();
    if players > 2 {
        let first = first_children(levels, f);
        let mut t = vec![0u8; max + 1];
        let mut buf = vec![0u8; max + 1];
        for k in 3..=players {
            let prev = winner; // outcomes with k - 1 players
            let mut next: Vec<Vec<u8>> =
                levels.levels.iter().map(|l| vec![0u8; l.slots()]).collect();
            // mover_wins[len][slot]: some play leads to a string whose winner,
            // counted from its player to move, is k - 1: the mover here.
            let mut mover_wins: Vec<Vec<u8>> =
                levels.levels.iter().map(|l| vec![0u8; l.slots()]).collect();
            for len in (0..max).rev() {
                let level = &levels.levels[len];
                let (lower, upper) = next.split_at_mut(len + 1);
                let here = &mut lower[len];
                for (slot, out) in here.iter_mut().enumerate() {
                    if level.flags[slot] & VALID == 0 {
                        continue;
                    }
                    *out = if mover_wins[len][slot] != 0 {
                        0
                    } else {
                        match first[len][slot] {
                            // No play: the mover is out; the k - 1 others
                            // go on from here, the next one (seat 1) first.
                            NO_CHILD => prev[len][slot] + 1,
                            c => {
                                let child = upper[(c >> 31) as usize][(c & !TWO_LETTERS) as usize];
                                ((child as usize + 1) % k) as u8
                            }
                        }
                    };
                }
                if len == 0 {
                    continue;
                }
                // Push: every string won by the player who made it marks its parents.
                let (mw_lower, _) = mover_wins.split_at_mut(len);
                let l1 = &levels.levels[len - 1];
                for (slot, &w) in here.iter().enumerate() {
                    if level.flags[slot] & VALID == 0
                        || w as usize != k - 1
                        || !level.get(slot, &mut t)
                    {
                        continue;
                    }
                    let tt = &t[..len];
                    f.parents1(tt, &mut buf, |s, legal| {
                        if legal {
                            if let Some(ps) = l1.find(s) {
                                mw_lower[len - 1][ps] = 1;
                            }
                        }
                    });
                    if f.pal_lock && len >= 5 {
                        let l2 = &levels.levels[len - 2];
                        f.parents2(tt, &mut buf, |s| {
                            if let Some(ps) = l2.find(s) {
                                mw_lower[len - 2][ps] = 1;
                            }
                        });
                    }
                }
            }
            winner = next;
        }
    }
    PlayersSolution {
        levels: Arc::clone(levels),
        players,
        winner,
        positions: language.reachable_count(),
    }
}

const NO_CHILD: u32 = u32::MAX;
const TWO_LETTERS: u32 = 1 << 31;

/// For every valid string, its first legal play in the order of
/// [`Language::moves`]: the result's slot, with [`TWO_LETTERS`] set when
/// it is one level further up; [`NO_CHILD`] when there is no play.
fn first_children(levels: &Levels, f: &Flags) -> Vec<Vec<u32>> {
    let mut s = vec![0u8; levels.levels.len() + 1];
    levels
        .levels
        .iter()
        .enumerate()
        .map(|(len, level)| {
            let mut v = vec![NO_CHILD; level.slots()];
            for (slot, first) in v.iter_mut().enumerate() {
                if level.flags[slot] & VALID == 0 || !level.get(slot, &mut s) {
                    continue;
                }
                each_child(
                    &|l| levels.levels.get(l),
                    f,
                    &s[..len],
                    |_, _, second, _, cslot| {
                        *first = cslot as u32 | if second.is_some() { TWO_LETTERS } else { 0 };
                        false
                    },
                );
            }
            v
        })
        .collect()
}

impl PlayersSolution {
    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Distinct valid strings reachable from the empty string, counting it.
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// The winner's seat (0 = the first player) from the empty string.
    pub fn winner(&self) -> usize {
        self.winner[0][0] as usize
    }

    /// The opening letters after which the first player wins, sorted.
    pub fn winning_openers(&self) -> String {
        (b'a'..=b'z')
            .filter(|&c| self.winner_at(&char::from(c).to_string()) == Some(self.players - 1))
            .map(char::from)
            .collect()
    }

    /// With all players still in and the string `s`, the winner's seat
    /// relative to the player to move (0 = the player to move, 1 = the next,
    /// ...); `None` if `s` is not valid.
    pub fn winner_at(&self, s: &str) -> Option<usize> {
        let s = crate::language::normalise(s)?;
        let level = self.levels.levels.get(s.len())?;
        let slot = level.find(&s)?;
        (level.flags[slot] & VALID != 0).then(|| self.winner[s.len()][slot] as usize)
    }
}
