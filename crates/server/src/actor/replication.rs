//! Replication across processes on one database: catching up with what
//! others stored, and following the game's lease (who hosts its clocks and
//! bots, see `crate::lease`).

use super::{GameActor, Outbound};
use crate::clocks::START_KEY;
use parlor_core::{Actor, ToAct};
use serde_json::json;
use tokio::time::Instant;

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
        for a in &g.actions {
            if a.idx != self.m.actions_len() {
                continue;
            }
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
            self.lease_tried = Some(Instant::now());
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
        Some(match self.lease_tried {
            None => Instant::now(),
            Some(t) => t + self.env.settings.cluster.lease_refresh,
        })
    }
}
