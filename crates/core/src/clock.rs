//! Time controls: every clock a host keeps for a game, as one pure model.
//!
//! The game never reads the wall clock; the host (server, CLI) keeps its
//! clocks. What the host may keep is declared by a [`TimeControl`], part of
//! a game's settings.
//!
//! The decisions below are written down with their reasons, because a host
//! that disagrees with one would otherwise "fix" it in its own copy.
//!
//! - **One accepted range.** Every duration is at most a week; the bank,
//!   turn and absent clocks at least 0.1 s (a shorter one cannot be played
//!   over a network), increment and delay at least 0. An increment or a
//!   delay without a bank has nothing to act on, so it is refused rather
//!   than ignored.
//! - **Seconds only in the settings.** They are what people type; each is
//!   turned once into whole milliseconds (rounded, as the server does
//!   today), which is what the clocks count in.

use crate::ConfigError;
use serde::{Deserialize, Serialize};

/// The longest duration any setting accepts, in seconds: a week.
const MAX_SECONDS: f64 = 604_800.0;
/// The shortest bank, turn or absent clock accepted, in seconds.
const MIN_SECONDS: f64 = 0.1;

/// Time controls a host keeps for a game: part of the game's settings,
/// never read by the game. All fields are seconds; the default is no clock
/// at all.
///
/// The JSON form leaves out what is not used:
/// `{"bank_seconds": 300, "increment_seconds": 2}` is five minutes per seat
/// plus two seconds a move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimeControl {
    /// A chess-style bank per seat: it runs while the seat is to act, and
    /// the seat's flag falls when it is empty. `None`: no bank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank_seconds: Option<f64>,
    /// Added to a seat's bank after each of that seat's own actions
    /// (Fischer increment). Needs a bank.
    #[serde(skip_serializing_if = "is_zero")]
    pub increment_seconds: f64,
    /// Each turn, a seat's bank starts running only after this long (simple
    /// or US delay). Needs a bank.
    #[serde(skip_serializing_if = "is_zero")]
    pub delay_seconds: f64,
    /// The turn clock: a seat to act that has not acted this long after its
    /// turn began runs out. `None`: no turn clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_seconds: Option<f64>,
    /// The absent countdown: a seat to act that no connection holds runs out
    /// this long after the later of its turn's start and its leaving.
    /// `None`: no countdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absent_seconds: Option<f64>,
}

impl TimeControl {
    /// Checks every field: finite, in range (see the module's decisions),
    /// increment and delay only with a bank. The error names the field, what
    /// is accepted and what was found, in one line.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (field, value, none) in [
            ("bank_seconds", self.bank_seconds, "no bank"),
            ("turn_seconds", self.turn_seconds, "no turn clock"),
            ("absent_seconds", self.absent_seconds, "no absent countdown"),
        ] {
            if let Some(v) = value.filter(|v| !(MIN_SECONDS..=MAX_SECONDS).contains(v)) {
                return Err(ConfigError::new(format!(
                    "{field}: from 0.1 to 604800 (a week), or leave it out for {none}; got {v}"
                )));
            }
        }
        for (field, value) in [
            ("increment_seconds", self.increment_seconds),
            ("delay_seconds", self.delay_seconds),
        ] {
            if !(0.0..=MAX_SECONDS).contains(&value) {
                return Err(ConfigError::new(format!(
                    "{field}: from 0 to 604800 (a week); got {value}"
                )));
            }
            if value > 0.0 && self.bank_seconds.is_none() {
                return Err(ConfigError::new(format!(
                    "{field}: needs bank_seconds (it acts on a bank), or 0; got {value} without a bank"
                )));
            }
        }
        Ok(())
    }

    /// Whether no clock at all is kept for the seats: no bank, no turn
    /// clock, no absent countdown. (A game's own round clock still runs.)
    pub fn is_untimed(&self) -> bool {
        self.bank_seconds.is_none() && self.turn_seconds.is_none() && self.absent_seconds.is_none()
    }
}

fn is_zero(seconds: &f64) -> bool {
    *seconds == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank(seconds: f64) -> TimeControl {
        TimeControl {
            bank_seconds: Some(seconds),
            ..TimeControl::default()
        }
    }

    #[test]
    fn validate_accepts_the_ranges() {
        for ok in [
            TimeControl::default(),
            TimeControl {
                bank_seconds: Some(0.1),
                increment_seconds: 0.0,
                delay_seconds: 604_800.0,
                turn_seconds: Some(604_800.0),
                absent_seconds: Some(0.1),
            },
            TimeControl {
                increment_seconds: 2.5,
                ..bank(300.0)
            },
        ] {
            assert_eq!(ok.validate(), Ok(()), "{ok:?}");
        }
    }

    #[test]
    fn validate_says_what_is_accepted() {
        let err = |c: TimeControl| c.validate().unwrap_err().message;
        assert_eq!(
            err(bank(0.0)),
            "bank_seconds: from 0.1 to 604800 (a week), or leave it out for no bank; got 0"
        );
        assert_eq!(
            err(TimeControl {
                turn_seconds: Some(f64::NAN),
                ..TimeControl::default()
            }),
            "turn_seconds: from 0.1 to 604800 (a week), or leave it out for no turn clock; got NaN"
        );
        assert_eq!(
            err(TimeControl {
                absent_seconds: Some(604_801.0),
                ..TimeControl::default()
            }),
            "absent_seconds: from 0.1 to 604800 (a week), or leave it out for no absent countdown; got 604801"
        );
        assert_eq!(
            err(TimeControl {
                increment_seconds: -1.0,
                ..bank(60.0)
            }),
            "increment_seconds: from 0 to 604800 (a week); got -1"
        );
        assert_eq!(
            err(TimeControl {
                delay_seconds: f64::INFINITY,
                ..bank(60.0)
            }),
            "delay_seconds: from 0 to 604800 (a week); got inf"
        );
        assert_eq!(
            err(TimeControl {
                increment_seconds: 2.0,
                ..TimeControl::default()
            }),
            "increment_seconds: needs bank_seconds (it acts on a bank), or 0; got 2 without a bank"
        );
        assert_eq!(
            err(TimeControl {
                delay_seconds: 3.0,
                turn_seconds: Some(30.0),
                ..TimeControl::default()
            }),
            "delay_seconds: needs bank_seconds (it acts on a bank), or 0; got 3 without a bank"
        );
        for e in [
            err(bank(-5.0)),
            err(TimeControl {
                delay_seconds: 1.0,
                ..TimeControl::default()
            }),
        ] {
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn untimed_means_no_seat_clock() {
        assert!(TimeControl::default().is_untimed());
        assert!(!bank(60.0).is_untimed());
        assert!(!TimeControl {
            turn_seconds: Some(30.0),
            ..TimeControl::default()
        }
        .is_untimed());
        assert!(!TimeControl {
            absent_seconds: Some(30.0),
            ..TimeControl::default()
        }
        .is_untimed());
    }

    #[test]
    fn time_control_serde_round_trip() {
        let c = TimeControl {
            bank_seconds: Some(300.0),
            increment_seconds: 2.0,
            delay_seconds: 0.0,
            turn_seconds: None,
            absent_seconds: Some(45.5),
        };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"bank_seconds":300.0,"increment_seconds":2.0,"absent_seconds":45.5}"#
        );
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), c);
        assert_eq!(
            serde_json::from_str::<TimeControl>("{}").unwrap(),
            TimeControl::default()
        );
        assert_eq!(
            serde_json::to_string(&TimeControl::default()).unwrap(),
            "{}"
        );
        let unknown = serde_json::from_str::<TimeControl>(r#"{"bank":300}"#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown field `bank`"),
            "{unknown}"
        );
    }
}
