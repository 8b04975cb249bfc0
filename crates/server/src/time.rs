//! Where game actors read the time: the system's clock, or a manual one
//! that tests move by hand, so that clocks run out in virtual time instead
//! of tests sleeping for them.
//!
//! Only what the game clocks decide goes through a [`TimeSource`]: the
//! time stored with each action, the clocks' start, when a bank, a turn
//! clock, an absent countdown or a round ends, and the actor's wake-up for
//! them. Connection timeouts, rate limits, leases and presence keep the
//! system's time (presence and leases use the database's).
//!
//! ```
//! use parlor_server::TimeSource;
//! let time = TimeSource::manual(1_000);
//! assert_eq!(time.now_ms(), 1_000);
//! time.advance(std::time::Duration::from_millis(1_500));
//! assert_eq!(time.now_ms(), 2_500);
//! ```

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// The time for game clocks, in ms since the Unix epoch. Cheap to clone;
/// clones of a manual source share its time.
#[derive(Clone, Default)]
pub struct TimeSource {
    /// `None`: the system's clock.
    manual: Option<Arc<watch::Sender<i64>>>,
}

impl std::fmt::Debug for TimeSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.manual {
            None => f.write_str("TimeSource::System"),
            Some(t) => write!(f, "TimeSource::Manual({})", *t.borrow()),
        }
    }
}

impl TimeSource {
    /// The system's clock (the default).
    pub fn system() -> TimeSource {
        TimeSource { manual: None }
    }

    /// A clock that stands at `start_ms` until moved with
    /// [`TimeSource::advance`] or [`TimeSource::set_ms`].
    pub fn manual(start_ms: i64) -> TimeSource {
        TimeSource {
            manual: Some(Arc::new(watch::Sender::new(start_ms))),
        }
    }

    /// Whether this is a manual clock.
    pub fn is_manual(&self) -> bool {
        self.manual.is_some()
    }

    /// Now, in ms since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match &self.manual {
            None => crate::now_ms(),
            Some(t) => *t.borrow(),
        }
    }

    /// Moves a manual clock forward by `by` and wakes whoever waits for a
    /// time now past. Does nothing to the system's clock.
    pub fn advance(&self, by: Duration) {
        if let Some(t) = &self.manual {
            t.send_modify(|now| *now += by.as_millis() as i64);
        }
    }

    /// Sets a manual clock to `ms` (never backwards). Does nothing to the
    /// system's clock.
    pub fn set_ms(&self, ms: i64) {
        if let Some(t) = &self.manual {
            t.send_if_modified(|now| {
                let later = ms > *now;
                if later {
                    *now = ms;
                }
                later
            });
        }
    }

    /// Waits until the time is `ms` or later.
    pub(crate) async fn sleep_until_ms(&self, ms: i64) {
        match &self.manual {
            None => {
                let wait = (ms - crate::now_ms()).max(0) as u64;
                tokio::time::sleep(Duration::from_millis(wait)).await
            }
            Some(t) => {
                let mut rx = t.subscribe();
                // The sender lives as long as `self`: `changed` cannot fail
                // while we wait.
                while *rx.borrow_and_update() < ms {
                    if rx.changed().await.is_err() {
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_its_sleepers_when_moved_past_their_time() {
        let time = TimeSource::manual(0);
        let sleeper = tokio::spawn({
            let time = time.clone();
            async move { time.sleep_until_ms(1_000).await }
        });
        tokio::task::yield_now().await;
        time.advance(Duration::from_millis(999));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        time.set_ms(500);
        assert_eq!(time.now_ms(), 999, "never backwards");
        time.advance(Duration::from_millis(1));
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken")
            .unwrap();
    }

    #[test]
    fn the_system_clock_is_not_moved() {
        let time = TimeSource::system();
        let before = time.now_ms();
        time.advance(Duration::from_secs(3_600));
        assert!(time.now_ms() < before + 3_600_000);
        assert!(!time.is_manual());
    }
}
