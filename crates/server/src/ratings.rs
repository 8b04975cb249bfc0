//! Glicko-2 ratings per game, for rated games between accounts (the
//! `skillratings` crate does the arithmetic).
//!
//! Parameters (Glickman's suggested defaults, as `skillratings` has them):
//! a new account starts each game at rating 1500, deviation (RD) 350,
//! volatility 0.06; the system constant tau is 0.5 and the volatility
//! iteration stops at a tolerance of 0.000001.
//!
//! Each finished rated game is one rating period for each of its players.
//! A game of more than two seats is scored pairwise from its ranking: a
//! player beat everyone ranked below, lost to everyone ranked above, and
//! drew with everyone sharing their place; all those results enter one
//! period, against the opponents' ratings from before the game. A two-seat
//! game is plain Glicko-2 win/loss/draw. The game's own ranking is the
//! only input: points margins do not count.

use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// Rating of an account that has not played a rated game of this kind.
pub const INITIAL_RATING: f64 = 1500.0;
/// Rating deviation of such an account.
pub const INITIAL_RD: f64 = 350.0;
/// Volatility of such an account.
pub const INITIAL_VOLATILITY: f64 = 0.06;
/// Glicko-2's system constant.
pub const TAU: f64 = 0.5;

/// One player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD).
    pub rd: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: INITIAL_RATING,
            rd: INITIAL_RD,
            volatility: INITIAL_VOLATILITY,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Self {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.rd,
            volatility: r.volatility,
        }
    }
}

/// The ratings after one game: `players[i]` is (place from 0, rating
/// before); the answer is each player's rating after, in the same order.
pub fn after_game(players: &[(usize, Rating)]) -> Vec<Rating> {
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    players
        .iter()
        .enumerate()
        .map(|(i, &(place, before))| {
            let results: Vec<(Glicko2Rating, Outcomes)> = players
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, &(other_place, other))| {
                    let outcome = match place.cmp(&other_place) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    (other.into(), outcome)
                })
                .collect();
            let r = glicko2_rating_period(&before.into(), &results, &config);
            Rating {
                rating: r.rating,
                rd: r.deviation,
                volatility: r.volatility,
            }
        })
        .collect()
}

/// Each seat's place (0 = first) from an outcome's JSON ranking
/// (`{"ranking": [[0], [1, 2]]}`); `None` unless every seat of `seats`
/// has exactly one place.
pub fn places(outcome: &serde_json::Value, seats: usize) -> Option<Vec<usize>> {
    let ranking = outcome.get("ranking")?.as_array()?;
    let mut places = vec![None; seats];
    for (place, group) in ranking.iter().enumerate() {
        for seat in group.as_array()? {
            let s = seat.as_u64()? as usize;
            if s >= seats || places[s].is_some() {
                return None;
            }
            places[s] = Some(place);
        }
    }
    places.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_win_between_new_players_moves_both_by_the_same_amount() {
        let after = after_game(&[(0, Rating::default()), (1, Rating::default())]);
        assert!(after[0].rating > INITIAL_RATING);
        assert!(after[1].rating < INITIAL_RATING);
        let up = after[0].rating - INITIAL_RATING;
        let down = INITIAL_RATING - after[1].rating;
        assert!((up - down).abs() < 1e-6, "{up} vs {down}");
        // Glickman's worked numbers for two new players: about +/-162.
        assert!((up - 162.3).abs() < 1.0, "{up}");
        assert!(after[0].rd < INITIAL_RD);
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let after = after_game(&[(0, Rating::default()), (0, Rating::default())]);
        assert!((after[0].rating - INITIAL_RATING).abs() < 1e-6);
        assert!(after[0].rd < INITIAL_RD);
    }

    #[test]
    fn three_players_are_scored_pairwise_by_place() {
        let after = after_game(&[
            (1, Rating::default()),
            (0, Rating::default()),
            (2, Rating::default()),
        ]);
        assert!(after[1].rating > after[0].rating);
        assert!(after[0].rating > after[2].rating);
        // The middle player beat one and lost to one of equal rating.
        assert!((after[0].rating - INITIAL_RATING).abs() < 1e-6);
    }

    #[test]
    fn places_come_from_the_ranking_and_refuse_a_seat_missing_or_twice() {
        assert_eq!(
            places(&json!({"ranking": [[1], [0, 2]]}), 3),
            Some(vec![1, 0, 1])
        );
        assert_eq!(places(&json!({"ranking": [[1]]}), 2), None);
        assert_eq!(places(&json!({"ranking": [[0], [0]]}), 2), None);
        assert_eq!(places(&json!({"ranking": [[5]]}), 1), None);
        assert_eq!(places(&json!({}), 2), None);
    }
}
