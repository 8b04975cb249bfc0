//! Replication across processes on one database: catching up with what
//! others stored, and following the game's lease (who hosts its clocks and
//! bots, see `crate::lease`).

use super::{GameActor, Outbound};
use crate::clocks::START_KEY;
use parlor_core::{Actor, ToAct};
use serde_json::json;
use std::time::Duration;
use tokio::time::Instant;

/// A refused action sends the game to the database to catch up at most
/// this often: the database's change notices bring other processes' moves
/// anyway, and a client sending refused actions must not cost a read each.
const REFUSAL_CATCH_UP_EVERY: Duration = Duration::from_millis(100);

/// When the game last went to the database of its own accord: a refused
/// action's catch-up and a try at the lease are each throttled, so that
/// neither a client's refused actions nor a game waiting for a host costs
/// a database round trip each time. The time is given, never read here.
#[derive(Default)]
pub(super) struct Replication {
    /// When a refused action last sent the game to catch up.
    refusal_caught_up: Option<Instant>,
    /// When this process last tried to take the game's lease.
    lease_tried: Option<Instant>,
}

impl Replication {
    /// Whether a refused action may send the game to catch up at `now`.
    pub(super) fn refusal_may_catch_up(&self, now: Instant) -> bool {
        self.refusal_caught_up
            .is_none_or(|at| now.saturating_duration_since(at) >= REFUSAL_CATCH_UP_EVERY)
    }

    /// A refused action sent the game to catch up at `now`.
    pub(super) fn refusal_caught_up(&mut self, now: Instant) {
        self.refusal_caught_up = Some(now);
    }

    /// When to try the lease again, tries being `every` apart: at `now`
    /// if never tried.
    pub(super) fn lease_retry_at(&self, now: Instant, every: Duration) -> Instant {
        match self.lease_tried {
            None => now,
            Some(t) => t + every,
        }
    }

    /// The lease was tried at `now`.
    pub(super) fn lease_tried(&mut self, now: Instant) {
        self.lease_tried = Some(now);
    }
}

/// The stored actions that apply, in their order, to a game that has
/// `have` actions: each the next one (index `have`, then `have + 1`...),
/// in the order stored; those already applied, repeated, listed before
/// their turn or beyond a gap are left out.
pub(super) fn in_order<T>(stored: &[T], have: usize, index: impl Fn(&T) -> usize) -> Vec<&T> {
    let mut next = have;
    let mut run = Vec::new();
    for a in stored {
        if index(a) == next {
            run.push(a);
            next += 1;
        }
    }
    run
}

impl GameActor {
    /// Brings the game up to date with the database, where another process
    /// (PostgreSQL only) may have stored actions, taken seats, made the
    /// rematch, aborted the game or started its clock. The stored actions
    /// were checked by the process that stored them: they are applied as
    /// a replay applies a record. Everyone connected here is sent the new
    /// state. Returns whether anything changed. Nothing new is harmless.
    pub(super) async fn catch_up(&mut self) -> bool {
        if !self.env.store.shared() {
            return false;
        }
        let id = self.row.id.clone();
        let from = self.m.actions_len();
        let g = match self.env.store.read(move |s| s.load_since(&id, from)).await {
            Ok(Some(g)) => g,
            Ok(None) => return false,
            Err(e) => {
                tracing::warn!(
                    "game {}: cannot catch up with the database: {e}",
                    self.row.id
                );
                return false;
            }
        };
        let mut changed = false;
        let super::seats::Merged {
            changed: seats_changed,
            retired,
        } = self.seats.merge(g.seats);
        for n in retired {
            self.let_go_of_seat(n);
        }
        if g.row.rematch.is_some() && g.row.rematch != self.row.rematch {
            self.row.rematch = g.row.rematch.clone();
            let text: Outbound = json!({"type": "rematch", "game": g.row.rematch})
                .to_string()
                .into();
            let conns = self.conns.ids();
            for c in conns {
                self.send_to(c, text.clone());
            }
        }
        if g.row.aborted && !self.row.aborted {
            self.row.aborted = true;
            self.last_by = Some(Actor::Referee);
            self.last_events = Default::default();
            changed = true;
        }
        for a in in_order(&g.actions, self.m.actions_len(), |a| a.idx) {
            let applied = serde_json::from_value::<Actor>(a.actor.clone())
                .map_err(|e| e.to_string())
                .and_then(|actor| {
                    self.m
                        .apply_json_at(actor, &a.action, Some(a.at_ms))
                        .map(|events| (actor, events))
                        .map_err(|e| e.to_string())
                });
            match applied {
                Ok((actor, events)) => {
                    self.last_by = Some(actor);
                    self.last_events =
                        super::render::LastEvents::new(&events, self.m.actions_len());
                    self.clocks_follow(actor, a.at_ms);
                    changed = true;
                }
                Err(e) => {
                    // Cannot happen with a record the game itself wrote;
                    // the database is the truth: rebuild from it whole.
                    tracing::warn!(
                        "game {}: stored action {} does not apply here ({e}); rebuilding from the record",
                        self.row.id, a.idx
                    );
                    self.rebuild().await;
                    changed = true;
                    break;
                }
            }
        }
        // The clocks' start as stored (another process may have started
        // them).
        if let Some(d) = g.row.status.deadline.filter(|d| d.key == START_KEY) {
            if self.clock.start_ms != Some(d.started_ms) {
                self.clock.start_ms = Some(d.started_ms);
                self.clock.held = false;
                self.rebuild_clocks();
                changed = true;
            }
        }
        if changed || seats_changed {
            if self.clock.clocks.is_none() {
                // Not started by anyone yet: maybe now (stored with the
                // next action, or by the next arrival).
                self.try_start(self.now());
            }
            self.row.status = self.status_row();
            if seats_changed {
                self.broadcast_seats();
            }
            self.broadcast_state();
            self.maybe_bot();
        }
        changed || seats_changed
    }

    /// Whether this process runs the game's clocks and bots (always, on a
    /// database it does not share; see `crate::lease`).
    pub(super) fn hosting(&self) -> bool {
        self.env.leases.holds(&self.row.id)
    }

    /// Whether the game has something to do by itself: a clock to keep or
    /// a bot to move.
    pub(super) fn wants_host(&self) -> bool {
        if self.row.aborted || self.clock.held || self.m.to_act() == ToAct::Over {
            return false;
        }
        if self.clock_wake().is_some() {
            return true;
        }
        !self.unwatched_bots_only()
            && self
                .m
                .to_act()
                .seats()
                .iter()
                .any(|s| self.bot_level(*s).is_some())
    }

    /// Takes the game's lease when it has something to do by itself (at
    /// most once per `lease_refresh`), lets go of it when it has nothing
    /// left to do ever.
    pub(super) async fn lease_follow(&mut self) {
        if !self.env.store.shared() {
            return;
        }
        let hosting = self.hosting();
        let finished = self.row.aborted || self.m.to_act() == ToAct::Over;
        if hosting && finished {
            self.env.leases.release(&self.env.store, &self.row.id).await;
        } else if !hosting && self.lease_retry_at().is_some_and(|at| at <= Instant::now()) {
            self.replication.lease_tried(Instant::now());
            if self.env.leases.take(&self.env.store, &self.row.id).await {
                self.catch_up().await;
                self.maybe_bot();
            }
        }
    }

    /// When to try again to take the lease of a game that wants a host.
    pub(super) fn lease_retry_at(&self) -> Option<Instant> {
        if !self.env.store.shared() || self.hosting() || !self.wants_host() {
            return None;
        }
        Some(
            self.replication
                .lease_retry_at(Instant::now(), self.env.settings.cluster.lease_refresh),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_actions_apply_in_order_and_the_rest_are_left_out() {
        let idx = |a: &usize| *a;
        // Already applied (3, 4), then the next ones in order.
        assert_eq!(in_order(&[3, 4, 5, 6], 5, idx), [&5, &6]);
        // Out of order: one listed before its turn waits for the next
        // catch-up (the store lists them in order), a repeat applies once.
        assert_eq!(in_order(&[6, 5, 5, 7], 5, idx), [&5]);
        assert_eq!(in_order(&[5, 5, 6], 5, idx), [&5, &6]);
        // A gap stops the run: 8 cannot apply without 7.
        assert_eq!(in_order(&[5, 6, 8], 5, idx), [&5, &6]);
        assert!(in_order(&[9], 5, idx).is_empty());
        assert!(in_order::<usize>(&[], 0, idx).is_empty());
    }

    #[test]
    fn a_refusal_catches_up_at_most_once_per_interval() {
        let t0 = Instant::now();
        let mut r = Replication::default();
        assert!(r.refusal_may_catch_up(t0), "never caught up yet");
        r.refusal_caught_up(t0);
        assert!(!r.refusal_may_catch_up(t0));
        assert!(!r.refusal_may_catch_up(t0 + REFUSAL_CATCH_UP_EVERY - Duration::from_millis(1)));
        assert!(r.refusal_may_catch_up(t0 + REFUSAL_CATCH_UP_EVERY));
    }

    #[test]
    fn the_lease_is_tried_at_once_then_every_interval() {
        let t0 = Instant::now();
        let every = Duration::from_secs(2);
        let mut r = Replication::default();
        assert_eq!(r.lease_retry_at(t0, every), t0);
        r.lease_tried(t0);
        let later = t0 + Duration::from_secs(1);
        assert_eq!(r.lease_retry_at(later, every), t0 + every);
        r.lease_tried(t0 + every);
        assert_eq!(r.lease_retry_at(later, every), t0 + every + every);
    }
}
